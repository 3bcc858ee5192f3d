// The state of the one PMIx server of this process, between PMIx_server_init
// and PMIx_server_finalize.
//
// Threading: everything here is touched on the progress thread only. Public
// entry points reach it through with_server(), which runs their work there
// (inline when the caller already is the progress thread, e.g. a host that
// calls PMIx_server_* from inside an upcall or drives its own event base).
#ifndef PMIXPP_SERVER_STATE_SERVER_H
#define PMIXPP_SERVER_STATE_SERVER_H

#include "common/runtime/progress_engine.h"
#include "common/runtime/warning_limiter.h"
#include "common/store/store.h"
#include "framework/src/selected_modules.h"
#include "server/state/config.h"
#include "server/state/event_cache.h"
#include "server/state/hooks.h"
#include "server/state/identity_resolver.h"
#include "server/state/parts.h"
#include "server/state/registry.h"
#include "server/state/waiters.h"
#include "server/host/host_module.h"

#include <pmix_common.h>
#include <pmix.h>
#include <pmixpp/ptl.h>

#include <hwloc.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct event;

namespace pmixpp::server {

// One listening socket and the libevent event that accepts on it.
struct Listener {
    const pmixpp_ptl_module_t *module = nullptr;
    std::string component;
    pmixpp_ptl_listener_t socket{};
    struct event *accept_event = nullptr;
    // Out of descriptors: not accepting until one frees up (listeners.h).
    bool paused = false;
    runtime::Timer resume_timer;
};

// The host's own event handlers, registered through the client API in this
// process (self_access.h).
struct HostHandlers {
    std::function<void(const wire::Event &event)> sink;
    std::vector<EventRegistration> registrations;

    bool wants(pmix_status_t code) const;  // a handler for it, or one for every code
    bool names(pmix_status_t code) const;  // a handler registered for it by name
};

// A key the host put in its own process, waiting for its commit.
struct StagedPut {
    pmix_scope_t scope = PMIX_SCOPE_UNDEF;
    pmix_info_t info{};
};

// Node-level information of PMIx_server_register_resources (one node).
struct NodeResources {
    uint32_t nodeid = 0;
    std::string hostname;
    std::vector<pmix_info_t> info;  // owned: destructed by ~Server / on removal
};

class Server {
public:
    explicit Server(runtime::ProgressEngine &progress)
        : engine(progress), waiters(progress), warnings(progress, "server")
    {}
    ~Server();
    Server(const Server &) = delete;
    Server &operator=(const Server &) = delete;

    runtime::ProgressEngine &engine;
    Config config;
    host::HostModule host;
    std::vector<framework::SelectedModule> gds_modules;
    std::vector<framework::SelectedModule> psec_modules;
    std::vector<framework::SelectedModule> ptl_modules;
    std::vector<framework::SelectedModule> pnet_modules;  // every active one, best first
    std::unique_ptr<store::Store> store;
    hwloc_topology_t topology = nullptr;  // through node_topology() (topology.h): loaded on first use
    bool own_topology = false;
    bool topology_tried = false;

    std::vector<Listener> listeners;
    std::map<std::string, Namespace> namespaces;
    std::map<PeerId, std::shared_ptr<Peer>> peers;
    PeerId next_peer_id = 1;
    // Connections held per uid the kernel named (Config::max_connections_per_uid).
    std::map<uid_t, std::size_t> connections_per_uid;
    // Finishes identifying tcp peers off the progress thread.
    IdentityResolver identities;
    uint64_t next_event_reference = 1;
    std::map<std::string, std::vector<pmix_proc_t>> psets;  // PMIx_server_define_process_set
    CommitWaiters waiters;
    // Warnings a flood could repeat (refused connections, requests over a
    // limit): one line per cause per second.
    runtime::WarningLimiter warnings;
    bool finalizing = false;
    // What subsystems want to hear of (state/hooks.h), filled at start.
    Hooks hooks;

    // Self-access (the host calling the client API in its own process).
    HostHandlers host_handlers;
    EventCache recent_events;  // replayed to late registrations (event_cache.h)
    std::vector<StagedPut> staged_puts;
    bool self_committed = false;
    // Completions of the host's pending *_nb calls, failed at finalize.
    std::map<uint64_t, std::function<void(pmix_status_t)>> self_ops;
    uint64_t next_self_op = 1;
    // How many client registrations want each code passed up to the host.
    std::map<pmix_status_t, int> host_event_codes;
    // PMIx_server_register_resources, by node id.
    std::map<uint32_t, NodeResources> resources;

    Namespace *find_namespace(const std::string &name);
    Namespace *find_namespace(const char *nspace);
    Namespace &namespace_entry(const std::string &name);  // created on first use
    ClientRecord *find_client(const pmix_proc_t &proc);
    pmix_proc_t self_proc() const;  // PMIX_SERVER_NSPACE / RANK
    bool is_self(const pmix_proc_t &proc) const;
    Peer *find_peer(PeerId id);
    // Every URI listened on, in priority order.
    std::vector<std::string> uris() const;
    // "<nspace>.<rank>;<tcp uri>": how OpenPMIx's clients and tools reach this
    // server (they speak tcp only), the form of PMIX_SERVER_URI*; "" without
    // a tcp listener.
    std::string openpmix_contact() const;

    // The state a subsystem keeps here (state/parts.h): its fence trackers,
    // group registry, monitors, ... made on first use.
    // Made on first use also through a const Server: a part is a cache of
    // the subsystem's, not a value of the server's.
    template <typename T> T &part() const { return parts_.get<T>(const_cast<Server &>(*this)); }

private:
    // Last member: the parts go first, while everything above still lives.
    mutable Parts<Server> parts_;
};

// The running server; valid on the progress thread only. nullptr before
// init and after finalize.
Server *current();
void set_current(Server *server);

// Any thread: the running server's own proc (PMIX_SERVER_NSPACE / RANK),
// copied when it is published, and a number that changes with every
// server this process runs. False when none runs. The host-mode calls
// (its events, its own get) ask this at every call: no trip to the
// progress thread.
bool published_identity(pmix_proc_t *self_p, uint64_t *generation_p = nullptr);

// Runs fn(server) on the progress thread and returns its status;
// PMIX_ERR_INIT when no server runs.
pmix_status_t with_server(const std::function<pmix_status_t(Server &)> &fn);
// Runs fn on the progress thread later (callbacks must not run before the
// API call that asked for them returns). Dropped if no server runs then.
// Safe from any thread at any time, also while the server finalizes: the
// server is looked up on the progress thread, never through a pointer read
// here (stop_server may delete it in between).
void post_to_server(std::function<void(Server &)> fn);
// Runs fn on the progress thread later, whether or not a server still runs
// then (a host's callback is owed even when the server finalized first).
// PMIX_ERR_INIT (fn dropped) when the progress engine no longer runs.
pmix_status_t post_later(std::function<void()> fn);

// The return of a PMIx_server_* call with a pmix_op_cbfunc_t whose work is
// done (rc PMIX_SUCCESS) or failed, as OpenPMIx 4.2 answers (Open MPI's
// pmix3x/ext3x and python3-pmix wait for the callback only on
// PMIX_SUCCESS): without a callback PMIX_OPERATION_SUCCEEDED; with one
// PMIX_SUCCESS, and cbfunc(PMIX_SUCCESS, cbdata) runs later on the
// progress thread, never before the call returned. An error is returned
// as is and the callback is not called.
pmix_status_t op_result(pmix_status_t rc, pmix_op_cbfunc_t cbfunc, void *cbdata);

}  // namespace pmixpp::server

#endif
