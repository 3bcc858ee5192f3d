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
#include <string>

#include <pmix_common.h>

#include "common/runtime/progress_engine.h"
#include "common/store/store.h"
#include "common/wire/connection.h"
#include "common/wire/request_tracker.h"

namespace pmixpp::client {

class EventRegistry;

struct Session {
    Session();
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    pmix_proc_t self{};
    pmix_proc_t server{};
    bool singleton = false;
    std::string hostname;
    runtime::ProgressEngine *engine = nullptr;
    std::unique_ptr<store::Store> store;

    // Keys put since the last commit (PMIX_INTERNAL ones never leave).
    std::mutex put_mutex;
    std::map<std::string, pmix_scope_t> uncommitted;

    // Set at the start of the last PMIx_Finalize: from then on a closing
    // connection is expected and raises no event.
    std::atomic<bool> finalizing{false};

    // ---- progress thread only
    std::shared_ptr<wire::Connection> connection;
    std::unique_ptr<wire::RequestTracker> tracker;
    std::unique_ptr<EventRegistry> events;
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
