// Where event handlers live: a connected or singleton client's Session, or
// the host process's own handlers (host_mode.h) when it runs a server and
// calls the client API without being a connected client. Delivery
// (events.h) needs only this much of either.
#ifndef PMIXPP_CLIENT_CORE_EVENT_HOME_H
#define PMIXPP_CLIENT_CORE_EVENT_HOME_H

#include <atomic>
#include <memory>

#include <pmix_common.h>

#include "common/runtime/progress_engine.h"

namespace pmixpp::client {

class EventRegistry;

struct EventHome {
    EventHome();
    virtual ~EventHome();
    EventHome(const EventHome &) = delete;
    EventHome &operator=(const EventHome &) = delete;

    // Whether `proc` runs on this node, for handlers registered with
    // PMIX_RANGE_LOCAL. Without a way to tell: true.
    virtual bool on_this_node(const pmix_proc_t &proc) const;

    pmix_proc_t self{};
    runtime::ProgressEngine *engine = nullptr;

    // Set when the home shuts down (the last PMIx_Finalize): a closing
    // connection is then expected and no event is delivered any more.
    std::atomic<bool> finalizing{false};

    // ---- progress thread only
    std::unique_ptr<EventRegistry> events;
};

}  // namespace pmixpp::client

#endif
