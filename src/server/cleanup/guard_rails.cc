#include "server/cleanup/guard_rails.h"

#include "server/cleanup/mount_identity.h"

#include <pwd.h>
#include <sys/stat.h>

#include <array>
#include <cstdio>

namespace pmixpp::cleanup {
namespace {

constexpr std::array<const char *, 3> kSharedByName = {"/tmp", "/var/tmp", "/dev/shm"};
// getpwent over a directory service can be long: this many users at most.
constexpr int kMaxUsers = 100000;

std::string octal(mode_t mode)
{
    char text[16];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

std::string home_owner(const std::string &path)
{
    std::string user;
    setpwent();
    for (int seen = 0; seen < kMaxUsers && user.empty(); ++seen) {
        const struct passwd *entry = getpwent();
        if (entry == nullptr) break;
        if (entry->pw_dir != nullptr && path == entry->pw_dir) user = entry->pw_name;
    }
    endpwent();
    return user;
}

}  // namespace

std::string forbidden_target(const std::string &normal_path)
{
    for (const char *shared : kSharedByName) {
        if (normal_path == shared) {
            return "is a directory every user shares, never cleaned (register a directory of your own inside it)";
        }
    }
    struct stat info {};
    if (lstat(normal_path.c_str(), &info) != 0) return "";  // not there (yet): checked again when the cleanup runs
    if (S_ISDIR(info.st_mode) && (info.st_mode & S_ISVTX) != 0 && (info.st_mode & S_IWOTH) != 0) {
        return "is a directory every user may write in (mode " + octal(info.st_mode) +
               "), never cleaned (register a directory of your own inside it)";
    }
    if (S_ISDIR(info.st_mode) && is_mount_point(normal_path)) {
        return "is the root of a file system (a mount point), never cleaned (register a directory inside it)";
    }
    const std::string user = home_owner(normal_path);
    if (!user.empty()) {
        return "is the home directory of user " + user + ", never cleaned as a whole (register a directory inside it)";
    }
    return "";
}

}  // namespace pmixpp::cleanup
