// Event registrations of clients and the events they raise.
//
// A client's PMIx_Register_event_handler tells the server which codes to
// forward to it (none listed: all). An event a client raises goes to every
// other connected local client in its range that registered for the code,
// and up to the host's notify_event when the range reaches beyond this node
// (namespace of a job with procs elsewhere, session, global, RM, custom).
// The raiser handles its own registrations itself, so it is left out.
//
// The host's own handlers (registered through the client API in the host
// process, self_access.h) hear every event the server raises or relays
// whatever its range (the host is the RM of every proc it serves), except
// PROC_LOCAL events of another proc and events the host raised itself.
//
// Events delivered to clients are kept a while (state/event_cache.h): a
// client that registers for one afterwards still hears it, once.
//
// A client registering for system events (PMIX_SYSTEM_EVENT: node down,
// failed links, ...) needs the host to produce them: those codes are passed
// up to the host's register_events once per code, and to deregister_events
// when the last registration for a code goes.
#include "common/runtime/log.h"
#include "common/wire/flow_limits.h"
#include "server/state/peer_io.h"
#include "server/state/info_read.h"
#include "server/events/delivery.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

namespace pmixpp::server {

namespace {

bool proc_matches(const pmix_proc_t &wanted, const pmix_proc_t &proc)
{
    return std::strncmp(wanted.nspace, proc.nspace, PMIX_MAX_NSLEN) == 0 &&
           (wanted.rank == PMIX_RANK_WILDCARD || wanted.rank == proc.rank);
}

bool in_custom_range(const wire::Event &event, const pmix_proc_t &proc)
{
    const pmix_info_t *item = find_info(event.info.data(), event.info.size(), PMIX_EVENT_CUSTOM_RANGE);
    if (item == nullptr) return false;
    const pmix_value_t &value = item->value;
    if (value.type == PMIX_PROC && value.data.proc != nullptr) {
        return proc_matches(*value.data.proc, proc);
    }
    if (value.type != PMIX_DATA_ARRAY || value.data.darray == nullptr || value.data.darray->type != PMIX_PROC ||
        value.data.darray->array == nullptr) {
        return false;
    }
    const auto *procs = static_cast<const pmix_proc_t *>(value.data.darray->array);
    for (std::size_t i = 0; i < value.data.darray->size; ++i) {
        if (proc_matches(procs[i], proc)) return true;
    }
    return false;
}

bool in_range(const wire::Event &event, const pmix_proc_t &proc)
{
    switch (event.range) {
    case PMIX_RANGE_PROC_LOCAL: return proc_matches(event.source, proc);
    case PMIX_RANGE_NAMESPACE: return std::strncmp(event.source.nspace, proc.nspace, PMIX_MAX_NSLEN) == 0;
    case PMIX_RANGE_CUSTOM: return in_custom_range(event, proc);
    case PMIX_RANGE_RM: return false;  // for the host only
    default: return true;              // local, session, global, undefined
    }
}

bool reaches_beyond_node(Server &server, const wire::Event &event)
{
    switch (event.range) {
    case PMIX_RANGE_PROC_LOCAL:
    case PMIX_RANGE_LOCAL: return false;
    case PMIX_RANGE_NAMESPACE: {
        const Namespace *ns = server.find_namespace(event.source.nspace);
        return ns == nullptr || !ns->all_local();
    }
    default: return true;
    }
}

}  // namespace

void relay_to_host(Server &server, wire::Event &event)
{
    const auto upcall = server.host.slots().notify_event;
    if (upcall == nullptr || !reaches_beyond_node(server, event)) return;
    auto held = std::make_shared<wire::Event>(std::move(event));
    host::start_op(
        [&](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            return upcall(held->status, &held->source, held->range, held->info.data(), held->info.size(), cbfunc,
                          cbdata);
        },
        [held](pmix_status_t) {});
}

namespace {

bool host_hears(const Server &server, const wire::Event &event)
{
    if (event.range == PMIX_RANGE_PROC_LOCAL && !server.is_self(event.source)) return false;
    return server.host_handlers.wants(event.status);
}

std::vector<pmix_status_t> system_codes(const EventRegistration &registration)
{
    std::vector<pmix_status_t> codes;
    for (pmix_status_t code : registration.codes) {
        if (PMIX_SYSTEM_EVENT(code)) codes.push_back(code);
    }
    return codes;
}

// Upcall with its own copy of the codes: the host may read them until it
// calls back.
void tell_host_codes(Server &server, bool registering, std::vector<pmix_status_t> codes)
{
    const auto &slots = server.host.slots();
    const bool has_slot = registering ? slots.register_events != nullptr : slots.deregister_events != nullptr;
    if (codes.empty() || !has_slot) return;
    const char *what = registering ? "register_events" : "deregister_events";
    auto held = std::make_shared<std::vector<pmix_status_t>>(std::move(codes));
    host::start_op(
        [&](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            if (registering) {
                return slots.register_events(held->data(), held->size(), nullptr, 0, cbfunc, cbdata);
            }
            return slots.deregister_events(held->data(), held->size(), cbfunc, cbdata);
        },
        [held, what](pmix_status_t status) {
            if (status == PMIX_SUCCESS || status == PMIX_ERR_NOT_SUPPORTED) return;
            runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                               std::string("the host's ") + what + " failed: " + PMIx_Error_string(status));
        });
}

}  // namespace

