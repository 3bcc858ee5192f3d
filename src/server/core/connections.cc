#include "server/core/connections.h"

#include "common/wire/flow_limits.h"
#include "server/core/handshake.h"
#include "server/core/peer_lifecycle.h"
#include "server/requests/dispatch.h"

#include <chrono>
#include <unistd.h>

namespace pmixpp::server {

namespace {

void on_frame(PeerId id, const wire::Frame &frame)
{
    Server *server = current();
    if (server == nullptr || server->finalizing) return;
    Peer *peer = server->find_peer(id);
    if (peer == nullptr) return;
    if (peer->state == PeerState::handshaking) {
        if (frame.header.kind != wire::FrameKind::handshake) {
            drop_peer(*peer, PMIX_ERR_UNPACK_FAILURE,
                      std::string("a ") + wire::frame_kind_name(frame.header.kind) +
                          " frame before the handshake");
            return;
        }
        handle_hello(*server, *peer, frame);
        return;
    }
    if (frame.header.kind != wire::FrameKind::request) {
        drop_peer(*peer, PMIX_ERR_UNPACK_FAILURE,
                  std::string("an unexpected ") + wire::frame_kind_name(frame.header.kind) + " frame");
        return;
    }
    dispatch_request(*server, *peer, frame);
}

std::string seconds_text(std::chrono::milliseconds timeout)
{
    const long long ms = timeout.count();
    std::string text = std::to_string(ms / 1000);
    if (ms % 1000 != 0) {
        std::string fraction = std::to_string(1000 + ms % 1000).substr(1);
        while (fraction.back() == '0') fraction.pop_back();
        text += "." + fraction;
    }
    return text + " s";
}

// A peer that connects but never completes its Hello (silent, or stuck in
// the middle of a frame) must not hold a slot forever. Only this
// connection's timer fires: nobody else waits for it.
void arm_handshake_timer(Server &server, Peer &peer)
{
    const PeerId id = peer.id;
    const std::chrono::milliseconds timeout = server.config.handshake_timeout;
    peer.handshake_timer = server.engine.add_timer(timeout, [id, timeout] {
        Server *now = current();
        Peer *late = now == nullptr ? nullptr : now->find_peer(id);
        if (late == nullptr || late->state != PeerState::handshaking) return;
        if (late->awaiting_host) {
            drop_peer(*late, PMIX_ERR_TIMEOUT,
                      "the host did not answer tool_connected within " + seconds_text(timeout) +
                          " (fix the host, or raise " + kHandshakeTimeoutEnv + ")");
            return;
        }
        drop_peer(*late, PMIX_ERR_TIMEOUT,
                  "no complete hello within " + seconds_text(timeout) + " (raise " + kHandshakeTimeoutEnv +
                      " if clients are that slow)");
    });
}

void forget_peer(PeerId id, pmix_status_t status)
{
    Server *server = current();
    if (server == nullptr) return;
    auto found = server->peers.find(id);
    if (found == server->peers.end()) return;
    std::shared_ptr<Peer> peer = found->second;
    server->peers.erase(found);
    peer->handshake_timer.cancel();
    if (!server->finalizing) peer_gone(*server, *peer, status);
}

// Runs inside Connection::close(), possibly deep in a handler that still
// holds the Peer: the cleanup waits for the next turn of the loop.
void on_close(PeerId id, pmix_status_t status)
{
    Server *server = current();
    if (server == nullptr || server->finalizing) return;
    server->engine.post([id, status] { forget_peer(id, status); });
}

}  // namespace

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

void adopt_connection(Server &server, int fd, const pmixpp_peer_identity_t &kernel,
                      const std::string &ptl)
{
    auto peer = std::make_shared<Peer>();
    peer->id = server.next_peer_id++;
    peer->kernel = kernel;
    peer->ptl = ptl;
    peer->connection = wire::Connection::create(server.engine, fd);
    if (!peer->connection) {
        ::close(fd);
        return;
    }
    const PeerId id = peer->id;
    peer->connection->set_description(describe(*peer));
    peer->connection->set_flow_limits(wire::FlowLimits::server_from_environment());
    peer->connection->set_message_handler([id](const wire::Frame &frame) { on_frame(id, frame); });
    peer->connection->set_close_handler(
        [id](pmix_status_t status, const std::string &) { on_close(id, status); });
    server.peers[id] = peer;
    arm_handshake_timer(server, *peer);
    if (peer->connection->start() != PMIX_SUCCESS) {
        peer->connection->close(PMIX_ERR_INIT, "progress engine stopped");
    }
}

pmix_status_t send_bytes(Peer &peer, wire::FrameKind kind, uint32_t tag, const wire::Bytes &bytes)
{
    return peer.connection->send(kind, tag, bytes);
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
