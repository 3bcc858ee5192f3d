// Where fence arenas live and how the orphans of a crashed server go.
//
// An arena is written at every fence, so it belongs in memory: a session
// directory on a disk file system would turn each fence into page-cache
// traffic (and the job's first fence into block allocation), hence /dev/shm
// when the session directory is not tmpfs. Each file is named after the
// server's uid and pid: the server removes its own, and any server that
// makes an arena in a directory first removes the ones whose server is gone.
#include "common/fence_arena/arena.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace pmixpp::arena {
namespace {

constexpr const char *kDirEnv = "PMIX_MCA_pmix_fence_arena_dir";
constexpr const char *kPrefix = "pmixpp-fence.";

bool in_memory(const std::string &dir)
{
    struct statfs fs {};
    return ::statfs(dir.c_str(), &fs) == 0 && (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC);
}

bool writable_directory(const std::string &dir)
{
    struct stat st {};
    return !dir.empty() && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
           ::access(dir.c_str(), W_OK | X_OK) == 0;
}

bool server_alive(long pid)
{
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

// The pid in "pmixpp-fence.<uid>.<pid>.<serial>" when the uid is ours; 0 else.
long orphan_candidate(const char *name, uid_t uid)
{
    const std::size_t prefix = std::strlen(kPrefix);
    if (std::strncmp(name, kPrefix, prefix) != 0) return 0;
    char *end = nullptr;
    const unsigned long owner = std::strtoul(name + prefix, &end, 10);
    if (end == nullptr || *end != '.' || owner != uid) return 0;
    const long pid = std::strtol(end + 1, &end, 10);
    return end != nullptr && *end == '.' ? pid : 0;
}

}  // namespace

std::string arena_directory(const std::string &session_dir)
{
    if (const char *chosen = std::getenv(kDirEnv); chosen != nullptr && chosen[0] != '\0') return chosen;
    if (in_memory(session_dir)) return session_dir;
    if (writable_directory("/dev/shm")) return "/dev/shm";
    return session_dir;
}

std::string arena_path(const std::string &dir, uint64_t serial)
{
    return dir + "/" + kPrefix + std::to_string(::getuid()) + "." + std::to_string(::getpid()) + "." +
           std::to_string(serial);
}

int reap_orphans(const std::string &dir)
{
    DIR *listing = ::opendir(dir.c_str());
    if (listing == nullptr) return 0;
    int removed = 0;
    const uid_t uid = ::getuid();
    while (const struct dirent *entry = ::readdir(listing)) {
        const long pid = orphan_candidate(entry->d_name, uid);
        if (pid == 0 || pid == ::getpid() || server_alive(pid)) continue;
        // Only regular files (arenas) and FIFOs (their doorbells) this user
        // owns, whatever the name says.
        struct stat st {};
        if (::fstatat(::dirfd(listing), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) || (st.st_uid != uid && uid != 0)) {
            continue;
        }
        if (::unlinkat(::dirfd(listing), entry->d_name, 0) == 0) ++removed;
    }
    ::closedir(listing);
    return removed;
}

}  // namespace pmixpp::arena
