// What no job can mean by a registered cleanup, whoever owns it. RFC0027
// allows any absolute path and relies on owner checks, but as root those
// pass for every root-owned entry: a root rank's "/tmp/./" once removed every
// root-owned file in /tmp, other jobs' live files included. So a target is
// refused (at registration, and skipped if it became so by the time the
// cleanup runs) when it is:
//   - a directory shared by every user, by name (/tmp, /var/tmp, /dev/shm)
//     or by mode (world-writable and sticky);
//   - the root of a file system (a mount point, bind mounts included);
//   - a user's home directory itself.
// A directory inside any of these is fine: register your own.
#ifndef PMIXPP_SERVER_CLEANUP_GUARD_RAILS_H
#define PMIXPP_SERVER_CLEANUP_GUARD_RAILS_H

#include <string>

namespace pmixpp::cleanup {

// "" when the normalized path may be cleaned; else the rule it breaks, as
// the end of a sentence that starts with the path ("is ... (fix)").
std::string forbidden_target(const std::string &normal_path);

}  // namespace pmixpp::cleanup

#endif
