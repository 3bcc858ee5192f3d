// The owner marker of a session directory: a small file `.pmixpp-owner`
// inside pmix-session.<uid>.<pid> naming the server that made it (pid and
// start time). With it, a later server tells a dead owner from a pid that
// the kernel gave to another program since (stale reaping, stale_reaper.h).
#ifndef PMIXPP_SERVER_SESSIONDIRS_OWNER_MARKER_H
#define PMIXPP_SERVER_SESSIONDIRS_OWNER_MARKER_H

#include <string>

#include <sys/types.h>

namespace pmixpp::sessiondirs {

inline constexpr const char *kOwnerMarker = ".pmixpp-owner";

struct Owner {
    pid_t pid = 0;
    std::string start_time;
};

// Writes the marker of this process into dir (mode 0600, never through a
// link). False when it could not be written.
bool write_owner_marker(const std::string &dir);

// Reads the marker of dir: a regular file of our euid, small, in the
// expected form. False otherwise (no marker, or one we cannot trust).
bool read_owner_marker(const std::string &dir, Owner *owner_p);

}  // namespace pmixpp::sessiondirs

#endif
