// The OpenPMIx dialect of the server: peers whose library is OpenPMIx's
// (2.1 to 6.x) speak its protocol to the same listener as ours; this folder
// turns their messages into the server's own requests and the server's
// answers back into theirs, so fences, gets, events and every other request
// keep one implementation. The engine calls these two; everything the
// server sends such a peer passes through its PeerDialect (dialect.h).
#ifndef PMIXPP_SERVER_OPENPMIX_EDGE_H
#define PMIXPP_SERVER_OPENPMIX_EDGE_H

#include "common/wire/frame.h"
#include "server/state/server.h"

#include <vector>

namespace pmixpp::server {

// The connect request (the first frame of an OpenPMIx connection) as our
// Hello, for the engine's handshake, which checks and answers it like any
// other. Installs the peer's dialect. False when the request was refused
// here (malformed, an encoding or version we do not speak, an in-band
// identity the kernel contradicts): the refusal is logged and sent.
bool openpmix_hello(Server &server, Peer &peer, const wire::Frame &connect, wire::Frame *hello_p);

// One request of a connected OpenPMIx peer as our request frames (one,
// mostly; a deregistration of several handlers, several), for the engine's
// dispatch; false when it was answered here (its job data, or a command
// without a counterpart) or dropped as malformed.
bool openpmix_request(Server &server, Peer &peer, const wire::Frame &request, std::vector<wire::Frame> *ours_p);

}  // namespace pmixpp::server

#endif
