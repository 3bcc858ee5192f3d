// Server side of ptl/usock: one listening Unix socket per server, its file
// under the server's tmpdir (or an abstract name when the path is too long),
// and the kernel's word (SO_PEERCRED) on every accepted peer.
#include "usock.h"

#include "../shared/ptl_shared.hpp"

#include <pmix_common.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace pmixpp::ptl::usock {
namespace {

// Owner only unless the host says otherwise: a peer also needs write
// permission to connect, so 0600 keeps every other user out.
constexpr mode_t default_socket_mode = 0600;
// Socket names tried when others are taken (squatted by another user).
constexpr int kNameAttempts = 16;

struct Settings {
    bool disabled = false;
    std::string tmpdir;
    mode_t mode = default_socket_mode;
    // PMIX_USERID / PMIX_GRPID: the job's user, when the server runs as
    // someone else (Slurm's slurmstepd is root): the socket is theirs, so
    // their clients connect here rather than fall back to tcp.
    uid_t owner_uid = static_cast<uid_t>(-1);
    gid_t owner_gid = static_cast<gid_t>(-1);
};

struct ListenerState {
    UnixAddress address;
};

// Tells apart the listeners of several servers in one process.
constinit std::atomic<unsigned> listener_counter{0};

pmix_status_t read_settings(const pmix_info_t info[], size_t ninfo, Settings *settings_p)
{
    Settings settings;
    if (const pmix_info_t *item = find_info(info, ninfo, PMIX_USOCK_DISABLE)) {
        const pmix_status_t rc = read_bool(item->value, &settings.disabled);
        if (rc != PMIX_SUCCESS) return report_bad_info(PMIX_USOCK_DISABLE, rc, "a bool");
    }
    if (const pmix_info_t *item = find_info(info, ninfo, PMIX_SERVER_TMPDIR)) {
        const pmix_status_t rc = read_string(item->value, &settings.tmpdir);
        if (rc != PMIX_SUCCESS || settings.tmpdir.empty()) {
            return report_bad_info(PMIX_SERVER_TMPDIR, rc != PMIX_SUCCESS ? rc : PMIX_ERR_BAD_PARAM,
                                   "a directory path");
        }
    }
    for (const auto &[key, id_p] : {std::pair<const char *, unsigned *>{PMIX_USERID, &settings.owner_uid},
                                    std::pair<const char *, unsigned *>{PMIX_GRPID, &settings.owner_gid}}) {
        const pmix_info_t *item = find_info(info, ninfo, key);
        if (item == nullptr) continue;
        uint64_t id = 0;
        const pmix_status_t rc = read_unsigned(item->value, UINT32_MAX - 1, 0, &id);
        if (rc != PMIX_SUCCESS) return report_bad_info(key, rc, "a uint32 id");
        *id_p = static_cast<unsigned>(id);
    }
    if (const pmix_info_t *item = find_info(info, ninfo, PMIX_SOCKET_MODE)) {
        uint64_t mode = 0;
        const pmix_status_t rc = read_unsigned(item->value, 0777, 0, &mode);
        if (rc != PMIX_SUCCESS) return report_bad_info(PMIX_SOCKET_MODE, rc, "a uint32 mode of at most 0777");
        settings.mode = static_cast<mode_t>(mode);
    }
    *settings_p = std::move(settings);
    return PMIX_SUCCESS;
}

std::string default_tmpdir()
{
    for (const char *variable : {"PMIX_SERVER_TMPDIR", "TMPDIR", "TEMP", "TMP"}) {
        const char *value = std::getenv(variable);
        if (value != nullptr && *value != '\0') return value;
    }
    return "/tmp";
}

std::string short_hostname()
{
    char host[256] = {};
    if (gethostname(host, sizeof(host) - 1) != 0 || host[0] == '\0') return "localhost";
    std::string name(host);
    // Keeps the abstract fallback name well inside sun_path.
    if (name.size() > 48) name.resize(48);
    return name;
}

std::string unique_file_name()
{
    return "pmixpp." + short_hostname() + "." + std::to_string(getpid()) + "." +
           std::to_string(listener_counter.fetch_add(1)) + ".sock";
}

// The file path when it fits in sun_path, else an abstract name.
UnixAddress choose_address(const std::string &tmpdir, const std::string &file_name)
{
    std::string path = tmpdir;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    path += "/" + file_name;
    if (path.size() <= max_name_length) return {path, false};
    log(PMIXPP_LOG_TRACE,
        "socket path %s is longer than the %zu bytes a Unix socket address holds; listening on the abstract "
        "socket @%s instead (socket mode bits do not apply to it)",
        path.c_str(), max_name_length, file_name.c_str());
    return {file_name, true};
}

// Whether the name is free to bind: a leftover socket of our own (an
// earlier process with our pid) is removed; anything else there, and a
// socket of another user above all (one can be planted in a directory
// others can write), is left alone and the caller picks another name.
bool name_is_free(const UnixAddress &address)
{
    struct stat info {};
    if (address.abstract || lstat(address.name.c_str(), &info) != 0) return true;
    if (S_ISSOCK(info.st_mode) && info.st_uid == geteuid() && unlink(address.name.c_str()) == 0) return true;
    log(PMIXPP_LOG_TRACE, "%s is taken (a %s of uid %u): trying another name", address.name.c_str(),
        S_ISSOCK(info.st_mode) ? "socket" : "file", static_cast<unsigned>(info.st_uid));
    return false;
}

// The first free name of ours in tmpdir; a few tries, then one line.
pmix_status_t choose_free_address(const std::string &tmpdir, UnixAddress *address_p)
{
    for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
        const UnixAddress address = choose_address(tmpdir, unique_file_name());
        if (name_is_free(address)) {
            *address_p = address;
            return PMIX_SUCCESS;
        }
    }
    log(PMIXPP_LOG_ERROR,
        "cannot listen in %s: %d socket names in a row are taken by files that are not ours "
        "(remove them, or choose another PMIX_SERVER_TMPDIR)",
        tmpdir.c_str(), kNameAttempts);
    return PMIX_ERR_FILE_OPEN_FAILURE;
}

