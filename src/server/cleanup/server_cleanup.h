// Where the server meets registered cleanup (RFC0027). Progress thread only.
//
// A registration belongs to a scope: one process (its own proc was the
// target) or the local clients of a namespace (<nspace, PMIX_RANK_WILDCARD>,
// or no target: the requester's namespace). A process scope runs when that
// process terminates: its connection is lost (exit, kill) or the host
// deregisters it, whichever comes first, once. A namespace scope runs when
// every local client the host registered for it has terminated, or when the
// namespace is deregistered. What is still pending runs at finalize.
//
// Nothing of this is ever sent to the host: cleanup is local to the server.
#ifndef PMIXPP_SERVER_CLEANUP_SERVER_CLEANUP_H
#define PMIXPP_SERVER_CLEANUP_SERVER_CLEANUP_H

#include "server/cleanup/rules.h"

#include <pmix_common.h>

#include <cstddef>
#include <string>
#include <vector>

namespace pmixpp::server {
class Server;
}

namespace pmixpp::cleanup {

// A PMIx_Job_control request with cleanup directives from `requester`,
// whose files are those of `owner`. PMIX_ERR_BAD_PARAM for a relative path,
// a bad value or a target that is neither the requester nor a namespace
// with PMIX_RANK_WILDCARD; PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES as the
// RFC says. *why_p says what is wrong; nothing is kept then.
pmix_status_t register_request(server::Server &server, const pmix_proc_t &requester, const Owner &owner,
                               const std::vector<pmix_proc_t> &targets, const pmix_info_t directives[],
                               std::size_t ndirs, std::string *why_p);

// peer_lifecycle.cc: a client's connection ended (finalized, died, killed).
void on_client_gone(server::Server &server, const pmix_proc_t &proc);
// registration.cc: PMIx_server_deregister_client (after the record is gone).
void on_client_deregistered(server::Server &server, const pmix_proc_t &proc);
// registration.cc: PMIx_server_deregister_nspace (before the namespace is gone).
void on_nspace_deregistered(server::Server &server, const std::string &nspace);
// lifecycle.cc: PMIx_server_finalize runs everything still pending.
void on_finalize(server::Server &server);

// For tests: how many scopes still wait for their process or namespace.
std::size_t pending_scopes(const server::Server &server);

}  // namespace pmixpp::cleanup

#endif
