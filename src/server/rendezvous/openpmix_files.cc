#include "server/rendezvous/openpmix_files.h"

#include "common/openpmix/version.h"
#include "common/runtime/log.h"
#include "server/state/server.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace pmixpp::rendezvous {

namespace {

constexpr const char *kOpenPmixVerbose = "PMIX_MCA_pmix_server_verbose";
constexpr mode_t kOpenPmixMode = 0640;  // what OpenPMIx gives its files
constexpr std::size_t kOpenPmixMaxRead = 4096;

struct WrittenFile {
    std::string path;
    std::string uri;  // line 1: with the pid, what makes the file ours
};

std::vector<WrittenFile> &openpmix_written()
{
    static std::vector<WrittenFile> files;
    return files;
}

// The first two lines (URI, version) and the pid of an OpenPMIx-style file
// we may touch: a regular file of our euid, not a link. False otherwise.
bool read_openpmix_file(const std::string &path, std::string *uri_p, pid_t *pid_p)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat info {};
    std::string text(kOpenPmixMaxRead, '\0');
    ssize_t got = -1;
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == ::geteuid()) {
        got = ::read(fd, text.data(), text.size());
    }
    ::close(fd);
    if (got <= 0) return false;
    text.resize(static_cast<std::size_t>(got));
    const std::size_t first = text.find('\n');
    const std::size_t second = first == std::string::npos ? first : text.find('\n', first + 1);
    const std::size_t third = second == std::string::npos ? second : text.find('\n', second + 1);
    if (third == std::string::npos) return false;
    const std::string pid_text = text.substr(second + 1, third - second - 1);
    char *end = nullptr;
    const long pid = std::strtol(pid_text.c_str(), &end, 10);
    if (pid_text.empty() || *end != '\0' || pid <= 0) return false;
    *uri_p = text.substr(0, first);
    *pid_p = static_cast<pid_t>(pid);
    return true;
}

bool pid_runs(pid_t pid)
{
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

// O_EXCL|O_NOFOLLOW: never through a link or over another's file in a
// directory others may write.
bool create_exclusive(const std::string &path, const std::string &text, std::string *why_p)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kOpenPmixMode);
    if (fd < 0) {
        *why_p = std::strerror(errno);
        return false;
    }
    bool ok = ::fchmod(fd, kOpenPmixMode) == 0;  // exactly 0640 whatever the umask
    std::string_view rest = text;
    while (ok && !rest.empty()) {
        const ssize_t put = ::write(fd, rest.data(), rest.size());
        if (put < 0 && errno == EINTR) continue;
        ok = put > 0;
        if (ok) rest.remove_prefix(static_cast<std::size_t>(put));
    }
    if (!ok) *why_p = std::strerror(errno);
    ::close(fd);
    if (!ok) ::unlink(path.c_str());
    return ok;
}

void write_openpmix_file(const std::string &path, const std::string &uri, const std::string &text)
{
    std::string why;
    if (!create_exclusive(path, text, &why) && errno == EEXIST) {
        // A leftover of a dead server of ours (OpenPMIx's or a crashed one):
        // replaced. A live one's, or another user's, stays.
        std::string old_uri;
        pid_t old_pid = 0;
        if (read_openpmix_file(path, &old_uri, &old_pid) && !pid_runs(old_pid) && ::unlink(path.c_str()) == 0) {
            why.clear();
            (void)create_exclusive(path, text, &why);
        } else {
            why = "it exists and is not a stale file of ours";
        }
    }
    if (!why.empty()) {
        runtime::log_warning("server", "no OpenPMIx rendezvous file " + path + ": " + why +
                                           " (OpenPMIx tools will not find this server there)");
        return;
    }
    openpmix_written().push_back(WrittenFile{path, uri});
    runtime::log_trace(kOpenPmixVerbose, "server", "wrote the OpenPMIx rendezvous file " + path);
}

}  // namespace

std::string openpmix_text(const std::string &uri, pid_t pid, uid_t uid, gid_t gid, std::time_t now)
{
    char when[64] = {};
    if (::ctime_r(&now, when) == nullptr) std::strcpy(when, "\n");
    return uri + "\n" + openpmix::kAdvertisedVersion + "\n" + std::to_string(pid) + "\n" + std::to_string(uid) + ":" +
           std::to_string(gid) + "\n" + when + "\n";
}

void publish_openpmix_files(const server::Server &server)
{
    const server::Config &config = server.config;
    if (!config.session_support && !config.tool_support) return;
    const std::string uri = server.openpmix_contact();
    if (uri.empty()) {
        runtime::log_trace(kOpenPmixVerbose, "server", "no tcp listener: no OpenPMIx rendezvous files");
        return;
    }
    const std::string text = openpmix_text(uri, ::getpid(), ::geteuid(), ::getegid(), std::time(nullptr));
    const std::string stem = config.server_tmpdir + "/pmix." + config.hostname + ".tool";
    if (config.session_support) write_openpmix_file(stem, uri, text);
    if (config.tool_support) {
        write_openpmix_file(stem + "." + std::to_string(::getpid()), uri, text);
        write_openpmix_file(stem + "." + config.nspace, uri, text);
    }
}

void withdraw_openpmix_files()
{
    for (const WrittenFile &file : openpmix_written()) {
        std::string uri;
        pid_t pid = 0;
        if (read_openpmix_file(file.path, &uri, &pid) && pid == ::getpid() && uri == file.uri)
            ::unlink(file.path.c_str());
    }
    openpmix_written().clear();
}

}  // namespace pmixpp::rendezvous
