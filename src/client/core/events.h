// The client's event handlers: registration, ordering and the standard's
// chained delivery (each handler passes the event on through the completion
// callback it is given, or stops the chain with PMIX_EVENT_ACTION_COMPLETE).
//
// Threading: progress thread only.
#ifndef PMIXPP_CLIENT_CORE_EVENTS_H
#define PMIXPP_CLIENT_CORE_EVENTS_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pmix_common.h>

#include "client/core/session.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

struct EventHandler {
    size_t reference = 0;
    std::vector<pmix_status_t> codes;  // empty: a default handler (every event)
    pmix_notification_fn_t function = nullptr;
    std::string name;                  // PMIX_EVENT_HDLR_NAME
    void *return_object = nullptr;     // PMIX_EVENT_RETURN_OBJECT
    bool has_return_object = false;
    int placement = 0;                 // -1 first, +1 last, 0 by kind
    bool prepend = false;              // PMIX_EVENT_HDLR_PREPEND
    std::optional<uint64_t> server_reference;
    uint64_t sequence = 0;
};

class EventRegistry {
public:
    // Reads codes and info (name, placement, return object) into a handler.
    static pmix_status_t describe(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[],
                                  size_t ninfo, pmix_notification_fn_t function, EventHandler *handler_p);

    // Stores the handler, assigning its reference.
    size_t add(EventHandler handler);
    // Removes it; the removed handler in *handler_p. False when unknown.
    bool remove(size_t reference, EventHandler *handler_p);
    void set_server_reference(size_t reference, uint64_t server_reference);
    void clear() { handlers_.clear(); }

    // Handlers that take `status`, in calling order: first-placed, those
    // registered for this code alone, for several codes, default ones,
    // last-placed.
    std::vector<EventHandler> matching(pmix_status_t status) const;

private:
    std::vector<EventHandler> handlers_;
    size_t next_reference_ = 1;
    uint64_t next_sequence_ = 0;
};

// Runs the matching handlers of the session one after the other (progress
// thread). A handler may complete from any thread.
void deliver_event(const std::shared_ptr<Session> &session, wire::Event event);

}  // namespace pmixpp::client

#endif
