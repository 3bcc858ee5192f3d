// What the server does when a peer's connection ends. A client that called
// PMIx_Finalize leaves quietly. One that did not (crash, kill, exit without
// finalize) is an abnormal termination: its pending collectives fail or go
// on without it (fence.cc), its event registrations go, and local clients
// registered for PMIX_ERR_PROC_TERM_WO_SYNC hear about it (range namespace,
// PMIX_EVENT_AFFECTED_PROC set). Either way the proc is recorded as gone
// (Namespace::gone) until it connects again: a later fence that includes
// it fails at once, and whoever waits for its uncommitted data is answered
// PMIX_ERR_NOT_FOUND. The host's client_finalized is NOT called
// for it: the host learns of the death from the process itself (waitpid).
#ifndef PMIXPP_SERVER_ENGINE_PEER_LIFECYCLE_H
#define PMIXPP_SERVER_ENGINE_PEER_LIFECYCLE_H

#include "server/state/server.h"

namespace pmixpp::server {

void peer_gone(Server &server, Peer &peer, pmix_status_t reason);

// Closes every connection of nspace (deregistration), or of one client.
void disconnect_clients(Server &server, const std::string &nspace);
void disconnect_client(Server &server, const pmix_proc_t &proc);

}  // namespace pmixpp::server

#endif
