// PMIx_Register_event_handler / _Deregister_event_handler / PMIx_Notify_event
// of a client: its registrations kept on its Peer, its events delivered
// (server/events/delivery.h).
#include "server/events/delivery.h"
#include "server/requests/group_tracker.h"
#include "server/requests/requests.h"
#include "server/state/info_read.h"
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

namespace {

// OpenPMIx's clients form a group by invitation among themselves, with
// events only, and then announce it: PMIX_GROUP_CONSTRUCT_COMPLETE with
// PMIX_GROUP_ID to a custom range of the members. A server learns the
// group from it (a fence over the group's name follows), as OpenPMIx's
// does. Our clients' invitations go through the server instead.
void learn_announced_group(Server &server, const wire::Event &event)
{
    if (event.status != PMIX_GROUP_CONSTRUCT_COMPLETE || event.range != PMIX_RANGE_CUSTOM) return;
    const pmix_info_t *id = find_info(event.info.data(), event.info.size(), PMIX_GROUP_ID);
    const pmix_info_t *range = find_info(event.info.data(), event.info.size(), PMIX_EVENT_CUSTOM_RANGE);
    if (id == nullptr || id->value.type != PMIX_STRING || id->value.data.string == nullptr || range == nullptr) return;
    const pmix_value_t &members = range->value;
    if (members.type != PMIX_DATA_ARRAY || members.data.darray == nullptr || members.data.darray->type != PMIX_PROC ||
        members.data.darray->size == 0) {
        return;
    }
    auto &groups = server.part<GroupRegistry>();
    if (groups.count(id->value.data.string) != 0) return;  // formed here: it knows better
    const auto *procs = static_cast<const pmix_proc_t *>(members.data.darray->array);
    Group group;
    group.members.assign(procs, procs + members.data.darray->size);
    groups.emplace(id->value.data.string, std::move(group));
}

}  // namespace

void handle_notify_event(Server &server, Peer &peer, uint32_t tag, wire::NotifyEventRequest &request)
{
    wire::Event &event = request.event;
    // The connection says who raised it, whatever the message claims.
    event.source = peer.proc;
    if (invitation_aborted_by(server, peer, event)) return reply_status(server, peer.id, tag, PMIX_SUCCESS);
    learn_announced_group(server, event);
    deliver_local_event(server, event, peer.id);
    relay_to_host(server, event);
    reply_status(server, peer.id, tag, PMIX_SUCCESS);
}

}  // namespace pmixpp::server
