// Writing to a connected peer: a message as one frame, a reply to a request
// if its peer is still there, and a peer's name for log lines. Every layer
// of the server answers through these. Progress thread only.
#ifndef PMIXPP_SERVER_STATE_PEER_IO_H
#define PMIXPP_SERVER_STATE_PEER_IO_H

#include "common/runtime/log.h"
#include "common/wire/messages.h"
#include "server/state/server.h"

#include <pmix_common.h>

#include <functional>
#include <string>

namespace pmixpp::server {

// "client ns.3 via usock" once known, else "connection 7 via tcp (pid 123)".
std::string describe(const Peer &peer);

// Encodes message and sends it as one frame; a failure to encode closes the
// connection (it would leave the peer waiting forever).
pmix_status_t send_bytes(Peer &peer, wire::FrameKind kind, uint32_t tag, const wire::Bytes &bytes);
// The same for a message encoded once for many peers (an event).
pmix_status_t send_shared_bytes(Peer &peer, wire::FrameKind kind, uint32_t tag, const wire::SharedBytes &bytes);

template <typename Message> void send_message(Peer &peer, wire::FrameKind kind, uint32_t tag, const Message &message)
{
    wire::Bytes bytes;
    const pmix_status_t rc = wire::encode_to_bytes(message, &bytes);
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server", "cannot encode a reply to " + describe(peer) + ": " + PMIx_Error_string(rc) +
                                           " (closing the connection)");
        peer.connection->close(rc, "reply could not be encoded");
        return;
    }
    send_bytes(peer, kind, tag, bytes);
}

// Replies to request `tag` of peer `id` if it is still connected.
template <typename Reply> void reply_to(Server &server, PeerId id, uint32_t tag, const Reply &reply)
{
    Peer *peer = server.find_peer(id);
    if (peer != nullptr) send_message(*peer, wire::FrameKind::reply, tag, reply);
}

void reply_status(Server &server, PeerId id, uint32_t tag, pmix_status_t status);

// A request's responder that answers peer `id` on `tag`, if the server and
// the peer are still there when the answer comes. The same request started
// by the host itself (host mode) gets a responder of its own instead.
template <typename Reply> std::function<void(Reply &)> answer_peer(PeerId id, uint32_t tag)
{
    return [id, tag](Reply &reply) {
        if (Server *now = current()) reply_to(*now, id, tag, reply);
    };
}

// Answers a responder with a status and nothing else.
template <typename Reply> void respond_status(const std::function<void(Reply &)> &respond, pmix_status_t status)
{
    Reply reply;
    reply.status = status;
    respond(reply);
}

// Closes a connection whose peer broke the protocol, with one log line.
void drop_peer(Peer &peer, pmix_status_t status, const std::string &reason);

}  // namespace pmixpp::server

#endif
