// PMIx_Group_invite / PMIx_Group_join: a group built by invitation. The
// server runs it, so that a process that dies is noticed (its connection
// ends) and nobody waits for it:
//
//   invite   the caller leads; the invitees hear PMIX_GROUP_INVITED (kept
//            for handlers registered later, as every event is).
//   join     accept: the leader hears PMIX_GROUP_INVITE_ACCEPTED and the
//            joiner waits for the group; decline: the leader hears
//            PMIX_GROUP_INVITE_DECLINED, the joiner is left out at once.
//   formed   once nobody is left to answer, the leader and the joiners form
//            the group as a construct would (groups.cc; the host's group
//            upcall for a context id) and all hear
//            PMIX_GROUP_CONSTRUCT_COMPLETE.
//
// Failures: an invitee lost before answering is PMIX_GROUP_INVITE_FAILED to
// the leader, an accepted one PMIX_GROUP_MEMBER_FAILED; either aborts the
// invitation unless it is PMIX_GROUP_OPTIONAL (then they are left out). A
// lost leader is PMIX_GROUP_LEADER_FAILED to the rest: the first whose
// handlers return PMIX_GROUP_LEADER leads from then on (all hear
// PMIX_GROUP_LEADER_SELECTED); if none does, the invitation aborts. The
// answers of event handlers reach the server as GroupJoin requests
// (client/core/group_answers.cc). An abort answers everybody waiting with
// its status and tells all PMIX_GROUP_CONSTRUCT_ABORT.
#include "common/runtime/log.h"
#include "server/events/delivery.h"
#include "server/state/peer_io.h"
#include "server/state/info_read.h"
#include "server/requests/group_ops.h"
#include "server/requests/participants.h"
#include "server/requests/requests.h"
#include "server/requests/group_tracker.h"

#include <algorithm>
#include <chrono>

