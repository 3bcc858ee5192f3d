#include "server/sessiondirs/owner_marker.h"

#include "common/rendezvous/rendezvous.h"

#include <pmixpp/util.hpp>

#include <cerrno>
#include <charconv>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::sessiondirs {

namespace {

constexpr std::string_view kPrefix = "pmixpp-owner pid=";
constexpr std::string_view kStartKey = " start_time=";

bool all_digits(std::string_view text)
{
    if (text.empty() || text.size() > 20) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

bool parse_marker(std::string_view text, Owner *owner_p)
{
    if (text.substr(0, kPrefix.size()) != kPrefix || text.empty() || text.back() != '\n') return false;
    text.remove_prefix(kPrefix.size());
    text.remove_suffix(1);
    const std::size_t split = text.find(kStartKey);
    if (split == std::string_view::npos) return false;
    const std::string_view pid_text = text.substr(0, split);
    const std::string_view start = text.substr(split + kStartKey.size());
    long long pid = 0;
    if (!all_digits(pid_text) || !all_digits(start)) return false;
    const auto [end, ec] = std::from_chars(pid_text.data(), pid_text.data() + pid_text.size(), pid);
    if (ec != std::errc() || pid <= 0 || pid > 0x7fffffff) return false;
    owner_p->pid = static_cast<pid_t>(pid);
    owner_p->start_time = std::string(start);
    return true;
}

}  // namespace

bool write_owner_marker(const std::string &dir)
{
    const std::string start = rendezvous::process_start_time(getpid());
    if (start.empty()) return false;
    const std::string text = std::string(kPrefix) + std::to_string(getpid()) + std::string(kStartKey) + start + "\n";
    const std::string path = dir + "/" + kOwnerMarker;
    util::UniqueFd fd(open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd) return false;
    const bool written = write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
    fd.reset();
    if (!written) unlink(path.c_str());
    return written;
}

bool read_owner_marker(const std::string &dir, Owner *owner_p)
{
    const std::string path = dir + "/" + kOwnerMarker;
    const util::UniqueFd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd) return false;
    struct stat info {};
    char buffer[128];
    ssize_t got = -1;
    if (fstat(fd.get(), &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == geteuid() &&
        info.st_size < static_cast<off_t>(sizeof(buffer))) {
        got = read(fd.get(), buffer, sizeof(buffer));
    }
    if (got <= 0) return false;
    return parse_marker(std::string_view(buffer, static_cast<std::size_t>(got)), owner_p);
}

}  // namespace pmixpp::sessiondirs
