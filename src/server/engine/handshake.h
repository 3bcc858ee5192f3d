// The server side of the handshake: Hello in, Welcome or Refuse out.
//
// Checks, in order (each failure is a Refuse with the status in brackets, a
// log line "pmixpp: server: refused <peer>: <reason>" and the close of that
// connection only): a decodable Hello [UNPACK_FAILURE], a common protocol
// version [NOT_SUPPORTED], a client, tool or launcher peer type
// [NOT_SUPPORTED], a psec module of ours by the Hello's name [NOT_SUPPORTED],
// the credential and the kernel's identity [INVALID_CRED], a registered
// nspace and rank [NOT_FOUND], the uid/gid given to register_client
// [INVALID_CRED], a rank not connected already [INVALID_CRED], a common gds
// module [NOT_SUPPORTED], and the host's client_connected2/client_connected
// (called with no callback, as OpenPMIx 4.2 does: PMIX_SUCCESS or
// PMIX_OPERATION_SUCCEEDED accept, anything else refuses with that status).
// A tool or launcher passes the transport and psec checks and then goes to
// the host's tool_connected (tool_peers.h) instead of the registration checks.
#ifndef PMIXPP_SERVER_ENGINE_HANDSHAKE_H
#define PMIXPP_SERVER_ENGINE_HANDSHAKE_H

#include "common/wire/frame.h"

#include <string>
#include "server/state/server.h"

namespace pmixpp::server {

void handle_hello(Server &server, Peer &peer, const wire::Frame &frame);

// Once every local client of a job is registered, and before the first of
// them can say hello, the job's data is written where clients read it (gds
// shmem's segment), so that no client's PMIx_Init waits for it. Called as
// clients and namespaces are registered; at most once per job does work.
void share_job_data_when_registered(Server &server, const std::string &nspace);

// Sends a Refuse with reason, logs it, and closes the connection once sent.
void refuse_peer(Peer &peer, pmix_status_t status, const std::string &reason);

}  // namespace pmixpp::server

#endif
