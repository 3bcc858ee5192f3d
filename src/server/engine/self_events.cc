// Self-access, events: the host's own event handlers and the events it
// raises (see self_access.h and requests/events.cc).
#include "server/events/delivery.h"
#include "server/engine/self_access.h"

#include "server/state/server.h"
#include "server/requests/requests.h"

#include <algorithm>
#include <new>

namespace pmixpp::server {

pmix_status_t server_set_event_sink(EventSink sink)
{
    try {
        return with_server([&](Server &server) {
            server.host_handlers.sink = std::move(sink);
            return PMIX_SUCCESS;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_register_events(const pmix_status_t codes[], std::size_t ncodes, uint64_t *reference_p)
{
    if ((codes == nullptr && ncodes > 0) || reference_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        EventRegistration registration;
        if (ncodes > 0) registration.codes.assign(codes, codes + ncodes);
        return with_server([&](Server &server) {
            registration.reference = server.next_event_reference++;
            *reference_p = registration.reference;
            server.host_handlers.registrations.push_back(std::move(registration));
            return PMIX_SUCCESS;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_deregister_events(uint64_t reference)
{
    return with_server([reference](Server &server) {
        auto &registrations = server.host_handlers.registrations;
        auto found = std::find_if(registrations.begin(), registrations.end(),
                                  [&](const EventRegistration &r) { return r.reference == reference; });
        if (found == registrations.end()) return PMIX_ERR_NOT_FOUND;
        registrations.erase(found);
        return PMIX_SUCCESS;
    });
}

pmix_status_t server_notify_event(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                                  const pmix_info_t info[], std::size_t ninfo)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto event = std::make_shared<wire::Event>();
        event->status = status;
        event->range = range;
        if (source != nullptr) event->source = *source;
        const pmix_status_t rc = event->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) return rc;
        // Delivered after this call returns, like a client's notification.
        return with_server([&](Server &server) {
            if (source == nullptr) event->source = server.self_proc();
            server.engine.post([event] {
                if (Server *now = current()) deliver_to_clients(*now, *event, kNoPeer);
            });
            return PMIX_SUCCESS;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
