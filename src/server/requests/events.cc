// PMIx_Register_event_handler / _Deregister_event_handler / PMIx_Notify_event
// of a client: its registrations kept on its Peer, its events delivered
// (server/events/delivery.h).
#include "server/events/delivery.h"
#include "server/requests/requests.h"
#include "server/state/peer_io.h"

#include <algorithm>

namespace pmixpp::server {

void handle_register_events(Server &server, Peer &peer, uint32_t tag, wire::RegisterEventsRequest &request)
{
    EventRegistration registration;
    registration.reference = server.next_event_reference++;
    registration.codes = std::move(request.codes);
    peer.events.push_back(std::move(registration));
    host_events_added(server, peer.events.back());
    reply_to(server, peer.id, tag, wire::RegisterEventsReply{PMIX_SUCCESS, peer.events.back().reference});
    replay_kept_events(server, peer, peer.events.back());
}

void handle_deregister_events(Server &server, Peer &peer, uint32_t tag, wire::DeregisterEventsRequest &request)
{
    auto &events = peer.events;
    auto found = std::find_if(events.begin(), events.end(),
                              [&](const EventRegistration &r) { return r.reference == request.reference; });
    if (found == events.end()) return reply_status(server, peer.id, tag, PMIX_ERR_NOT_FOUND);
    host_events_removed(server, *found);
    events.erase(found);
    reply_status(server, peer.id, tag, PMIX_SUCCESS);
}

void handle_notify_event(Server &server, Peer &peer, uint32_t tag, wire::NotifyEventRequest &request)
{
    wire::Event &event = request.event;
    // The connection says who raised it, whatever the message claims.
    event.source = peer.proc;
    if (invitation_aborted_by(server, peer, event)) return reply_status(server, peer.id, tag, PMIX_SUCCESS);
    deliver_local_event(server, event, peer.id);
    relay_to_host(server, event);
    reply_status(server, peer.id, tag, PMIX_SUCCESS);
}

}  // namespace pmixpp::server
