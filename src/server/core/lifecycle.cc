#include "server/core/lifecycle.h"

#include "common/runtime/log.h"
#include "server/core/listeners.h"
#include "server/core/server.h"
#include "server/core/topology.h"
#include "server/requests/requests.h"

#include <pmixpp/gds.h>

#include <memory>
#include <mutex>
#include <new>

namespace pmixpp::server {

namespace {

std::mutex g_lifecycle;
int g_references = 0;

constexpr const char *kFrameworks[] = {"ptl", "psec", "gds"};

pmix_status_t select_store(Server &server)
{
    pmix_status_t rc = framework::select("gds", &server.gds_modules);
    if (rc != PMIX_SUCCESS) return rc;
    for (const auto &selected : server.gds_modules) {
        const auto *module = static_cast<const pmixpp_gds_module_t *>(selected.module);
        if (store::Store::create(module, &server.store) == PMIX_SUCCESS) return PMIX_SUCCESS;
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
    return framework::select("ptl", &server.ptl_modules);
}

void close_frameworks()
{
    for (const char *name : kFrameworks) framework::close(name);
}

// Progress thread: ends everything that refers to connections or timers.
void shut_down(Server &server)
{
    server.finalizing = true;
    fail_all_fences(server, PMIX_ERR_LOST_CONNECTION);
    server.waiters.fail_all(PMIX_ERR_LOST_CONNECTION);
    close_listeners(server);
    for (auto &[id, peer] : server.peers) {
        peer->handshake_timer.cancel();
        peer->connection->close(PMIX_ERR_LOST_CONNECTION, "server finalized");
    }
    server.peers.clear();
}

pmix_status_t launch(std::unique_ptr<Server> server, const pmix_info_t info[], std::size_t ninfo)
{
    pmix_status_t rc = select_modules(*server);
    if (rc != PMIX_SUCCESS) return rc;
    setup_topology(*server);
    Server *running = server.release();
    set_current(running);
    pmix_status_t listen_rc = PMIX_ERR_INIT;
    rc = running->engine.run_and_wait([&] { listen_rc = open_listeners(*running, info, ninfo); });
    if (rc == PMIX_SUCCESS) rc = listen_rc;
    if (rc != PMIX_SUCCESS) {
        running->engine.run_and_wait([&] { shut_down(*running); });
        set_current(nullptr);
        delete running;
    }
    return rc;
}

}  // namespace

pmix_status_t start_server(const pmix_server_module_t *module, const pmix_info_t info[],
                           std::size_t ninfo)
{
    std::lock_guard lock(g_lifecycle);
    if (current() != nullptr) {
        ++g_references;
        return PMIX_SUCCESS;
    }
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
        framework::set_event_base(engine.base());
        auto server = std::make_unique<Server>(engine);
        server->config = std::move(config);
        server->host.install(module);
        rc = launch(std::move(server), info, ninfo);
        if (rc != PMIX_SUCCESS) {
            close_frameworks();
            engine.release();
            return rc;
        }
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
    engine.run_and_wait([server] { shut_down(*server); });
    set_current(nullptr);
    // The store and the topology go before their components are unloaded.
    engine.run_and_wait([server] { delete server; });
    close_frameworks();
    engine.release();
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::server
