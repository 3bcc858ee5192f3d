// Which mount a file is reached through: statx's mount id, so that a bind
// mount of the same file system counts as another file system (st_dev alone
// cannot tell it), with st_dev as the fallback on kernels without it.
#ifndef PMIXPP_SERVER_CLEANUP_MOUNT_IDENTITY_H
#define PMIXPP_SERVER_CLEANUP_MOUNT_IDENTITY_H

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace pmixpp::cleanup {

struct MountIdentity {
    uint64_t mount_id = 0;  // 0 when the kernel does not say
    dev_t device = 0;
    bool operator==(const MountIdentity &) const = default;
};

// Of `name` in the directory open as dir_fd ("" for dir_fd itself), without
// following a link at its place. False (errno set) when it cannot be read.
bool mount_identity_at(int dir_fd, const char *name, MountIdentity *identity_p);

// `path` is the root of a mount (its mount differs from its parent's), the
// last component not followed if it is a link. False also when it cannot be
// read.
bool is_mount_point(const std::string &path);

}  // namespace pmixpp::cleanup

#endif
