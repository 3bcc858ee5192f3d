// The event calls of a host (host_mode.h): handlers live in the host's
// EventHome; the server is told which codes to pass to the sink and is
// given the host's notifications for its clients.
#include <memory>

#include "client/core/events.h"
#include "client/core/host_mode.h"
#include "server/engine/self_access.h"

namespace pmixpp::client {

pmix_status_t host_register_handler(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[], size_t ninfo,
                                    pmix_notification_fn_t function, HostRegDone done)
{
    EventHandler handler;
    pmix_status_t rc = EventRegistry::describe(codes, ncodes, info, ninfo, function, &handler);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    auto home = host_event_home();
    if (!home) {
        return PMIX_ERR_INIT;
    }
    return home->engine->post([home, handler = std::move(handler), done]() mutable {
        if (!home->events || home->finalizing.load()) {
            done(PMIX_ERR_INIT, 0);
            return;
        }
        uint64_t server_reference = 0;
        pmix_status_t st =
            server::server_register_events(handler.codes.data(), handler.codes.size(), &server_reference);
        if (st == PMIX_SUCCESS) {
            handler.server_reference = server_reference;
        }
        // Events the host raises itself reach the handler whatever the
        // server said.
        done(PMIX_SUCCESS, home->events->add(std::move(handler)));
    });
}

pmix_status_t host_deregister_handler(size_t reference, HostOpDone done)
{
    auto home = host_event_home();
    if (!home) {
        return PMIX_ERR_INIT;
    }
    return home->engine->post([home, reference, done] {
        EventHandler removed;
        if (!home->events || !home->events->remove(reference, &removed)) {
            done(PMIX_ERR_NOT_FOUND);
            return;
        }
        if (removed.server_reference) {
            (void)server::server_deregister_events(*removed.server_reference);
        }
        done(PMIX_SUCCESS);
    });
}

pmix_status_t host_notify(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                          const pmix_info_t info[], size_t ninfo, HostOpDone done)
{
    auto home = host_event_home();
    if (!home) {
        return PMIX_ERR_INIT;
    }
    auto event = std::make_shared<wire::Event>();
    event->status = status;
    event->source = source != nullptr ? *source : home->self;
    event->range = range;
    pmix_status_t rc = event->info.assign_copy(info, ninfo);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    return home->engine->post([home, event, done] {
        // The server delivers to its clients; the host's own handlers are ours.
        pmix_status_t st = PMIX_SUCCESS;
        if (event->range != PMIX_RANGE_PROC_LOCAL) {
            st = server::server_notify_event(event->status, &event->source, event->range, event->info.data(),
                                             event->info.size());
        }
        deliver_event(home, std::move(*event));
        done(st);
    });
}

}  // namespace pmixpp::client
