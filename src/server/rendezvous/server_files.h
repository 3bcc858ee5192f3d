// Where the server's life cycle meets its rendezvous files (seed
// session-directories.rst, docs/rendezvous.md): reaping of dead servers'
// leftovers before init creates anything, the files written once the
// listeners are up, and their removal at finalize.
//
// There is at most one server per process; the list of what it wrote is
// kept here, touched on the progress thread only (and by start_server before
// the server is published).
#ifndef PMIXPP_SERVER_RENDEZVOUS_SERVER_FILES_H
#define PMIXPP_SERVER_RENDEZVOUS_SERVER_FILES_H

#include <pmix_common.h>

#include <cstddef>

namespace pmixpp::server {
class Server;
struct Config;
}  // namespace pmixpp::server

namespace pmixpp::rendezvous {

// Removes stale session directories and rendezvous files of dead servers of
// our uid in the system and the server tmpdir.
void reap_before_start(const server::Config &config);

// Writes (or claims) every rendezvous file PMIx_server_init's info asks for,
// and stores PMIX_SERVER_START_TIME for the server's own proc. On failure
// (PMIX_ERR_EXISTS: a live server holds an exclusive file) one line is
// logged; the caller's shut-down then calls withdraw_server_files, which
// undoes what was done.
pmix_status_t publish_server_files(server::Server &server, const pmix_info_t info[], std::size_t ninfo);

// Removes every file publish_server_files wrote (only while it still names
// this process) and the directories it created for them.
void withdraw_server_files();

}  // namespace pmixpp::rendezvous

#endif
