#include "server/cleanup/walker.h"

#include "common/runtime/log.h"
#include "server/cleanup/guard_rails.h"
#include "server/cleanup/mount_identity.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::cleanup {

namespace {

constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

std::string error_text(int error)
{
    return std::string("error: ") + std::strerror(error);
}

std::string other_owner(const struct stat &info, const Owner &owner)
{
    return "owned by " + std::to_string(info.st_uid) + ":" + std::to_string(info.st_gid) + ", not by the requester " +
           std::to_string(owner.uid) + ":" + std::to_string(owner.gid);
}

bool owned_by(const struct stat &info, const Owner &owner)
{
    return info.st_uid == owner.uid && info.st_gid == owner.gid;
}

bool same_inode(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// A path split into the directory that holds it and its last component.
struct Location {
    std::string parent;
    std::string name;
};

Location locate(const std::string &path)
{
    const std::size_t slash = path.find_last_of('/');
    return Location{slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

using util::UniqueFd;

// The directory `path` (normalized, absolute), reached one component at a
// time from "/" without following a link anywhere on the way (what openat2's
// RESOLVE_NO_SYMLINKS does): a link above the target, planted by whoever can
// write there, must not move the cleanup somewhere else. None with *why_p.
UniqueFd open_directory_without_links(const std::string &path, std::string *why_p)
{
    UniqueFd dir(open("/", kDirectoryFlags));
    std::size_t at = 1;
    while (dir && at < path.size()) {
        const std::size_t slash = std::min(path.find('/', at), path.size());
        const std::string component = path.substr(at, slash - at);
        at = slash + 1;
        const int next = openat(dir.get(), component.c_str(), kDirectoryFlags);
        if (next < 0) {
            *why_p = errno == ELOOP || errno == ENOTDIR
                         ? path.substr(0, slash) + " is a symbolic link or not a directory: the path is not followed"
                         : error_text(errno);
            return UniqueFd();
        }
        dir.reset(next);
    }
    if (!dir) *why_p = error_text(errno);
    return dir;
}

// The names in a directory, read before anything is removed from it.
bool read_names(int fd, std::vector<std::string> *names_p)
{
    UniqueFd copy(dup(fd));  // fdopendir takes the fd; the caller keeps its own
    if (!copy) return false;
    DIR *dir = fdopendir(copy.get());
    if (dir == nullptr) return false;
    (void)copy.release();  // closedir closes it
    while (const struct dirent *entry = readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
        names_p->emplace_back(entry->d_name);
    }
    closedir(dir);
    return true;
}

// One directory tree of a DirectoryEntry.
class TreeWalk {
public:
    TreeWalk(const DirectoryEntry &top, MountIdentity mount, const std::set<std::string> &ignores, SkipReport &report)
        : top_(top), mount_(mount), device_(mount.device), ignores_(ignores), report_(report)
    {}

    // Cleans the directory open as fd at path; true when it is now empty.
    bool clean(int fd, const std::string &path, int depth)
    {
        std::vector<std::string> names;
        if (!read_names(fd, &names)) {
            report_.skipped(path, error_text(errno));
            return false;
        }
        bool kept = false;
        for (const std::string &name : names) {
            if (!clean_entry(fd, path + "/" + name, name, depth)) kept = true;
        }
        return !kept;
    }

private:
    // True when the entry is gone.
    bool clean_entry(int dir_fd, const std::string &path, const std::string &name, int depth)
    {
        if (budget_ == 0) return skip_once_over_budget(path);
        --budget_;
        struct stat info {};
        if (fstatat(dir_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT) return true;
            return skip(path, error_text(errno));
        }
        if (ignores_.count(path) != 0) return skip(path, "ignored (PMIX_CLEANUP_IGNORE)");
        if (info.st_dev != device_) return skip(path, "on another file system than " + top_.path);
        if (!owned_by(info, top_.owner)) return skip(path, other_owner(info, top_.owner));
        if (S_ISDIR(info.st_mode)) return clean_subdirectory(dir_fd, path, name, info, depth);
        if (top_.empty_only) return skip(path, "not a directory (PMIX_CLEANUP_EMPTY removes empty directories only)");
        // A symbolic link is unlinked as it is: its target is never looked at.
        return remove_at(dir_fd, name, 0, path);
    }

    bool clean_subdirectory(int dir_fd, const std::string &path, const std::string &name, const struct stat &info,
                            int depth)
    {
        if (!top_.recursive) return skip(path, "a subdirectory, and the request is not recursive");
        MountIdentity mount;
        if (!mount_identity_at(dir_fd, name.c_str(), &mount)) return skip(path, error_text(errno));
        if (!(mount == mount_)) return skip(path, "on another file system than " + top_.path + " (a mount point)");
        if (depth + 1 >= kMaxDepth) return skip(path, "deeper than " + std::to_string(kMaxDepth) + " levels");
        const UniqueFd fd(openat(dir_fd, name.c_str(), kDirectoryFlags));
        if (!fd) return skip(path, error_text(errno));
        struct stat opened {};
        if (fstat(fd.get(), &opened) != 0 || !same_inode(opened, info)) {
            return skip(path, "replaced while it was being cleaned");
        }
        if (!clean(fd.get(), path, depth + 1)) return skip(path, "not empty");
        return remove_at(dir_fd, name, AT_REMOVEDIR, path);
    }

    bool remove_at(int dir_fd, const std::string &name, int flags, const std::string &path)
    {
        if (unlinkat(dir_fd, name.c_str(), flags) == 0 || errno == ENOENT) return true;
        return skip(path, error_text(errno));
    }

    bool skip(const std::string &path, std::string_view why)
    {
        report_.skipped(path, why);
        return false;
    }

    bool skip_once_over_budget(const std::string &path)
    {
        if (!over_budget_reported_) {
            report_.skipped(path, "more than " + std::to_string(kMaxEntries) + " entries under " + top_.path +
                                      ": the rest is left alone");
        }
        over_budget_reported_ = true;
        return false;
    }

    const DirectoryEntry &top_;
    const MountIdentity mount_;  // of the top directory: a bind mount inside is another mount
    const dev_t device_;
    const std::set<std::string> &ignores_;
    SkipReport &report_;
    std::size_t budget_ = kMaxEntries;
    bool over_budget_reported_ = false;
};

// The top directory, looked at without following a link at its place.
bool open_top(const DirectoryEntry &dir, int parent_fd, const std::string &name, struct stat *info_p,
              SkipReport &report, UniqueFd *fd_p)
{
    if (fstatat(parent_fd, name.c_str(), info_p, AT_SYMLINK_NOFOLLOW) != 0) {
        report.skipped(dir.path, error_text(errno));
        return false;
    }
    if (S_ISLNK(info_p->st_mode)) {
        report.skipped(dir.path, "a symbolic link, not followed (register the directory it points to instead)");
        return false;
    }
    if (!S_ISDIR(info_p->st_mode)) {
        report.skipped(dir.path, "not a directory");
        return false;
    }
    if (!owned_by(*info_p, dir.owner)) {
        report.skipped(dir.path, other_owner(*info_p, dir.owner));
        return false;
    }
    UniqueFd fd(openat(parent_fd, name.c_str(), kDirectoryFlags));
    struct stat opened {};
    if (!fd || fstat(fd.get(), &opened) != 0 || !same_inode(opened, *info_p)) {
        report.skipped(dir.path, !fd ? error_text(errno) : "replaced while it was being cleaned");
        return false;
    }
    *fd_p = std::move(fd);
    return true;
}

}  // namespace

bool debug_enabled()
{
    const char *value = std::getenv("PMIX_DEBUG");
    return value != nullptr && std::atoi(value) >= 10;
}

void SkipReport::skipped(const std::string &path, std::string_view why)
{
    if (verbose_) runtime::log_warning("cleanup", "skipped " + path + ": " + std::string(why));
    items_.emplace_back(path, std::string(why));
}

std::string SkipReport::reason_for(const std::string &path) const
{
    for (const auto &[skipped, why] : items_) {
        if (skipped == path) return why;
    }
    return "";
}

void remove_listed_file(const FileEntry &file, const std::set<std::string> &ignores, SkipReport &report)
{
    if (ignores.count(file.path) != 0) return report.skipped(file.path, "ignored (PMIX_CLEANUP_IGNORE)");
    if (const std::string rule = forbidden_target(file.path); !rule.empty()) return report.skipped(file.path, rule);
    const Location where = locate(file.path);
    std::string why;
    const UniqueFd parent = open_directory_without_links(where.parent, &why);
    if (!parent) return report.skipped(file.path, why);
    struct stat info {};
    if (fstatat(parent.get(), where.name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
        return report.skipped(file.path, error_text(errno));
    }
    if (S_ISDIR(info.st_mode)) {
        return report.skipped(file.path, "a directory (register it with PMIX_REGISTER_CLEANUP_DIR)");
    }
    if (!owned_by(info, file.owner)) return report.skipped(file.path, other_owner(info, file.owner));
    if (unlinkat(parent.get(), where.name.c_str(), 0) != 0 && errno != ENOENT) {
        report.skipped(file.path, error_text(errno));
    }
}

void clean_directory(const DirectoryEntry &dir, const std::set<std::string> &ignores, SkipReport &report)
{
    if (ignores.count(dir.path) != 0) return report.skipped(dir.path, "ignored (PMIX_CLEANUP_IGNORE)");
    if (const std::string rule = forbidden_target(dir.path); !rule.empty()) return report.skipped(dir.path, rule);
    const Location where = locate(dir.path);
    std::string why;
    const UniqueFd parent = open_directory_without_links(where.parent, &why);
    if (!parent) return report.skipped(dir.path, why);
    struct stat top {};
    UniqueFd fd;
    if (!open_top(dir, parent.get(), where.name, &top, report, &fd)) return;
    MountIdentity mount;
    if (!mount_identity_at(fd.get(), "", &mount)) return report.skipped(dir.path, error_text(errno));
    TreeWalk walk(dir, mount, ignores, report);
    const bool emptied = walk.clean(fd.get(), dir.path, 0);
    if (dir.leave_top) return;
    if (!emptied) return report.skipped(dir.path, "not empty");
    struct stat now {};
    if (fstatat(parent.get(), where.name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 || !same_inode(now, top)) {
        return report.skipped(dir.path, "replaced while it was being cleaned");
    }
    if (unlinkat(parent.get(), where.name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
        report.skipped(dir.path, error_text(errno));
    }
}

void execute(const CleanupSet &set, SkipReport &report)
{
    for (const FileEntry &file : set.files()) remove_listed_file(file, set.ignores(), report);
    for (const DirectoryEntry &dir : set.directories()) clean_directory(dir, set.ignores(), report);
}

}  // namespace pmixpp::cleanup