void host_events_added(Server &server, const EventRegistration &registration)
{
    std::vector<pmix_status_t> first_time;
    for (pmix_status_t code : system_codes(registration)) {
        if (++server.host_event_codes[code] == 1) first_time.push_back(code);
    }
    tell_host_codes(server, true, std::move(first_time));
}

void host_events_removed(Server &server, const EventRegistration &registration)
{
    std::vector<pmix_status_t> last_time;
    for (pmix_status_t code : system_codes(registration)) {
        auto found = server.host_event_codes.find(code);
        if (found == server.host_event_codes.end()) continue;
        if (--found->second > 0) continue;
        server.host_event_codes.erase(found);
        last_time.push_back(code);
    }
    tell_host_codes(server, false, std::move(last_time));
}

void deliver_to_host_handlers(Server &server, const wire::Event &event)
{
    if (!host_hears(server, event)) return;
    // A copy: the sink may replace itself (the client library finalizing).
    const auto sink = server.host_handlers.sink;
    sink(event);
}

void deliver_to_host_handlers_naming(Server &server, const wire::Event &event)
{
    if (server.host_handlers.names(event.status)) deliver_to_host_handlers(server, event);
}

void deliver_local_event(Server &server, const wire::Event &event, PeerId exclude)
{
    deliver_to_clients(server, event, exclude);
    deliver_to_host_handlers(server, event);
}

namespace {

// How long a peer that raises events waits, per event, while one of its
// receivers has more than the high water queued: a producer faster than
// its readers goes at their pace instead of filling their queues to the
// hard limit (and getting a slow but live reader dropped). A receiver past
// half the hard limit is taken for stuck (stopped, never reading) and
// holds nobody back: it goes at the hard limit.
constexpr std::chrono::milliseconds kProducerHold{10};

bool backlog_holds_producer(const Peer &receiver)
{
    static const wire::FlowLimits limits = wire::FlowLimits::server_from_environment();
    if (!limits.pauses()) return false;
    const std::size_t queued = receiver.connection->queued_bytes();
    return queued > limits.high_water && (limits.hard_limit == 0 || queued <= limits.hard_limit / 2);
}

pmix_status_t encode_event(const wire::Event &event, wire::SharedBytes *encoded_p)
{
    auto bytes = std::make_shared<wire::Bytes>();
    const pmix_status_t rc = wire::encode_to_bytes(event, bytes.get());
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server", std::string("cannot encode event ") + PMIx_Error_string(event.status) + ": " +
                                           PMIx_Error_string(rc) + " (not delivered)");
        return rc;
    }
    *encoded_p = std::move(bytes);
    return PMIX_SUCCESS;
}