pmix_status_t fail_listen(const UnixAddress &address, const char *step, int error)
{
    log(PMIXPP_LOG_ERROR, "cannot %s Unix socket %s: %s (check PMIX_SERVER_TMPDIR)", step, to_uri(address).c_str(),
        std::strerror(error));
    return status_from_errno(error);
}

// Binds, applies the mode and owner, then listens: until listen() no client
// can connect, so nobody slips in while the file still has the umask's mode.
pmix_status_t open_socket(const UnixAddress &address, const Settings &settings, int *fd_p)
{
    sockaddr_un unix_address{};
    socklen_t length = 0;
    if (!to_sockaddr(address, &unix_address, &length)) return PMIX_ERR_BAD_PARAM;
    util::UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) return fail_listen(address, "create", errno);
    if (bind(fd.get(), reinterpret_cast<const sockaddr *>(&unix_address), length) != 0) {
        return fail_listen(address, "bind", errno);
    }
    if (!address.abstract && chmod(address.name.c_str(), settings.mode) != 0) {
        const int error = errno;
        unlink(address.name.c_str());
        return fail_listen(address, "set the mode of", error);
    }
    const bool give_away = settings.owner_uid != static_cast<uid_t>(-1) || settings.owner_gid != static_cast<gid_t>(-1);
    if (!address.abstract && give_away && geteuid() == 0 &&
        chown(address.name.c_str(), settings.owner_uid, settings.owner_gid) != 0) {
        const int error = errno;
        unlink(address.name.c_str());
        return fail_listen(address, "hand to the job's user (PMIX_USERID) the", error);
    }
    if (::listen(fd.get(), SOMAXCONN) != 0) {
        const int error = errno;
        if (!address.abstract) unlink(address.name.c_str());
        return fail_listen(address, "listen on", error);
    }
    *fd_p = fd.release();
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t listen(const pmix_info_t info[], size_t ninfo, pmixpp_ptl_listener_t listeners[], size_t max, size_t *n_p)
{
    return listen_guarded(info, ninfo, listeners, max, n_p, [&](size_t *count_p) {
        Settings settings;
        pmix_status_t rc = read_settings(info, ninfo, &settings);
        if (rc != PMIX_SUCCESS) return rc;
        if (settings.disabled) return PMIX_ERR_NOT_AVAILABLE;
        if (settings.tmpdir.empty()) settings.tmpdir = default_tmpdir();
        UnixAddress address;
        if ((rc = choose_free_address(settings.tmpdir, &address)) != PMIX_SUCCESS) return rc;
        const std::string uri = to_uri(address);
        if (uri.size() >= PMIXPP_PTL_URI_MAX) return PMIX_ERR_BAD_PARAM;
        auto state = std::make_unique<ListenerState>(ListenerState{address});
        int fd = -1;
        if ((rc = open_socket(address, settings, &fd)) != PMIX_SUCCESS) return rc;
        publish_listener(&listeners[0], fd, uri, state.release());
        *count_p = 1;
        return PMIX_SUCCESS;
    });
}

void close_listener(pmixpp_ptl_listener_t *listener)
{
    if (listener == nullptr) return;
    close_listener_socket(listener);
    auto *state = static_cast<ListenerState *>(listener->state);
    listener->state = nullptr;
    if (state == nullptr) return;
    if (!state->address.abstract) unlink(state->address.name.c_str());
    delete state;
}

pmix_status_t accept(const pmixpp_ptl_listener_t *listener, int *fd_p, pmixpp_peer_identity_t *peer_p)
{
    if (peer_p == nullptr) return PMIX_ERR_BAD_PARAM;
    int fd = -1;
    const pmix_status_t rc = accept_pending(listener, &fd);
    if (rc != PMIX_SUCCESS) return rc;
    pmixpp_peer_identity_t peer{};
    peer.struct_size = sizeof(peer);
    ucred credentials{};
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 && length == sizeof(credentials)) {
        peer.known = 1;
        peer.uid = credentials.uid;
        peer.gid = credentials.gid;
        peer.pid = credentials.pid;
        peer.pid_known = credentials.pid > 0 ? 1 : 0;
    } else {
        log(PMIXPP_LOG_WARN,
            "the kernel did not say who connected to %s (%s); the peer must prove it "
            "with a credential",
            listener->uri, std::strerror(errno));
    }
    *fd_p = fd;
    *peer_p = peer;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::ptl::usock