namespace pmixpp::server {

namespace {

// How long the participants have to choose a new leader once theirs is
// lost, when one of them does not answer (its handlers hang).
constexpr std::chrono::seconds kLeaderChoiceWait{10};

uint64_t next_invitation_id = 1;  // progress thread only

// The invitation's PMIX_GROUP_INVITED stops being replayed to handlers
// registered later once it ended.
void forget_invited_event(Server &server, const std::string &group)
{
    server.recent_events.forget([&group](const wire::Event &event) {
        if (event.status != PMIX_GROUP_INVITED) return false;
        for (const pmix_info_t &info : event.info) {
            if (PMIX_CHECK_KEY(&info, PMIX_GROUP_ID) && info.value.type == PMIX_STRING &&
                info.value.data.string != nullptr) {
                return group == info.value.data.string;
            }
        }
        return false;
    });
}

void answer(Server &server, PeerId peer, uint32_t tag, pmix_status_t status)
{
    wire::InfoReply reply;
    reply.status = status;
    reply_to(server, peer, tag, reply);
}

bool contains(const std::vector<pmix_proc_t> &procs, const pmix_proc_t &proc)
{
    return std::any_of(procs.begin(), procs.end(), [&](const pmix_proc_t &p) { return same_proc(p, proc); });
}

void remove(std::vector<pmix_proc_t> &procs, const pmix_proc_t &proc)
{
    std::erase_if(procs, [&](const pmix_proc_t &p) { return same_proc(p, proc); });
}

// Those still in it besides the leader: who accepted and who has not answered.
std::vector<pmix_proc_t> participants_of(const Invitation &invitation)
{
    std::vector<pmix_proc_t> all = invitation.accepted;
    for (const pmix_proc_t &invitee : invitation.invited) {
        if (invitation.pending.count(proc_name(invitee)) != 0) all.push_back(invitee);
    }
    return all;
}

// The invitees as single procs on this node; a wildcard is every rank of
// its namespace. Invitees elsewhere would answer through the host's event
// routing, which is not built: PMIX_ERR_NOT_SUPPORTED.
pmix_status_t expand_invitees(Server &server, const std::vector<pmix_proc_t> &procs, const pmix_proc_t &leader,
                              std::vector<pmix_proc_t> *invitees_p)
{
    std::vector<pmix_proc_t> invitees;
    for (const pmix_proc_t &proc : procs) {
        Namespace *ns = server.find_namespace(proc.nspace);
        if (ns == nullptr || !ns->registered || ns->tool) return PMIX_ERR_NOT_SUPPORTED;
        if (proc.rank == PMIX_RANK_WILDCARD) {
            if (!ns->all_local()) return PMIX_ERR_NOT_SUPPORTED;
            for (pmix_rank_t rank : ns->summary.local_ranks) invitees.push_back(make_proc(ns->name, rank));
        } else if (ns->is_local(proc.rank)) {
            invitees.push_back(proc);
        } else {
            return PMIX_ERR_NOT_SUPPORTED;
        }
    }
    invitees = normalised(std::move(invitees));
    remove(invitees, leader);
    *invitees_p = std::move(invitees);
    return PMIX_SUCCESS;
}

bool is_gone(Server &server, const pmix_proc_t &proc)
{
    Namespace *ns = server.find_namespace(proc.nspace);
    return ns != nullptr && ns->gone.count(proc.rank) != 0;
}

void tell_invited(Server &server, const Invitation &invitation)
{
    std::vector<pmix_proc_t> told = invitation.invited;
    std::vector<pmix_proc_t> members = invitation.invited;
    members.insert(members.begin(), invitation.leader);
    wire::Event event;
    event.status = PMIX_GROUP_INVITED;
    event.source = invitation.leader;
    event.range = PMIX_RANGE_CUSTOM;
    if (told.empty() || event.info.allocate(4) != PMIX_SUCCESS) return;
    pmix_data_array_t range{PMIX_PROC, told.size(), told.data()};          // copied by the load
    pmix_data_array_t invited{PMIX_PROC, members.size(), members.data()};  // likewise
    PMIX_INFO_LOAD(&event.info[0], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&event.info[1], PMIX_GROUP_ID, invitation.group.c_str(), PMIX_STRING);
    const bool non_default = true;
    PMIX_INFO_LOAD(&event.info[2], PMIX_EVENT_NON_DEFAULT, &non_default, PMIX_BOOL);
    PMIX_INFO_LOAD(&event.info[3], PMIX_GROUP_MEMBERSHIP, &invited, PMIX_DATA_ARRAY);
    deliver_local_event(server, event, kNoPeer);
}

// Ends the invitation with `status` for everybody waiting; all still in it
// hear PMIX_GROUP_CONSTRUCT_ABORT. `group` by value: callers pass the
// invitation's own name, which goes with it.
void abort_invitation(Server &server, std::string group, pmix_status_t status)
{
    auto found = server.part<InvitationRegistry>().find(group);
    if (found == server.part<InvitationRegistry>().end()) return;
    Invitation invitation = std::move(found->second);
    server.part<InvitationRegistry>().erase(found);
    invitation.timer.cancel();
    forget_invited_event(server, group);
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       "invitation to group " + group + " aborted: " + PMIx_Error_string(status));
    if (invitation.leader_reply) answer(server, invitation.leader_reply->peer, invitation.leader_reply->tag, status);
    for (const Arrival &join : invitation.joins) answer(server, join.peer, join.tag, status);
    std::vector<pmix_proc_t> told = participants_of(invitation);
    if (!invitation.leader_lost) told.push_back(invitation.leader);
    tell_members(server, PMIX_GROUP_CONSTRUCT_ABORT, group, invitation.leader, std::move(told));
}

// Once nobody is left to answer (and a leader leads), the group forms.
// `group` by value, as for abort_invitation.
void finish_if_answered(Server &server, std::string group)
{
    auto found = server.part<InvitationRegistry>().find(group);
    if (found == server.part<InvitationRegistry>().end()) return;
    Invitation &invitation = found->second;
    if (!invitation.pending.empty() || invitation.leader_lost) return;
    invitation.timer.cancel();
    std::vector<pmix_proc_t> members = invitation.accepted;
    members.push_back(invitation.leader);
    std::vector<Arrival> waiting = std::move(invitation.joins);
    if (invitation.leader_reply) waiting.push_back(*invitation.leader_reply);
    const pmix_proc_t leader = invitation.leader;
    wire::InfoArray directives = std::move(invitation.directives);
    const bool needs_host = invitation.needs_host;
    server.part<InvitationRegistry>().erase(found);
    forget_invited_event(server, group);
    form_announced_group(server, group, leader, std::move(members), std::move(waiting), std::move(directives),
                         needs_host);
}

// A participant is out (lost, or did not answer in time): optional ones
// are left out, otherwise the invitation aborts.
void drop_or_abort(Server &server, Invitation &invitation, const pmix_proc_t &proc, pmix_status_t abort_status)
{
    if (!invitation.optional) return abort_invitation(server, invitation.group, abort_status);
    invitation.pending.erase(proc_name(proc));
    remove(invitation.invited, proc);
    remove(invitation.accepted, proc);
    finish_if_answered(server, invitation.group);
}

void arm_timer(Server &server, Invitation &invitation, std::chrono::seconds after,
               void (*expire)(Server &, const std::string &))
{
    invitation.timer.cancel();
    const std::string group = invitation.group;
    const uint64_t id = invitation.id;
    invitation.timer = server.engine.add_timer(after, [group, id, expire] {
        Server *now = current();
        if (now == nullptr) return;
        auto found = now->part<InvitationRegistry>().find(group);
        if (found != now->part<InvitationRegistry>().end() && found->second.id == id) expire(*now, group);
    });
}

// PMIX_TIMEOUT: who has not answered is out.
void invitation_timed_out(Server &server, const std::string &group)
{
    Invitation &invitation = server.part<InvitationRegistry>().at(group);
    if (invitation.leader_lost || !invitation.optional) return abort_invitation(server, group, PMIX_ERR_TIMEOUT);
    for (const pmix_proc_t &invitee : std::vector<pmix_proc_t>(invitation.invited)) {
        if (invitation.pending.count(proc_name(invitee)) != 0) remove(invitation.invited, invitee);
    }
    invitation.pending.clear();
    finish_if_answered(server, group);
}

void no_leader_chosen(Server &server, const std::string &group)
{
    abort_invitation(server, group, PMIX_GROUP_CONSTRUCT_ABORT);
}

void leader_lost(Server &server, Invitation &invitation)
{
    invitation.leader_reply.reset();
    invitation.leader_lost = true;
    const std::vector<pmix_proc_t> rest = participants_of(invitation);
    invitation.asked_for_leader.clear();
    for (const pmix_proc_t &proc : rest) {
        if (listens_for(server, proc, PMIX_GROUP_LEADER_FAILED)) invitation.asked_for_leader.insert(proc_name(proc));
    }
    tell_members(server, PMIX_GROUP_LEADER_FAILED, invitation.group, invitation.leader, rest);
    if (invitation.asked_for_leader.empty()) return no_leader_chosen(server, invitation.group);
    arm_timer(server, invitation, kLeaderChoiceWait, no_leader_chosen);
}

void participant_lost(Server &server, Invitation &invitation, const Peer &peer)
{
    const pmix_proc_t lost = peer.proc;
    const std::string name = proc_name(lost);
    if (invitation.pending.count(name) != 0) {
        if (!invitation.leader_lost) {
            tell_members(server, PMIX_GROUP_INVITE_FAILED, invitation.group, lost, {invitation.leader});
        }
    } else if (contains(invitation.accepted, lost)) {
        std::erase_if(invitation.joins, [&](const Arrival &join) { return join.peer == peer.id; });
        std::vector<pmix_proc_t> told = invitation.accepted;
        remove(told, lost);
        if (!invitation.leader_lost) told.push_back(invitation.leader);
        tell_members(server, PMIX_GROUP_MEMBER_FAILED, invitation.group, lost, std::move(told));
    } else {
        return;
    }
    if (invitation.leader_lost && invitation.asked_for_leader.erase(name) != 0 && invitation.asked_for_leader.empty()) {
        return no_leader_chosen(server, invitation.group);
    }
    drop_or_abort(server, invitation, lost, PMIX_GROUP_CONSTRUCT_ABORT);
}

void take_lead(Server &server, Invitation &invitation, const Peer &peer)
{
    invitation.leader = peer.proc;
    invitation.leader_lost = false;
    invitation.asked_for_leader.clear();
    invitation.timer.cancel();
    // The new leader answered by leading.
    invitation.pending.erase(proc_name(peer.proc));
    remove(invitation.invited, peer.proc);
    remove(invitation.accepted, peer.proc);
    std::vector<pmix_proc_t> told = participants_of(invitation);
    told.push_back(peer.proc);
    tell_members(server, PMIX_GROUP_LEADER_SELECTED, invitation.group, peer.proc, std::move(told));
    const auto seconds = directive_timeout(invitation.directives.data(), invitation.directives.size());
    if (seconds) arm_timer(server, invitation, std::chrono::seconds(*seconds), invitation_timed_out);
}

void answer_invitation(Server &server, Peer &peer, uint32_t tag, Invitation &invitation, wire::GroupAnswer reply)
{
    const std::string name = proc_name(peer.proc);
    if (same_proc(invitation.leader, peer.proc) && reply == wire::GroupAnswer::accept) {
        // An invitee that took the lead (after PMIX_GROUP_LEADER_FAILED) and
        // answers its invitation now: it waits for the group it leads.
        invitation.joins.push_back(Arrival{peer.id, tag, peer.proc});
        return finish_if_answered(server, invitation.group);
    }
    if (invitation.pending.erase(name) == 0) {
        runtime::log_warning("server", describe(peer) + " answered the invitation to group " + invitation.group +
                                           " but is not invited or answered already: refused with "
                                           "PMIX_ERR_BAD_PARAM");
        return answer(server, peer.id, tag, PMIX_ERR_BAD_PARAM);
    }
    const bool accepts = reply == wire::GroupAnswer::accept;
    if (accepts) {
        invitation.accepted.push_back(peer.proc);
        invitation.joins.push_back(Arrival{peer.id, tag, peer.proc});
    } else {
        remove(invitation.invited, peer.proc);
        answer(server, peer.id, tag, PMIX_SUCCESS);
    }
    if (!invitation.leader_lost) {
        tell_members(server, accepts ? PMIX_GROUP_INVITE_ACCEPTED : PMIX_GROUP_INVITE_DECLINED, invitation.group,
                     peer.proc, {invitation.leader});
    }
    finish_if_answered(server, invitation.group);
}

// What the participants' handlers of PMIX_GROUP_LEADER_FAILED answered.
void answer_leader_choice(Server &server, Peer &peer, uint32_t tag, Invitation &invitation, bool claims)
{
    const std::string name = proc_name(peer.proc);
    if (!invitation.leader_lost || invitation.asked_for_leader.count(name) == 0) {
        return answer(server, peer.id, tag, PMIX_ERR_BAD_PARAM);  // too late: another leads already
    }
    answer(server, peer.id, tag, PMIX_SUCCESS);
    if (claims) {
        take_lead(server, invitation, peer);
        return finish_if_answered(server, invitation.group);
    }
    invitation.asked_for_leader.erase(name);
    if (invitation.asked_for_leader.empty()) no_leader_chosen(server, invitation.group);
}

}  // namespace

