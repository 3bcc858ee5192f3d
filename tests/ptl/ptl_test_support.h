// Shared by the ptl conformance suite and the per-transport cases: loading
// the transport under test through the framework, listening, forked clients,
// accepting with a bound wait.
#ifndef PMIXPP_TESTS_PTL_SUPPORT_H
#define PMIXPP_TESTS_PTL_SUPPORT_H

#include "framework/src/selected_modules.h"

#include <pmixpp/ptl.h>

#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pmixpp::tests::ptl {

// "usock" or "tcp": the compile definition picks the transport, and the
// ctest ENV forces PMIX_MCA_ptl to it, so selection yields it alone.
inline const char *transport_name()
{
    return PMIXPP_PTL_UNDER_TEST;
}

inline const pmixpp_ptl_module_t *load_transport()
{
    std::vector<framework::SelectedModule> modules;
    const pmix_status_t rc = framework::select("ptl", &modules);
    cr_assert_eq(rc, PMIX_SUCCESS, "select(ptl) failed: %d", rc);
    cr_assert_eq(modules.size(), 1u, "PMIX_MCA_ptl=%s should select one component, got %zu", transport_name(),
                 modules.size());
    cr_assert_str_eq(modules[0].component.c_str(), transport_name());
    return static_cast<const pmixpp_ptl_module_t *>(modules[0].module);
}

// Owns a set of pmix_info_t built in a test (strings point at literals).
class InfoList {
public:
    InfoList &flag(const char *key, bool value)
    {
        pmix_info_t &item = add(key);
        item.value.type = PMIX_BOOL;
        item.value.data.flag = value;
        return *this;
    }
    InfoList &text(const char *key, const char *value)
    {
        pmix_info_t &item = add(key);
        item.value.type = PMIX_STRING;
        item.value.data.string = const_cast<char *>(value);
        return *this;
    }
    InfoList &uint32(const char *key, uint32_t value)
    {
        pmix_info_t &item = add(key);
        item.value.type = PMIX_UINT32;
        item.value.data.uint32 = value;
        return *this;
    }
    InfoList &integer(const char *key, int value)
    {
        pmix_info_t &item = add(key);
        item.value.type = PMIX_INT;
        item.value.data.integer = value;
        return *this;
    }
    InfoList &real(const char *key, double value)
    {
        pmix_info_t &item = add(key);
        item.value.type = PMIX_DOUBLE;
        item.value.data.dval = value;
        return *this;
    }
    const pmix_info_t *data() const { return items_.data(); }
    size_t size() const { return items_.size(); }

private:
    pmix_info_t &add(const char *key)
    {
        pmix_info_t item;
        std::memset(&item, 0, sizeof(item));
        std::strncpy(item.key, key, PMIX_MAX_KEYLEN);
        items_.push_back(item);
        return items_.back();
    }
    std::vector<pmix_info_t> items_;
};

// The listeners of one listen() call, closed at the end of the test.
class Listening {
public:
    Listening(const pmixpp_ptl_module_t *module, const InfoList &info) : module_(module)
    {
        status_ = module->listen(info.data(), info.size(), listeners_, max_listeners, &count_);
    }
    ~Listening() { close(); }
    Listening(const Listening &) = delete;
    Listening &operator=(const Listening &) = delete;

    void close()
    {
        for (size_t i = 0; i < count_; ++i) module_->close_listener(&listeners_[i]);
        count_ = 0;
    }
    pmix_status_t status() const { return status_; }
    size_t count() const { return count_; }
    pmixpp_ptl_listener_t &operator[](size_t i) { return listeners_[i]; }

    static constexpr size_t max_listeners = 8;

private:
    const pmixpp_ptl_module_t *module_;
    pmixpp_ptl_listener_t listeners_[max_listeners] = {};
    size_t count_ = 0;
    pmix_status_t status_ = PMIX_ERROR;
};

// The transport's own info for a plain listen (usock: a private tmpdir),
// and the removal of whatever it created, at the end of each test.
InfoList default_server_info();
void remove_server_files();

// Info the transport must refuse, and the status it must refuse it with.
struct GarbageInfo {
    InfoList info;
    pmix_status_t expected;
    const char *what;
};
std::vector<GarbageInfo> garbage_info_cases();

