// Stale reaping: at PMIx_server_init, before the server
// creates anything, the session directories and rendezvous files that dead
// servers of the same user left behind (kill -9, crash) are removed, so
// /tmp does not fill up. Never touches what belongs to another uid or to a
// live server, nor a file that does not parse as ours. One trace line per
// reaped item (PMIX_MCA_pmix_server_verbose), nothing when there is nothing.
#ifndef PMIXPP_SERVER_SESSIONDIRS_STALE_REAPER_H
#define PMIXPP_SERVER_SESSIONDIRS_STALE_REAPER_H

#include <string>
#include <vector>

namespace pmixpp::sessiondirs {

// Reaps in each directory of dirs (duplicates are visited once).
void reap_stale(const std::vector<std::string> &dirs);

// The session directories pmix-session.<our euid>.<pid> in dir whose owner
// is dead; the number removed.
int reap_stale_session_dirs(const std::string &dir);
// The listener sockets pmixpp.<host>.<pid>.<n>.sock (ptl usock) of our uid
// in dir whose pid no longer runs; the number removed. (A socket carries no
// start time: one whose pid was reused is kept.)
int reap_stale_socket_files(const std::string &dir);
// The rendezvous files pmix.* in dir of our uid whose server is dead, and
// temp files of dead writers; the number removed.
int reap_stale_rendezvous_files(const std::string &dir);

}  // namespace pmixpp::sessiondirs

#endif
