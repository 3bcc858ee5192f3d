#include "server/engine/lifecycle.h"

#include "common/runtime/latch.h"
#include "common/runtime/log.h"
#include "common/values/value_ops.h"
#include "server/state/info_read.h"
#include "server/engine/listeners.h"
#include "server/engine/lost_report.h"
#include "server/engine/self_ops.h"
#include "server/engine/subsystems.h"
#include "server/state/server.h"
#include "server/state/topology.h"
#include "server/pnet/pnet_server.h"

#include <pmixpp/gds.h>

#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace pmixpp::server {

namespace {

std::mutex g_lifecycle;
int g_references = 0;

constexpr const char *kFrameworks[] = {"ptl", "psec", "gds", "pnet"};

// The host's PMIx_Session_control handler, when it passed one (pmix_server.h).
void install_session_control(Server &server, const pmix_info_t info[], size_t ninfo)
{
    const pmix_info_t *item = find_info(info, ninfo, PMIXPP_SERVER_SESSION_CONTROL);
    void *pointer = nullptr;
    if (item == nullptr) return;
    if (read_pointer(item->value, &pointer) != PMIX_SUCCESS) {
        runtime::log_warning("server", std::string("PMIx_server_init: ") + PMIXPP_SERVER_SESSION_CONTROL +
                                           " must be a function pointer (PMIX_POINTER); session control stays off");
        return;
    }
    server.host.set_session_control(reinterpret_cast<pmixpp_server_session_control_fn_t>(pointer));
}

// The store hears whose jobs these are (gds.h): its shared files must be
// theirs to open.
std::vector<pmix_info_t> store_hints(const Config &config)
{
    std::vector<pmix_info_t> hints;
    for (const auto &[key, id] : {std::pair{PMIX_USERID, config.job_uid}, std::pair{PMIX_GRPID, config.job_gid}}) {
        if (!id) continue;
        hints.emplace_back();
        values::info_load(&hints.back(), key, &*id, PMIX_UINT32);
    }
    return hints;
}

pmix_status_t select_store(Server &server)
{
    pmix_status_t rc = framework::select("gds", &server.gds_modules);
    if (rc != PMIX_SUCCESS) return rc;
    const std::vector<pmix_info_t> hints = store_hints(server.config);  // numbers only: nothing to free
    for (const auto &selected : server.gds_modules) {
        const auto *module = static_cast<const pmixpp_gds_module_t *>(selected.module);
        if (store::Store::create(module, &server.store, hints.data(), hints.size()) == PMIX_SUCCESS) {
            return PMIX_SUCCESS;
        }
    }
    runtime::log_warning("server", "no usable gds component: the server cannot hold job data "
                                   "(check PMIX_MCA_gds and the installed components)");
    return PMIX_ERR_NOT_FOUND;
}

pmix_status_t select_modules(Server &server)
{
    pmix_status_t rc = select_store(server);
    if (rc != PMIX_SUCCESS) return rc;
    if ((rc = framework::select("psec", &server.psec_modules)) != PMIX_SUCCESS) return rc;
    if (server.psec_modules.empty()) {
        runtime::log_warning("server", "no usable psec component: every client will be refused "
                                       "(check PMIX_MCA_psec)");
    }
    if ((rc = framework::select("ptl", &server.ptl_modules)) != PMIX_SUCCESS) return rc;
    return pnet::select_components(server);
}

// PMIX_SERVER_URI and PMIX_MYSERVER_URI ("<nspace>.<rank>;<uri>", the form
// of PMIX_SERVER_URI4 in a child's environment) in the server's own data: a
// host reads where its server listens with PMIx_Get of its own proc (a
// launcher's --report-uri). The tcp listener when there is one: tools on
// OpenPMIx's library speak nothing else, ours speak it too.
void store_own_uri(Server &server)
{
    const std::vector<std::string> uris = server.uris();
    if (uris.empty() || server.store == nullptr) return;
    std::string contact = server.openpmix_contact();
    if (contact.empty()) contact = server.config.nspace + "." + std::to_string(server.config.rank) + ";" + uris.front();
    pmix_value_t value{};
    value.type = PMIX_STRING;
    value.data.string = const_cast<char *>(contact.c_str());  // copied by the store
    for (const char *key : {PMIX_SERVER_URI, PMIX_MYSERVER_URI}) {
        (void)server.store->put_value(server.config.nspace.c_str(), PMIXPP_GDS_LEVEL_PROC, server.config.rank, key,
                                      &value);
    }
}

// The server's share of the frameworks: a client of the same process (the
// host calling PMIx_Init) may keep using them after the server finalizes.
void acquire_frameworks()
{
    for (const char *name : kFrameworks) framework::acquire(name);
}

void release_frameworks()
{
    for (const char *name : kFrameworks) framework::release(name);
}

// Runs one finalize step on the progress thread. Own-thread mode (or already
// on the host's loop thread) waits as before: our own loop always runs. With
// PMIX_EVENT_BASE the host drives the loop and may have stopped it, so the
// wait is bounded like the engine's own external stop. False when the step
// did not run in time: it stays queued and may still run whenever the host
// drives its base again.
bool run_finalize_step(runtime::ProgressEngine &engine, std::function<void()> step, const char *what)
{
    if (!engine.external() || engine.on_progress_thread()) {
        engine.run_and_wait(std::move(step));
        return true;
    }
    auto done = std::make_shared<runtime::Latch<>>();
    pmix_status_t rc = engine.post([step = std::move(step), done] {
        step();
        done->complete(PMIX_SUCCESS);
    });
    if (rc != PMIX_SUCCESS) return false;
    const auto bound = runtime::kDefaultExternalStopWait;
    if (done->wait_for(bound) == PMIX_SUCCESS) return true;
    runtime::log_warning("server",
                         std::string("PMIx_server_finalize: the host's event base (PMIX_EVENT_BASE) did not ") + what +
                             " within " + std::to_string(bound.count()) +
                             " ms; the host must keep running that base until PMIx_server_finalize "
                             "returns (the server's state is left allocated so the base can finish it)");
    return false;
}

// Progress thread: ends everything that refers to connections or timers.
void shut_down(Server &server)
{
    server.finalizing = true;
    drop_lost_report(server);
    server.hooks.finalize_connected(server);  // engine/subsystems.cc
    server.waiters.fail_all(PMIX_ERR_LOST_CONNECTION);
    fail_self_ops(server, PMIX_ERR_LOST_CONNECTION);
    server.host_handlers = HostHandlers{};
    close_listeners(server);
    // Peers go before any file does: a server out of descriptors (a flood of
    // silent connections) needs some back to walk and remove its trees.
    for (auto &[id, peer] : server.peers) {
        peer->handshake_timer.cancel();
        peer->connection->close(PMIX_ERR_LOST_CONNECTION, "server finalized");
    }
    server.peers.clear();
    server.hooks.finalize_disconnected(server);
}

// Undoes what start_server took (the engine, the frameworks) unless the
// start succeeded: every early return and a std::bad_alloc alike.
class StartGuard {
public:
    StartGuard() = default;
    StartGuard(const StartGuard &) = delete;
    StartGuard &operator=(const StartGuard &) = delete;
    ~StartGuard()
    {
        if (frameworks_) release_frameworks();
        if (engine_ == nullptr) return;
        engine_->release();
        if (!engine_->running()) framework::set_event_base(nullptr);
    }
    void engine_acquired(runtime::ProgressEngine &engine) { engine_ = &engine; }
    void frameworks_acquired() { frameworks_ = true; }
    void dismiss()
    {
        engine_ = nullptr;
        frameworks_ = false;
    }

private:
    runtime::ProgressEngine *engine_ = nullptr;
    bool frameworks_ = false;
};

// Opens the listeners and publishes the server. On failure nothing is left
// behind: the server is shut down, unpublished and deleted.
pmix_status_t launch(std::unique_ptr<Server> server, const pmix_info_t info[], std::size_t ninfo)
{
    pmix_status_t rc = select_modules(*server);
    if (rc != PMIX_SUCCESS) return rc;
    setup_topology(*server);
    Server *running = server.get();
    pmix_status_t listen_rc = PMIX_ERR_INIT;
    // Built before the server is published: nothing below may throw.
    std::function<void()> open = [&] {
        listen_rc = open_listeners(*running, info, ninfo);
        if (listen_rc == PMIX_SUCCESS) store_own_uri(*running);
        if (listen_rc == PMIX_SUCCESS) listen_rc = running->hooks.listening(*running, info, ninfo);
    };
    std::function<void()> close = [running] { shut_down(*running); };
    set_current(running);
    rc = running->engine.run_and_wait(std::move(open));
    if (rc == PMIX_SUCCESS) rc = listen_rc;
    if (rc != PMIX_SUCCESS) {
        running->engine.run_and_wait(std::move(close));
        set_current(nullptr);
        return rc;  // `server` deletes it
    }
    server.release();
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t start_server(const pmix_server_module_t *module, const pmix_info_t info[], std::size_t ninfo)
{
    std::lock_guard lock(g_lifecycle);
    if (current() != nullptr) {
        ++g_references;
        return PMIX_SUCCESS;
    }
    StartGuard guard;
    try {
        Config config;
        std::string error;
        pmix_status_t rc = parse_config(info, ninfo, &config, &error);
        if (rc != PMIX_SUCCESS) {
            runtime::log_warning("server", "PMIx_server_init: " + error + " (fix the info array)");
            return rc;
        }
        auto &engine = runtime::ProgressEngine::process();
        if ((rc = engine.acquire(config.event_base)) != PMIX_SUCCESS) return rc;
        guard.engine_acquired(engine);
        framework::set_event_base(engine.base());
        acquire_frameworks();
        guard.frameworks_acquired();
        auto server = std::make_unique<Server>(engine);
        server->config = std::move(config);
        subscribe_subsystems(server->hooks);
        if ((rc = server->hooks.start(*server, info, ninfo)) != PMIX_SUCCESS) return rc;
        server->host.install(module);
        install_session_control(*server, info, ninfo);
        rc = launch(std::move(server), info, ninfo);
        if (rc != PMIX_SUCCESS) return rc;
        guard.dismiss();
        g_references = 1;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t stop_server()
{
    std::lock_guard lock(g_lifecycle);
    Server *server = current();
    if (server == nullptr) return PMIX_ERR_INIT;
    if (--g_references > 0) return PMIX_SUCCESS;
    runtime::ProgressEngine &engine = server->engine;
    const bool shut = run_finalize_step(
        engine, [server] { shut_down(*server); }, "run the server's shutdown");
    set_current(nullptr);
    // The store and the topology go before their components are unloaded.
    // If a step timed out it is still queued on the host's base and will
    // touch the server and the components' code when the base runs again:
    // we deliberately leak the server and our framework references rather
    // than free what that queued work uses (a use-after-free or a call into
    // an unloaded component).
    const bool deleted = shut && run_finalize_step(
                                     engine, [server] { delete server; }, "free the server");
    if (deleted) release_frameworks();
    engine.release();
    if (!engine.running()) framework::set_event_base(nullptr);  // the base went with it
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::server
