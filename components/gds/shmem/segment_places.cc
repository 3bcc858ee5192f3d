// Where segment files go (segment_places.h).
#include "segment_places.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

namespace gds_shmem {
namespace {

bool in_memory(const std::string &dir)
{
    struct statfs fs {};
    if (::statfs(dir.c_str(), &fs) != 0) return false;
    return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}

// The memory directory, swept of dead servers' segments the first time this
// process uses it.
std::string swept_memory_directory()
{
    const std::string memory = memory_dir();
    if (!usable_directory(memory)) return {};
    static std::mutex swept_mutex;
    static std::set<std::string> swept;
    std::lock_guard lock(swept_mutex);
    if (swept.insert(memory).second) (void)reap_orphan_segments(memory);
    return memory;
}

// The pid in "gds-shmem.<pid>.<serial>.<name>[.modex][.tmp]"; 0 for any
// other name.
long segment_owner(const char *name)
{
    static constexpr const char kPrefix[] = "gds-shmem.";
    if (std::strncmp(name, kPrefix, sizeof kPrefix - 1) != 0) return 0;
    char *end = nullptr;
    const long pid = std::strtol(name + sizeof kPrefix - 1, &end, 10);
    return end != nullptr && *end == '.' ? pid : 0;
}

}  // namespace

bool usable_directory(const std::string &dir)
{
    struct stat st {};
    return !dir.empty() && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
           ::access(dir.c_str(), W_OK | X_OK) == 0;
}

std::string place_for(const std::string &namespace_dir, SegmentKind kind)
{
    if (namespace_dir.empty() || in_memory(namespace_dir) || kept_on_disk(kind)) return namespace_dir;
    const std::string memory = swept_memory_directory();
    if (memory.empty() && kind == SegmentKind::job_data) return namespace_dir;
    return memory;
}

int reap_orphan_segments(const std::string &dir)
{
    DIR *listing = ::opendir(dir.c_str());
    if (listing == nullptr) return 0;
    int removed = 0;
    const uid_t uid = ::getuid();
    while (const struct dirent *entry = ::readdir(listing)) {
        const long pid = segment_owner(entry->d_name);
        if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM) continue;
        struct stat st {};
        if (::fstatat(::dirfd(listing), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            (st.st_uid != uid && uid != 0)) {
            continue;
        }
        if (::unlinkat(::dirfd(listing), entry->d_name, 0) == 0) ++removed;
    }
    ::closedir(listing);
    return removed;
}

}  // namespace gds_shmem
