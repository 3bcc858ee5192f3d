#include "server/state/peer_io.h"

namespace pmixpp::server {

std::string describe(const Peer &peer)
{
    std::string text;
    if (peer.state != PeerState::handshaking) {
        text = (peer.tool ? "tool " : "client ") + proc_name(peer.proc);
    } else {
        text = "connection " + std::to_string(peer.id);
    }
    text += " via " + peer.ptl;
    if (peer.kernel.pid_known == 1) text += " (pid " + std::to_string(peer.kernel.pid) + ")";
    return text;
}

pmix_status_t send_bytes(Peer &peer, wire::FrameKind kind, uint32_t tag, const wire::Bytes &bytes)
{
    if (kind == wire::FrameKind::reply && tag != wire::kNoTag && peer.unanswered > 0) --peer.unanswered;
    if (peer.dialect) return peer.dialect->send(peer, kind, tag, bytes);
    return peer.connection->send(kind, tag, bytes);
}

pmix_status_t send_shared_bytes(Peer &peer, wire::FrameKind kind, uint32_t tag, const wire::SharedBytes &bytes)
{
    if (peer.dialect) return peer.dialect->send(peer, kind, tag, *bytes);
    return peer.connection->send_shared(kind, tag, bytes);
}

void reply_status(Server &server, PeerId id, uint32_t tag, pmix_status_t status)
{
    reply_to(server, id, tag, wire::StatusReply{status});
}

void drop_peer(Peer &peer, pmix_status_t status, const std::string &reason)
{
    runtime::log_warning("server", "closing " + describe(peer) + ": " + reason);
    peer.connection->close(status, reason);
}

}  // namespace pmixpp::server