// Waits (bounded) for a pending connection, then accepts it.
inline pmix_status_t accept_within(const pmixpp_ptl_module_t *module, const pmixpp_ptl_listener_t &listener, int *fd_p,
                                   pmixpp_peer_identity_t *peer_p, int timeout_ms = 20000)
{
    pollfd waiter{listener.fd, POLLIN, 0};
    if (poll(&waiter, 1, timeout_ms) != 1) return PMIX_ERR_TIMEOUT;
    return module->accept(&listener, fd_p, peer_p);
}

// Reads exactly `size` bytes (the accepted fd is non-blocking).
inline bool read_exactly(int fd, void *buffer, size_t size)
{
    auto *bytes = static_cast<char *>(buffer);
    size_t done = 0;
    while (done < size) {
        pollfd waiter{fd, POLLIN, 0};
        if (poll(&waiter, 1, 20000) != 1) return false;
        const ssize_t n = read(fd, bytes + done, size - done);
        if (n == 0) return false;
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

inline bool write_all(int fd, const void *buffer, size_t size)
{
    const auto *bytes = static_cast<const char *>(buffer);
    size_t done = 0;
    while (done < size) {
        const ssize_t n = write(fd, bytes + done, size - done);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) {
                pollfd waiter{fd, POLLOUT, 0};
                poll(&waiter, 1, 1000);
                continue;
            }
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

// Runs `body` in a forked child and returns its pid; the child's exit code
// is body's return value (0 = all went well).
inline pid_t fork_child(const std::function<int()> &body)
{
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork failed");
    if (pid == 0) _exit(body());
    return pid;
}

inline int wait_child(pid_t pid)
{
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Child side of the basic exchange: connect, send "ping" + our pid, expect
// "pong" back. Exit codes name the step that failed.
inline int client_ping(const pmixpp_ptl_module_t *module, const std::string &uri)
{
    int fd = -1;
    if (module->connect(uri.c_str(), 10000, &fd) != PMIX_SUCCESS) return 10;
    const pid_t self = getpid();
    char reply[4] = {};
    if (!write_all(fd, "ping", 4) || !write_all(fd, &self, sizeof(self))) return 11;
    if (!read_exactly(fd, reply, 4) || std::memcmp(reply, "pong", 4) != 0) return 12;
    close(fd);
    return 0;
}

// Server side of the same exchange; returns the pid the client said it has.
inline pid_t serve_ping(int fd)
{
    char request[4] = {};
    pid_t claimed = 0;
    cr_assert(read_exactly(fd, request, 4) && std::memcmp(request, "ping", 4) == 0, "no ping");
    cr_assert(read_exactly(fd, &claimed, sizeof(claimed)), "no pid");
    cr_assert(write_all(fd, "pong", 4), "cannot answer");
    return claimed;
}

// What a transport leaves for later (ptl/tcp: all but the uid), learned as
// the core does, while the peer is still connected.
inline void complete_identity(const pmixpp_ptl_module_t *module, int fd, pmixpp_peer_identity_t *peer_p,
                              const std::string &uri)
{
    if (peer_p->known == 1 || module->complete_identity == nullptr) return;
    cr_assert_eq(peer_p->uid_known, 1, "accept should give the uid of a local peer on %s", uri.c_str());
    const uid_t uid = peer_p->uid;
    module->complete_identity(fd, peer_p);
    cr_assert_eq(peer_p->uid, uid, "complete_identity changed the uid accept gave");
}

// Connects a forked child to `uri`, accepts, exchanges bytes both ways and
// checks that the kernel's identity of the peer is the child's.
inline void expect_round_trip(const pmixpp_ptl_module_t *module, const pmixpp_ptl_listener_t &listener)
{
    const std::string uri = listener.uri;
    const pid_t child = fork_child([&] { return client_ping(module, uri); });
    int fd = -1;
    pmixpp_peer_identity_t peer{};
    cr_assert_eq(accept_within(module, listener, &fd, &peer), PMIX_SUCCESS, "accept on %s", uri.c_str());
    complete_identity(module, fd, &peer, uri);
    cr_assert_eq(serve_ping(fd), child);
    cr_assert_eq(peer.struct_size, sizeof(peer));
    cr_assert_eq(peer.known, 1, "the kernel should identify a local peer on %s", uri.c_str());
    cr_assert_eq(peer.uid, getuid());
    cr_assert_eq(peer.gid, getgid());
    cr_assert_eq(peer.pid_known, 1);
    cr_assert_eq(peer.pid, child);
    close(fd);
    cr_assert_eq(wait_child(child), 0, "client on %s failed", uri.c_str());
}

}  // namespace pmixpp::tests::ptl

#endif
