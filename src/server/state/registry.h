// The namespaces and clients the host registered, and the connected peers.
// Progress thread only.
#ifndef PMIXPP_SERVER_STATE_REGISTRY_H
#define PMIXPP_SERVER_STATE_REGISTRY_H

#include "common/runtime/progress_engine.h"
#include "common/wire/connection.h"
#include "common/wire/messages.h"
#include "server/jobdata/registration.h"
#include "server/state/parts.h"
#include "server/state/peer_dialect.h"

#include <pmix_common.h>
#include <pmixpp/peer.h>
#include <pmixpp/ptl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server {

using PeerId = uint64_t;
inline constexpr PeerId kNoPeer = 0;

// One PMIx_server_register_client.
struct ClientRecord {
    uid_t uid = 0;
    gid_t gid = 0;
    void *server_object = nullptr;
    PeerId peer = kNoPeer;  // the connection it came in on, once connected
    bool finalized = false;
};

struct Namespace {
    std::string name;
    bool registered = false;  // register_nspace ran (register_client may come first)
    // Holds connected tools (tool_peers.h), not a job the host registered:
    // removed with its last tool.
    bool tool = false;
    int nlocalprocs = 0;
    jobdata::JobSummary summary;
    std::map<pmix_rank_t, ClientRecord> clients;
    std::set<pmix_rank_t> committed;    // local procs that called PMIx_Commit
    std::set<pmix_rank_t> remote_data;  // remote procs whose data arrived (fence, dmodex)
    // Local procs whose connection ended (finalized, died, deregistered) and
    // that have not connected again: they will neither commit nor fence.
    std::set<pmix_rank_t> gone;

    bool is_local(pmix_rank_t rank) const;
    // Every proc of the job runs on this node.
    bool all_local() const;

    // What a subsystem keeps per job (state/parts.h): pnet's cleanups, ...
    template <typename T> T &part() const { return parts.get<T>(const_cast<Namespace &>(*this)); }

private:
    mutable Parts<Namespace> parts;
};

// One PMIx_Register_event_handler of a client.
struct EventRegistration {
    uint64_t reference = 0;
    std::vector<pmix_status_t> codes;  // empty = every code
};

enum class PeerState { handshaking, connected, finalized };

// One accepted connection.
struct Peer {
    PeerId id = kNoPeer;
    std::shared_ptr<wire::Connection> connection;
    pmixpp_peer_identity_t kernel{};  // what the ptl learned from the kernel
    std::string ptl;
    const pmixpp_ptl_module_t *ptl_module = nullptr;  // the transport that accepted it
    int socket_fd = -1;                               // the connection's (owned by it); valid while open
    bool counted_uid = false;                         // counted in Server::connections_per_uid
    bool identifying = false;                         // its hello waits for complete_identity
    // Tagged requests not yet answered (Config::max_pending_requests).
    std::size_t unanswered = 0;
    PeerState state = PeerState::handshaking;
    pmix_proc_t proc{};  // valid once connected
    runtime::Timer handshake_timer;
    std::vector<EventRegistration> events;
    bool tool = false;           // a tool or launcher (tool_peers.h), not a client
    bool awaiting_host = false;  // its hello waits for the host's tool_connected
    // Set when the peer speaks another library's protocol: what we send it
    // is translated (peer_dialect.h).
    std::unique_ptr<PeerDialect> dialect;

    bool wants(pmix_status_t code) const;
    // Registered for this code by name (not only through a catch-all handler).
    bool names(pmix_status_t code) const;
};

bool same_proc(const pmix_proc_t &a, const pmix_proc_t &b);
pmix_proc_t make_proc(const std::string &nspace, pmix_rank_t rank);
std::string proc_name(const pmix_proc_t &proc);

}  // namespace pmixpp::server

#endif