void handle_group_invite(Server &server, Peer &peer, uint32_t tag, wire::GroupInviteRequest &request)
{
    const std::string &group = request.group;
    if (group.empty() || request.procs.empty()) return answer(server, peer.id, tag, PMIX_ERR_BAD_PARAM);
    if (server.part<GroupRegistry>().count(group) != 0 || server.part<InvitationRegistry>().count(group) != 0) {
        runtime::log_warning("server", describe(peer) + " invites to group " + group +
                                           ", which exists or is being built: refused with PMIX_ERR_EXISTS "
                                           "(choose another name, or destruct it first)");
        return answer(server, peer.id, tag, PMIX_ERR_EXISTS);
    }
    std::vector<pmix_proc_t> invitees;
    if (expand_invitees(server, request.procs, peer.proc, &invitees) != PMIX_SUCCESS) {
        runtime::log_warning("server", describe(peer) + " invites to group " + group +
                                           " procs that do not run on this node: refused with "
                                           "PMIX_ERR_NOT_SUPPORTED (invite local procs, or use "
                                           "PMIx_Group_construct, which goes through the host)");
        return answer(server, peer.id, tag, PMIX_ERR_NOT_SUPPORTED);
    }
    Invitation &invitation = server.part<InvitationRegistry>()[group];
    invitation.id = next_invitation_id++;
    invitation.group = group;
    invitation.leader = peer.proc;
    invitation.leader_reply = Arrival{peer.id, tag, peer.proc};
    invitation.invited = invitees;
    for (const pmix_proc_t &invitee : invitees) invitation.pending.insert(proc_name(invitee));
    invitation.optional = directive_flag(request.info.data(), request.info.size(), PMIX_GROUP_OPTIONAL);
    invitation.needs_host = directive_flag(request.info.data(), request.info.size(), PMIX_GROUP_ASSIGN_CONTEXT_ID);
    invitation.directives = std::move(request.info);
    const auto seconds = directive_timeout(invitation.directives.data(), invitation.directives.size());
    if (seconds) arm_timer(server, invitation, std::chrono::seconds(*seconds), invitation_timed_out);
    tell_invited(server, invitation);
    // An invitee that is gone already fails as one lost now would.
    for (const pmix_proc_t &invitee : invitees) {
        auto open = server.part<InvitationRegistry>().find(group);
        if (open == server.part<InvitationRegistry>().end() || open->second.id != invitation.id) return;
        if (!is_gone(server, invitee)) continue;
        Peer stand_in;
        stand_in.proc = invitee;
        participant_lost(server, open->second, stand_in);
    }
    finish_if_answered(server, group);
}

