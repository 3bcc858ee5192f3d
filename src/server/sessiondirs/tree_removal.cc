#include "server/sessiondirs/tree_removal.h"

#include <pmixpp/util.hpp>

#include <cerrno>
#include <string>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmixpp::sessiondirs {

namespace {

constexpr int kMaxDepth = 64;  // a session tree is shallow; deeper means trouble

bool empty_directory_at(int parent_fd, const char *name, dev_t device, int depth);

// Removes one entry of the directory `dir_fd`: a directory is emptied first;
// everything else (files, links, sockets) is unlinked as is.
bool remove_entry(int dir_fd, const char *name, dev_t device, int depth)
{
    struct stat info {};
    if (fstatat(dir_fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT;
    if (!S_ISDIR(info.st_mode)) return unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT;
    if (info.st_dev != device) return false;  // a mount point: not ours to empty
    if (!empty_directory_at(dir_fd, name, device, depth + 1)) return false;
    return unlinkat(dir_fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

bool empty_directory_at(int parent_fd, const char *name, dev_t device, int depth)
{
    if (depth > kMaxDepth) return false;
    util::UniqueFd owner(openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!owner) return false;
    DIR *dir = fdopendir(owner.get());
    if (dir == nullptr) return false;
    const int fd = owner.release();  // the stream owns it now
    bool all_removed = true;
    while (const struct dirent *entry = readdir(dir)) {
        const std::string entry_name = entry->d_name;
        if (entry_name == "." || entry_name == "..") continue;
        if (!remove_entry(fd, entry_name.c_str(), device, depth)) all_removed = false;
    }
    closedir(dir);  // closes fd
    return all_removed;
}

}  // namespace

bool remove_tree(const std::string &path)
{
    if (path.empty() || path == "/") return false;
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) return errno == ENOENT;
    if (!S_ISDIR(info.st_mode)) return false;  // a link or file where our directory was
    const std::string::size_type slash = path.find_last_of('/');
    const std::string parent = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty() || name == "." || name == "..") return false;
    const util::UniqueFd parent_fd(open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!parent_fd) return false;
    return remove_entry(parent_fd.get(), name.c_str(), info.st_dev, 0);
}

}  // namespace pmixpp::sessiondirs
