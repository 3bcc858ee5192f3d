// The client's event handlers: registration, ordering, the filters a handler
// registered with, and the standard's chained delivery (each handler passes
// the event on through the completion callback it is given, or stops the
// chain with PMIX_EVENT_ACTION_COMPLETE).
//
// Threading: progress thread only.
#ifndef PMIXPP_CLIENT_CORE_EVENTS_H
#define PMIXPP_CLIENT_CORE_EVENTS_H

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pmix_common.h>

#include "client/core/event_home.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

// Which events a handler wants beyond its codes (registration info).
struct EventFilter {
    // PMIX_RANGE: sources the handler listens to (UNDEF: any).
    pmix_data_range_t range = PMIX_RANGE_UNDEF;
    // PMIX_EVENT_CUSTOM_RANGE: the sources, for range PMIX_RANGE_CUSTOM.
    std::vector<pmix_proc_t> sources;
    // PMIX_EVENT_AFFECTED_PROC(S): only events about these procs (an event
    // that names no affected proc still passes, as in OpenPMIx).
    std::vector<pmix_proc_t> affected;
};

struct EventHandler {
    size_t reference = 0;
    std::vector<pmix_status_t> codes;  // empty: a default handler (every event)
    pmix_notification_fn_t function = nullptr;
    std::string name;               // PMIX_EVENT_HDLR_NAME
    void *return_object = nullptr;  // PMIX_EVENT_RETURN_OBJECT
    bool has_return_object = false;
    int placement = 0;     // -1 first, +1 last, 0 by kind
    bool prepend = false;  // PMIX_EVENT_HDLR_PREPEND
    EventFilter filter;
    std::optional<uint64_t> server_reference;
    uint64_t sequence = 0;
};

// Reads PMIX_RANGE, PMIX_EVENT_CUSTOM_RANGE and PMIX_EVENT_AFFECTED_PROC(S)
// from registration info. PMIX_ERR_BAD_PARAM when one has the wrong type.
pmix_status_t read_filter(const pmix_info_t info[], size_t ninfo, EventFilter *filter_p);

// Whether a handler with `filter` takes `event`, delivered in `home`. Also
// applies the notifier's own restrictions carried in the event's info
// (PMIX_EVENT_CUSTOM_RANGE targets with range PMIX_RANGE_CUSTOM).
bool filter_accepts(const EventFilter &filter, const wire::Event &event, const EventHome &home);
// Whether the notifier excluded default handlers (PMIX_EVENT_NON_DEFAULT).
bool excludes_default_handlers(const wire::Event &event);

// True when `pattern` names `proc` (same nspace; a wildcard rank on either
// side matches any rank).
bool proc_matches(const pmix_proc_t &pattern, const pmix_proc_t &proc);

class EventRegistry {
public:
    // Reads codes and info (name, placement, return object, filters) into a
    // handler.
    static pmix_status_t describe(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[], size_t ninfo,
                                  pmix_notification_fn_t function, EventHandler *handler_p);

    // Stores the handler, assigning its reference.
    size_t add(EventHandler handler);
    // Removes it; the removed handler in *handler_p. False when unknown.
    bool remove(size_t reference, EventHandler *handler_p);
    void set_server_reference(size_t reference, uint64_t server_reference);
    void clear() { handlers_.clear(); }
    bool empty() const { return handlers_.empty(); }

    // Handlers that take `event` in `home`, in calling order: first-placed,
    // those registered for this code alone, for several codes, default
    // ones, last-placed.
    std::vector<EventHandler> matching(const wire::Event &event, const EventHome &home) const;

private:
    std::vector<EventHandler> handlers_;
    size_t next_reference_ = 0;  // the first handler is 0, as in OpenPMIx (Slurm deregisters 0)
    uint64_t next_sequence_ = 0;
};

// Runs the matching handlers of `home` one after the other (progress
// thread). A handler may complete from any thread. A handler that has not
// called its completion callback after handler_timeout() is skipped (the
// chain goes on with the next handler, with a warning) so that the event is
// not held forever; its late callback is then ignored.
void deliver_event(const std::shared_ptr<EventHome> &home, wire::Event event);

// group_answers.cc: once the handlers of a group event are done, what they
// answered that the server running an invitation needs (a new leader after
// PMIX_GROUP_LEADER_FAILED, or PMIX_GROUP_CONSTRUCT_ABORT); handlers_status
// is PMIX_GROUP_CONSTRUCT_ABORT when one of them returned it.
void answer_group_event(const wire::Event &event, pmix_status_t handlers_status, const wire::InfoArray &results);

// PMIX_MCA_pmix_client_event_handler_timeout seconds (default 60; 0 waits
// for ever).
std::chrono::milliseconds handler_timeout();

}  // namespace pmixpp::client

#endif