void handle_group_join(Server &server, Peer &peer, uint32_t tag, wire::GroupJoinRequest &request)
{
    auto found = server.part<InvitationRegistry>().find(request.group);
    if (found == server.part<InvitationRegistry>().end()) {
        // Not an invitation's: maybe a construct asking about a lost member.
        if (answer_about_loss(server, peer, tag, request)) return;
        if (request.answer == wire::GroupAnswer::accept || request.answer == wire::GroupAnswer::decline) {
            runtime::log_warning("server", describe(peer) + " answered an invitation to group " + request.group +
                                               ", but none is open: PMIX_ERR_NOT_FOUND (join only after "
                                               "PMIX_GROUP_INVITED, before the group completes)");
        }
        return answer(server, peer.id, tag, PMIX_ERR_NOT_FOUND);
    }
    Invitation &invitation = found->second;
    switch (request.answer) {
    case wire::GroupAnswer::accept:
    case wire::GroupAnswer::decline: return answer_invitation(server, peer, tag, invitation, request.answer);
    case wire::GroupAnswer::claim_leader:
    case wire::GroupAnswer::no_claim:
        return answer_leader_choice(server, peer, tag, invitation, request.answer == wire::GroupAnswer::claim_leader);
    case wire::GroupAnswer::abort: break;
    }
    // Abort: the leader's handlers, or anyone's while there is no leader.
    const bool may_abort = invitation.leader_lost ? contains(participants_of(invitation), peer.proc)
                                                  : same_proc(invitation.leader, peer.proc);
    if (!may_abort) return answer(server, peer.id, tag, PMIX_ERR_BAD_PARAM);
    answer(server, peer.id, tag, PMIX_SUCCESS);
    abort_invitation(server, request.group, PMIX_GROUP_CONSTRUCT_ABORT);
}

