// Who a connected peer is as a user: the uid/gid the host registered for
// the client, else what the kernel said of the connection (tools).
#ifndef PMIXPP_SERVER_REQUESTS_PEER_IDENTITY_H
#define PMIXPP_SERVER_REQUESTS_PEER_IDENTITY_H

#include "common/wire/messages.h"
#include "server/state/server.h"

#include <sys/types.h>

namespace pmixpp::server {

// False when neither is known.
bool peer_user(Server &server, const Peer &peer, uid_t *uid_p, gid_t *gid_p);

// Appends PMIX_USERID and PMIX_GRPID of the peer to info, when known. The
// host's publish / lookup / unpublish get them, as OpenPMIx hands them (Open
// MPI's data server refuses a lookup without the requester's user id).
pmix_status_t append_peer_user(Server &server, const Peer &peer, wire::InfoArray &info);
// The same for a known user (the host's own requests: its own uid and gid).
pmix_status_t append_user(uid_t uid, gid_t gid, wire::InfoArray &info);

}  // namespace pmixpp::server

#endif
