#include "client/core/host_mode.h"

#include <pmixpp/util.hpp>

#include <atomic>
#include <cstring>
#include <mutex>
#include <new>

#include "client/core/events.h"
#include "client/core/session.h"
#include "server/engine/self_access.h"

namespace pmixpp::client {

namespace {

// The host's handlers. Replaced when the server's identity changes (a new
// PMIx_server_init) so handlers never outlive the server they were for.
struct HostState {
    std::mutex mutex;
    std::shared_ptr<EventHome> home;
    uint64_t sink_generation = 0;  // the server the home's sink is connected to
};

std::atomic<HostState *> g_host{nullptr};

HostState &host_state()
{
    static std::once_flag once;
    std::call_once(once, [] { g_host.store(new HostState); });
    return *g_host.load();
}

using util::same_proc;

void connect_sink(const std::shared_ptr<EventHome> &home)
{
    std::weak_ptr<EventHome> weak = home;
    (void)server::server_set_event_sink([weak](const wire::Event &event) {
        auto alive = weak.lock();
        if (!alive) {
            return;
        }
        wire::Event copy;
        copy.status = event.status;
        copy.source = event.source;
        copy.range = event.range;
        if (copy.info.assign_copy(event.info.data(), event.info.size()) == PMIX_SUCCESS) {
            deliver_event(alive, std::move(copy));
        }
    });
}

}  // namespace

bool host_mode()
{
    return current_session() == nullptr && server::server_running();
}

pmix_status_t host_identity(pmix_proc_t *proc_p)
{
    return server::server_identity(proc_p);
}

std::shared_ptr<EventHome> host_event_home()
{
    pmix_proc_t me;
    uint64_t generation = 0;
    if (server::server_identity(&me, &generation) != PMIX_SUCCESS) {
        return nullptr;
    }
    HostState &state = host_state();
    std::lock_guard lock(state.mutex);
    const bool new_home = !state.home || !same_proc(state.home->self, me);
    if (new_home) {
        auto home = std::make_shared<EventHome>();
        home->self = me;
        home->engine = &runtime::ProgressEngine::process();
        home->events = std::make_unique<EventRegistry>();
        if (state.home) {
            state.home->finalizing = true;  // stops chains of the old server's life
        }
        state.home = std::move(home);
    }
    // Once per home and server (a trip to the progress thread): every
    // host-mode event call comes here, one per rank's exit in pmixrun.
    if (new_home || state.sink_generation != generation) {
        connect_sink(state.home);
        state.sink_generation = generation;
    }
    return state.home;
}

void forget_host_state_in_child()
{
    if (g_host.load() != nullptr) {
        g_host.store(new (std::nothrow) HostState);
    }
}

}  // namespace pmixpp::client
