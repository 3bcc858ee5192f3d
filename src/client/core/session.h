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
#include <utility>
#include <string>

#include <pmix_common.h>

#include "common/runtime/progress_engine.h"
#include "common/store/store.h"
#include "common/wire/connection.h"
#include "common/wire/request_tracker.h"
#include "client/core/event_home.h"
#include "framework/src/selection.h"

namespace pmixpp::client {

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

struct Session : EventHome {
    Session();
    ~Session() override;
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    bool on_this_node(const pmix_proc_t &proc) const override;

    // First member, so it is released last: after the store and the
    // connection that use the components.
    FrameworkLease frameworks;

    pmix_proc_t server{};
    bool singleton = false;
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

    // ---- progress thread only
    std::shared_ptr<wire::Connection> connection;
    std::unique_ptr<wire::RequestTracker> tracker;
};

// The initialized session, or nullptr before PMIx_Init / after the last
// PMIx_Finalize. Any thread.
std::shared_ptr<Session> current_session();

// Lifecycle (core/lifecycle.cc).
pmix_status_t initialize(const pmix_info_t info[], size_t ninfo, pmix_proc_t *proc_p);
pmix_status_t finalize(const pmix_info_t info[], size_t ninfo);
bool initialized();

// True when `proc` names this process.
bool is_self(const Session &session, const pmix_proc_t &proc);

}  // namespace pmixpp::client

#endif
