// Tools (and launchers, treated as tools) connecting to the server: after
// the transport and psec checks of the handshake, the host's tool_connected
// upcall decides and names the tool (or echoes the identity the tool asked
// for). The server then keeps the tool as a peer with a proc: a Namespace
// entry flagged `tool` (not a job the host registered) holding one
// ClientRecord per connected tool, so requests from a tool go through the
// same handlers as a client's. When its connection ends the tool is
// forgotten (no termination event: a tool is no job member).
// Progress thread only.
#ifndef PMIXPP_SERVER_ENGINE_TOOL_PEERS_H
#define PMIXPP_SERVER_ENGINE_TOOL_PEERS_H

#include <sys/types.h>

#include "common/wire/messages.h"
#include "server/state/server.h"

namespace pmixpp::server {

// Asks the host's tool_connected (with PMIX_USERID, PMIX_GRPID,
// PMIX_PROC_PID, and PMIX_TOOL_NSPACE/PMIX_TOOL_RANK when the tool gave
// them); the Welcome or Refuse follows its callback, which may come from
// any thread, or never (the handshake timeout then closes the connection).
// Refused at once with PMIX_ERR_NOT_SUPPORTED when the host has no
// tool_connected.
void admit_tool(Server &server, Peer &peer, const wire::Hello &hello, uint16_t version, uid_t uid, gid_t gid);

// The tool's connection ended: its record (and its namespace entry, with
// its last tool) goes.
void forget_tool(Server &server, const Peer &peer);

}  // namespace pmixpp::server

#endif
