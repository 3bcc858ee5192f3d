// Routes one REQUEST frame of a connected peer to its handler. A payload
// that does not decode closes that connection with a logged reason; a
// command this server does not implement gets PMIX_ERR_NOT_SUPPORTED.
#ifndef PMIXPP_SERVER_ENGINE_DISPATCH_H
#define PMIXPP_SERVER_ENGINE_DISPATCH_H

#include "common/wire/frame.h"
#include "server/state/server.h"

namespace pmixpp::server {

void dispatch_request(Server &server, Peer &peer, const wire::Frame &frame);

}  // namespace pmixpp::server

#endif
