// The state of the one PMIx server of this process, between PMIx_server_init
// and PMIx_server_finalize.
//
// Threading: everything here is touched on the progress thread only. Public
// entry points reach it through with_server(), which runs their work there
// (inline when the caller already is the progress thread, e.g. a host that
// calls PMIx_server_* from inside an upcall or drives its own event base).
#ifndef PMIXPP_SERVER_CORE_SERVER_H
#define PMIXPP_SERVER_CORE_SERVER_H

#include "common/runtime/progress_engine.h"
#include "common/store/store.h"
#include "framework/src/selection.h"
#include "server/core/config.h"
#include "server/core/registry.h"
#include "server/core/waiters.h"
#include "server/host/host_module.h"
#include "server/requests/fence_tracker.h"

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
};

class Server {
public:
    explicit Server(runtime::ProgressEngine &progress) : engine(progress), waiters(progress) {}
    ~Server();
    Server(const Server &) = delete;
    Server &operator=(const Server &) = delete;

    runtime::ProgressEngine &engine;
    Config config;
    host::HostModule host;
    std::vector<framework::SelectedModule> gds_modules;
    std::vector<framework::SelectedModule> psec_modules;
    std::vector<framework::SelectedModule> ptl_modules;
    std::unique_ptr<store::Store> store;
    hwloc_topology_t topology = nullptr;
    bool own_topology = false;

    std::vector<Listener> listeners;
    std::map<std::string, Namespace> namespaces;
    std::map<PeerId, std::shared_ptr<Peer>> peers;
    PeerId next_peer_id = 1;
    uint64_t next_event_reference = 1;
    std::map<std::string, std::vector<pmix_proc_t>> psets;  // PMIx_server_define_process_set
    CommitWaiters waiters;
    FenceTracker fences;
    bool finalizing = false;

    Namespace *find_namespace(const std::string &name);
    Namespace *find_namespace(const char *nspace);
    Namespace &namespace_entry(const std::string &name);  // created on first use
    ClientRecord *find_client(const pmix_proc_t &proc);
    Peer *find_peer(PeerId id);
    // Every URI listened on, in priority order.
    std::vector<std::string> uris() const;
};

// The running server; valid on the progress thread only. nullptr before
// init and after finalize.
Server *current();
void set_current(Server *server);

// Runs fn(server) on the progress thread and returns its status;
// PMIX_ERR_INIT when no server runs.
pmix_status_t with_server(const std::function<pmix_status_t(Server &)> &fn);
// Runs fn on the progress thread later (callbacks must not run before the
// API call that asked for them returns). Dropped if no server runs.
void post_to_server(std::function<void(Server &)> fn);

}  // namespace pmixpp::server

#endif
