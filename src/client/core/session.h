// One initialized PMIx client: who we are, our server, our local data store
// and the link to the server. Created by the first PMIx_Init, torn down by
// the matching last PMIx_Finalize (the calls are reference counted).
//
// Threading: the identity, `singleton` and `store` never change after Init
// and the store is thread-safe, so any user thread reads them (this is the
// fast path of PMIx_Get). `uncommitted` is guarded by put_mutex. Everything
// under "progress thread only" is touched only there.
#ifndef PMIXPP_CLIENT_CORE_SESSION_H
#define PMIXPP_CLIENT_CORE_SESSION_H

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <pmix_common.h>

#include "common/runtime/progress_engine.h"
#include "common/store/store.h"
#include "common/wire/connection.h"
#include "common/wire/request_tracker.h"
#include "client/core/event_home.h"
#include "framework/src/selected_modules.h"

namespace pmixpp::client {

struct ClientArena;           // fence_arena.h
class OpenPmixServerDialect;  // openpmix/server_dialect.h

// The event side (engine, self, handlers, `finalizing`) is in EventHome.
// Keeps the frameworks a client uses open for as long as a session lives, so
// that a server finalizing in the same process (a daemon that is also a
// client) cannot unload the components under our store and connection.
class FrameworkLease {
public:
    FrameworkLease()
    {
        for (const char *name : kFrameworks) framework::acquire(name);
    }
    ~FrameworkLease()
    {
        for (const char *name : kFrameworks) framework::release(name);
    }
    FrameworkLease(const FrameworkLease &) = delete;
    FrameworkLease &operator=(const FrameworkLease &) = delete;

private:
    static constexpr const char *kFrameworks[] = {"ptl", "psec", "gds"};
};

// One connection to a server. A client has one; a tool may attach to
// several (PMIx_tool_attach_to_server) and sends its requests to the active
// one (PMIx_tool_set_server). Progress thread only.
struct ServerLink {
    pmix_proc_t server{};
    std::shared_ptr<wire::Connection> connection;
    std::unique_ptr<wire::RequestTracker> tracker;
    bool closing = false;  // closed on purpose: no LOST_CONNECTION event
    // Set when the server speaks OpenPMIx's protocol (client/openpmix/).
    std::shared_ptr<OpenPmixServerDialect> openpmix;
};

struct Session : EventHome {
    Session();
    ~Session() override;
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    bool on_this_node(const pmix_proc_t &proc) const override;

    // First member, so it is released last: after the store and the
    // connection that use the components.
    FrameworkLease frameworks;

    // The server requests go to (the active link's); progress thread only
    // once started.
    pmix_proc_t server{};
    // No server: a singleton client, or a tool in standalone mode. A tool
    // may change between the two (attach, disconnect), so it is atomic.
    std::atomic<bool> singleton{false};
    bool tool = false;  // started by PMIx_tool_init
    std::string hostname;
    std::unique_ptr<store::Store> store;

    // Keys put since the last commit (PMIX_INTERNAL ones never leave).
    std::mutex put_mutex;
    std::map<std::string, pmix_scope_t> uncommitted;

    // Procs whose complete modex data is in the store (a collecting fence or
    // an everything-Get brought it), and namespaces a collecting fence
    // covered whole: PMIx_Get(proc, NULL key) answers them locally.
    mutable std::mutex collected_mutex;
    mutable std::set<std::pair<std::string, pmix_rank_t>> collected_procs;
    mutable std::set<std::string> collected_nspaces;

    // The job's fence arena, when its server made one and it could be
    // mapped (set once, at the first connection).
    std::shared_ptr<ClientArena> arena;

    // Its PMIX_PROCDIR was made (own_proc_dir.h).
    std::atomic<bool> own_proc_dir_made{false};

    // Set by PMIx_Init (or PMIx_tool_init) as it makes the session current.
    // Until then no other thread can reach it: the first connection is
    // built on the initializing thread (requests.cc, attach_connection).
    bool published = false;

    // ---- progress thread only, once published
    std::shared_ptr<ServerLink> link;                // the active one, or none
    std::vector<std::shared_ptr<ServerLink>> links;  // every open one, link first
};

// The initialized session, or nullptr before PMIx_Init / after the last
// PMIx_Finalize. Any thread.
std::shared_ptr<Session> current_session();

// Lifecycle (core/lifecycle.cc). PMIx_Init starts a client, PMIx_tool_init
// a tool (tool_start.h); both share the reference count and the teardown.
enum class Role { client, tool };
pmix_status_t initialize(const pmix_info_t info[], size_t ninfo, pmix_proc_t *proc_p, Role role = Role::client);
pmix_status_t finalize(const pmix_info_t info[], size_t ninfo);
bool initialized();

// True when `proc` names this process.
bool is_self(const Session &session, const pmix_proc_t &proc);

}  // namespace pmixpp::client

#endif
