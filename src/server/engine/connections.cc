#include "server/engine/connections.h"

#include "common/wire/flow_limits.h"
#include "server/engine/handshake.h"
#include "server/engine/listeners.h"
#include "server/engine/peer_lifecycle.h"
#include "server/engine/dispatch.h"
#include "server/openpmix/edge.h"

#include <chrono>
#include <cstddef>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace pmixpp::server {

namespace {

// The transport knows more than accept told (ptl/tcp: the uid, not yet the
// gid and pid), and psec needs it all.
bool needs_identity(const Peer &peer)
{
    const std::size_t needed = offsetof(pmixpp_ptl_module_t, complete_identity) + sizeof(void *);
    return peer.kernel.known != 1 && peer.kernel.uid_known == 1 && peer.ptl_module != nullptr &&
           peer.ptl_module->struct_size >= needed && peer.ptl_module->complete_identity != nullptr;
}

using HelloHandler = void (*)(Server &, Peer &, const wire::Frame &);

// Asks the transport on the worker thread (identity_resolver.h), with a
// duplicate of the socket so that closing the connection meanwhile cannot
// hand the number to somebody else; the hello is handled when it answers.
void identify_then_hello(Server &server, Peer &peer, const wire::Frame &frame, HelloHandler hello = handle_hello)
{
    const int copy = fcntl(peer.socket_fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) {
        refuse_peer(peer, PMIX_ERR_OUT_OF_RESOURCE,
                    std::string("cannot duplicate its socket to identify it: ") + std::strerror(errno));
        return;
    }
    peer.identifying = true;
    const PeerId id = peer.id;
    auto complete = peer.ptl_module->complete_identity;
    const bool queued = server.identities.submit([copy, complete, id, frame, hello] {
        pmixpp_peer_identity_t identity{};
        identity.struct_size = sizeof(identity);
        complete(copy, &identity);
        ::close(copy);
        post_to_server([id, identity, frame, hello](Server &now) {
            Peer *waiting = now.find_peer(id);
            if (waiting == nullptr || waiting->state != PeerState::handshaking || !waiting->identifying) return;
            waiting->identifying = false;
            waiting->kernel = identity;
            waiting->connection->set_description(describe(*waiting));
            hello(now, *waiting, frame);
        });
    });
    if (!queued) {
        ::close(copy);
        peer.identifying = false;
        refuse_peer(peer, PMIX_ERR_OUT_OF_RESOURCE,
                    std::to_string(IdentityResolver::kMaxWaiting) +
                        " connections already wait to be identified (try again)");
    }
}

// The connect request, once the kernel's view of the peer is complete
// (the dialect checks the identity it claims against it).
void openpmix_connect(Server &server, Peer &peer, const wire::Frame &connect)
{
    wire::Frame hello;
    if (openpmix_hello(server, peer, connect, &hello)) handle_hello(server, peer, hello);
}

// An OpenPMIx peer's frames, translated at the edge (server/openpmix/)
// into ours: its connect request becomes a Hello, its requests ours.
void on_openpmix_frame(Server &server, Peer &peer, const wire::Frame &frame)
{
    if (peer.state == PeerState::handshaking) {
        if (peer.dialect || peer.identifying) {
            drop_peer(peer, PMIX_ERR_UNPACK_FAILURE, "a message before the answer to its connect request");
            return;
        }
        if (needs_identity(peer)) return identify_then_hello(server, peer, frame, openpmix_connect);
        openpmix_connect(server, peer, frame);
        return;
    }
    std::vector<wire::Frame> ours;
    if (!openpmix_request(server, peer, frame, &ours)) return;
    for (const wire::Frame &request : ours) {
        if (!peer.connection->is_open()) return;  // a request before closed it
        dispatch_request(server, peer, request);
    }
}

void on_frame(PeerId id, const wire::Frame &frame)
{
    Server *server = current();
    if (server == nullptr || server->finalizing) return;
    Peer *peer = server->find_peer(id);
    if (peer == nullptr) return;
    if (wire::is_openpmix(peer->connection->framing())) return on_openpmix_frame(*server, *peer, frame);
    if (peer->state == PeerState::handshaking) {
        if (frame.header.kind != wire::FrameKind::handshake) {
            drop_peer(*peer, PMIX_ERR_UNPACK_FAILURE,
                      std::string("a ") + wire::frame_kind_name(frame.header.kind) + " frame before the handshake");
            return;
        }
        if (peer->identifying) {
            drop_peer(*peer, PMIX_ERR_UNPACK_FAILURE, "a second hello");
            return;
        }
        if (needs_identity(*peer)) return identify_then_hello(*server, *peer, frame);
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

void uncount_uid(Server &server, Peer &peer)
{
    if (!peer.counted_uid) return;
    peer.counted_uid = false;
    auto count = server.connections_per_uid.find(peer.kernel.uid);
    if (count != server.connections_per_uid.end() && --count->second == 0) {
        server.connections_per_uid.erase(count);
    }
}

// One user's connections are capped, so a flood from one local account
// costs the others nothing; over the cap a connection is closed at once.
bool admit_uid(Server &server, const pmixpp_peer_identity_t &kernel, const std::string &ptl)
{
    if (kernel.known != 1 && kernel.uid_known != 1) return true;  // unknown: psec decides
    const std::size_t limit = server.config.max_connections_per_uid;
    std::size_t &count = server.connections_per_uid[kernel.uid];
    if (limit == 0 || count < limit) {
        ++count;
        return true;
    }
    server.warnings.note("uid-limit", "refused a " + ptl + " connection of uid " + std::to_string(kernel.uid) +
                                          ": it holds " + std::to_string(count) + " already, the limit of " +
                                          kMaxConnectionsPerUidEnv);
    return false;
}

void forget_peer(PeerId id, pmix_status_t status)
{
    Server *server = current();
    if (server == nullptr) return;
    auto found = server->peers.find(id);
    if (found == server->peers.end()) return;
    std::shared_ptr<Peer> peer = found->second;
    server->peers.erase(found);
    uncount_uid(*server, *peer);
    resume_listeners(*server);  // a descriptor is free again
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

void adopt_connection(Server &server, int fd, const pmixpp_peer_identity_t &kernel, const std::string &ptl,
                      const pmixpp_ptl_module_t *module)
{
    if (!admit_uid(server, kernel, ptl)) {
        ::close(fd);
        return;
    }
    auto peer = std::make_shared<Peer>();
    peer->id = server.next_peer_id++;
    peer->kernel = kernel;
    peer->ptl = ptl;
    peer->ptl_module = module;
    peer->socket_fd = fd;
    peer->counted_uid = kernel.known == 1 || kernel.uid_known == 1;
    peer->connection = wire::Connection::create(server.engine, fd);
    if (!peer->connection) {
        uncount_uid(server, *peer);
        ::close(fd);
        return;
    }
    const PeerId id = peer->id;
    peer->connection->set_description(describe(*peer));
    peer->connection->set_flow_limits(wire::FlowLimits::server_from_environment());
    // OpenPMIx's clients and tools come to the same sockets as ours.
    peer->connection->set_framing(wire::Framing::detect);
    peer->connection->set_message_handler([id](const wire::Frame &frame) { on_frame(id, frame); });
    peer->connection->set_close_handler([id](pmix_status_t status, const std::string &) { on_close(id, status); });
    server.peers[id] = peer;
    arm_handshake_timer(server, *peer);
    if (peer->connection->start() != PMIX_SUCCESS) {
        peer->connection->close(PMIX_ERR_INIT, "progress engine stopped");
    }
}

}  // namespace pmixpp::server