bool invitation_aborted_by(Server &server, const Peer &peer, const wire::Event &event)
{
    if (event.status != PMIX_GROUP_CONSTRUCT_ABORT) return false;
    for (const pmix_info_t &info : event.info) {
        if (!PMIX_CHECK_KEY(&info, PMIX_GROUP_ID) || info.value.type != PMIX_STRING) continue;
        if (info.value.data.string == nullptr) return false;
        auto found = server.part<InvitationRegistry>().find(info.value.data.string);
        if (found == server.part<InvitationRegistry>().end() || !same_proc(found->second.leader, peer.proc))
            return false;
        abort_invitation(server, found->first, PMIX_GROUP_CONSTRUCT_ABORT);
        return true;
    }
    return false;
}

void invitation_peer_lost(Server &server, const Peer &peer)
{
    std::vector<std::string> names;
    for (const auto &[name, invitation] : server.part<InvitationRegistry>()) names.push_back(name);
    for (const std::string &name : names) {
        auto found = server.part<InvitationRegistry>().find(name);
        if (found == server.part<InvitationRegistry>().end()) continue;
        Invitation &invitation = found->second;
        if (!invitation.leader_lost && same_proc(invitation.leader, peer.proc)) {
            leader_lost(server, invitation);
        } else {
            participant_lost(server, invitation, peer);
        }
    }
}

void fail_all_invitations(Server &server, pmix_status_t status)
{
    std::vector<std::string> names;
    for (const auto &[name, invitation] : server.part<InvitationRegistry>()) names.push_back(name);
    for (const std::string &name : names) abort_invitation(server, name, status);
}

}  // namespace pmixpp::server
