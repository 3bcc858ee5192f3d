// Delivery of events: to the local clients whose range and registrations
// match, to the host's own handlers (self-access), and up to the host.
// Progress thread only.
#ifndef PMIXPP_SERVER_EVENTS_DELIVERY_H
#define PMIXPP_SERVER_EVENTS_DELIVERY_H

#include "common/wire/messages.h"
#include "server/state/server.h"

namespace pmixpp::server {

// Sends event to every connected local client whose range and
// registrations match, except `exclude`, and to the host's own handlers.
void deliver_local_event(Server &server, const wire::Event &event, PeerId exclude);
// Only the clients, or only the host's own handlers.
void deliver_to_clients(Server &server, const wire::Event &event, PeerId exclude);
void deliver_to_host_handlers(Server &server, const wire::Event &event);
// Only to the clients in range that registered for event.status by name;
// only to the host when one of its own handlers names it.
void deliver_to_clients_naming(Server &server, const wire::Event &event, PeerId exclude);
void deliver_to_host_handlers_naming(Server &server, const wire::Event &event);

// A registration of a client was added or is going away; codes
// the host must produce (system events) are passed up to its
// register_events / deregister_events, once per code.
void host_events_added(Server &server, const EventRegistration &registration);
void host_events_removed(Server &server, const EventRegistration &registration);

// Up to the host's notify_event when the event's range reaches beyond this
// node (event is moved from: the host may read it until it calls back).
void relay_to_host(Server &server, wire::Event &event);
// A new registration hears the kept events it missed and now asks for.
void replay_kept_events(Server &server, Peer &peer, const EventRegistration &registration);

}  // namespace pmixpp::server

#endif