// Encoded once for all receivers, and queued by reference for those that
// do not take it at once: a thousand slow readers hold one copy. Returns
// the peers it reached.
template <typename Wanted>
std::vector<PeerId> fan_out(Server &server, const wire::Event &event, const wire::SharedBytes &encoded, PeerId exclude,
                            Wanted wanted)
{
    bool hold_producer = false;
    std::vector<PeerId> reached;
    for (auto &[id, peer] : server.peers) {
        if (id == exclude || peer->state != PeerState::connected) continue;
        if (!in_range(event, peer->proc) || !wanted(*peer)) continue;
        send_shared_bytes(*peer, wire::FrameKind::notify, wire::kNoTag, encoded);
        reached.push_back(id);
        hold_producer = hold_producer || backlog_holds_producer(*peer);
    }
    Peer *producer = exclude == kNoPeer ? nullptr : server.find_peer(exclude);
    if (hold_producer && producer != nullptr) producer->connection->hold_reading(kProducerHold);
    return reached;
}

void keep_for_late_registrations(Server &server, const wire::Event &event, const wire::SharedBytes &encoded,
                                 PeerId raised_by, std::vector<PeerId> reached)
{
    EventCache::Entry entry;
    entry.event.status = event.status;
    entry.event.source = event.source;
    entry.event.range = event.range;
    if (entry.event.info.assign_copy(event.info.data(), event.info.size()) != PMIX_SUCCESS) return;
    entry.encoded = encoded;
    entry.raised_by = raised_by;
    entry.reached = std::move(reached);
    entry.raised = EventCache::Clock::now();
    server.recent_events.add(std::move(entry));
}

bool registered_for(const EventRegistration &registration, pmix_status_t status)
{
    const auto &codes = registration.codes;
    return codes.empty() || std::find(codes.begin(), codes.end(), status) != codes.end();
}

}  // namespace

// What the peer missed of the kept events and has now registered for.
void replay_kept_events(Server &server, Peer &peer, const EventRegistration &registration)
{
    for (EventCache::Entry &entry : server.recent_events.live()) {
        if (entry.raised_by == peer.id || !registered_for(registration, entry.event.status)) continue;
        if (registration.codes.empty() &&
            directive_flag(entry.event.info.data(), entry.event.info.size(), PMIX_EVENT_NON_DEFAULT)) {
            continue;  // kept from default handlers (deliver_to_clients)
        }
        if (std::find(entry.reached.begin(), entry.reached.end(), peer.id) != entry.reached.end()) continue;
        if (!in_range(entry.event, peer.proc)) continue;
        send_shared_bytes(peer, wire::FrameKind::notify, wire::kNoTag, entry.encoded);
        entry.reached.push_back(peer.id);
    }
}

void deliver_to_clients(Server &server, const wire::Event &event, PeerId exclude)
{
    wire::SharedBytes encoded;
    if (encode_event(event, &encoded) != PMIX_SUCCESS) return;
    // An event its raiser kept from default handlers goes only to peers
    // with a handler for its code: the others' library would drop it. A
    // rank's exit in an Open MPI job (a catch-all handler in every rank)
    // was N messages and N wake-ups, N times over, as the job ended.
    const bool named_only = directive_flag(event.info.data(), event.info.size(), PMIX_EVENT_NON_DEFAULT);
    auto reached = fan_out(server, event, encoded, exclude, [&](const Peer &peer) {
        return named_only ? peer.names(event.status) : peer.wants(event.status);
    });
    keep_for_late_registrations(server, event, encoded, exclude, std::move(reached));
}

void deliver_to_clients_naming(Server &server, const wire::Event &event, PeerId exclude)
{
    wire::SharedBytes encoded;
    if (encode_event(event, &encoded) != PMIX_SUCCESS) return;
    fan_out(server, event, encoded, exclude, [&](const Peer &peer) { return peer.names(event.status); });
}

}  // namespace pmixpp::server
