#include "server/cleanup/mount_identity.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace pmixpp::cleanup {

bool mount_identity_at(int dir_fd, const char *name, MountIdentity *identity_p)
{
    struct statx info {};
    const int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | (name[0] == '\0' ? AT_EMPTY_PATH : 0);
    if (statx(dir_fd, name, flags, STATX_BASIC_STATS | STATX_MNT_ID, &info) != 0) return false;
    identity_p->mount_id = (info.stx_mask & STATX_MNT_ID) != 0 ? info.stx_mnt_id : 0;
    identity_p->device = makedev(info.stx_dev_major, info.stx_dev_minor);
    return true;
}

bool is_mount_point(const std::string &path)
{
    if (path == "/") return true;
    const std::size_t slash = path.find_last_of('/');
    const std::string parent = slash == 0 ? "/" : path.substr(0, slash);
    MountIdentity own;
    MountIdentity above;
    if (!mount_identity_at(AT_FDCWD, path.c_str(), &own) || !mount_identity_at(AT_FDCWD, parent.c_str(), &above)) {
        return false;
    }
    return !(own == above);
}

}  // namespace pmixpp::cleanup
