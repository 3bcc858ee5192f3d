// Where the server's life cycle meets its session directories: one call per
// event (init, register_nspace, register_client/setup_fork, the
// deregistrations, finalize). Progress thread only. A directory that cannot
// be made is logged and left out: the job still runs, without that key.
#ifndef PMIXPP_SERVER_SESSIONDIRS_SERVER_HOOKS_H
#define PMIXPP_SERVER_SESSIONDIRS_SERVER_HOOKS_H

#include <pmix_common.h>

#include <cstddef>
#include <string>

namespace pmixpp::server {
class Server;
struct Peer;
}  // namespace pmixpp::server

namespace pmixpp::sessiondirs {

// PMIX_TMPDIR and PMIX_TDIR_RMCLEAN of PMIx_server_init.
void on_server_init(server::Server &server, const pmix_info_t info[], std::size_t ninfo);
// Makes the nspace dir (and the proc dirs of clients registered earlier)
// and stores PMIX_TMPDIR / PMIX_NSDIR as job data when the host gave none.
void on_register_nspace(server::Server &server, const std::string &nspace, const pmix_info_t info[], std::size_t ninfo);
// Names the proc dir (PMIX_PROCDIR) for the rank when the host gave none,
// and makes it unless it can wait for its process (session_dirs.h).
// Nothing before the nspace is registered.
void on_register_client(server::Server &server, const std::string &nspace, pmix_rank_t rank);
// A client connected: one whose library is not ours (it will not make its
// own proc dir when it asks for it) gets it made now.
void on_client_connected(server::Server &server, server::Peer &peer);
void on_deregister_client(server::Server &server, const std::string &nspace, pmix_rank_t rank);
void on_deregister_nspace(server::Server &server, const std::string &nspace);
void on_finalize(server::Server &server);

}  // namespace pmixpp::sessiondirs

#endif
