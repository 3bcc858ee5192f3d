// A member of a group construct or destruct is lost (its connection ended,
// before its call or inside it). What happens depends on the directives,
// as the standard describes them for PMIx_Group_construct:
//
//   PMIX_GROUP_OPTIONAL          left out quietly; the construct ends
//                                PMIX_ERR_PARTIAL_SUCCESS with the members
//                                that are left (no events)
//   PMIX_GROUP_FT_COLLECTIVE     one lost inside its call is left out
//                                quietly; the construct ends PMIX_SUCCESS
//   PMIX_GROUP_NOTIFY_TERMINATION the declared leaders (PMIX_GROUP_LEADER),
//                                or every member on this node (called or
//                                not yet), hear PMIX_GROUP_MEMBER_FAILED; a
//                                lost leader is PMIX_GROUP_LEADER_FAILED to
//                                every member. The construct waits for their
//                                handlers' answer (client/core/
//                                group_answers.cc): PMIX_GROUP_CONSTRUCT_ABORT
//                                from any ends it with that status; otherwise
//                                it goes on without the lost one, and a
//                                member whose handlers returned
//                                PMIX_GROUP_LEADER leads (all hear
//                                PMIX_GROUP_LEADER_SELECTED)
//   none of these                the construct fails at once for everybody
//                                waiting: PMIX_GROUP_MEMBER_FAILED, as status
//                                and as an event about the lost member
#include "common/runtime/log.h"
#include "server/state/peer_io.h"
#include "server/requests/group_ops.h"
#include "server/requests/participants.h"
#include "server/requests/requests.h"
#include "server/requests/group_tracker.h"

#include <algorithm>
#include <chrono>

namespace pmixpp::server {

namespace {

// How long a construct waits for the members asked about a loss whose
// handlers do not answer (they hang): then it goes on without them.
constexpr std::chrono::seconds kAnswerWait{10};

std::vector<pmix_proc_t> callers_of(const GroupCollective &collective)
{
    std::vector<pmix_proc_t> callers;
    for (const Arrival &arrival : collective.arrived) callers.push_back(arrival.proc);
    return callers;
}

// The members still expected on this node (called or not yet), one by one.
std::vector<pmix_proc_t> local_members(Server &server, const GroupCollective &collective)
{
    std::vector<pmix_proc_t> members;
    for (const pmix_proc_t &member : collective.procs) {
        const Namespace *ns = server.find_namespace(member.nspace);
        if (member.rank != PMIX_RANK_WILDCARD) {
            members.push_back(member);
        } else if (ns != nullptr) {
            for (pmix_rank_t rank : ns->summary.local_ranks) members.push_back(make_proc(ns->name, rank));
        }
    }
    std::erase_if(members,
                  [&](const pmix_proc_t &member) { return collective.expected.count(proc_name(member)) == 0; });
    return members;
}

// A {namespace, PMIX_RANK_WILDCARD} member written out rank by rank, so
// that one of them can be left out.
void spell_out_namespace(Server &server, GroupCollective &collective, const pmix_proc_t &lost)
{
    const Namespace *ns = server.find_namespace(lost.nspace);
    auto whole = std::find_if(collective.procs.begin(), collective.procs.end(), [&lost](const pmix_proc_t &member) {
        return member.rank == PMIX_RANK_WILDCARD && PMIX_CHECK_NSPACE(member.nspace, lost.nspace);
    });
    if (ns == nullptr || ns->summary.job_size == 0 || whole == collective.procs.end()) return;
    collective.procs.erase(whole);
    for (pmix_rank_t rank = 0; rank < ns->summary.job_size; ++rank) {
        collective.procs.push_back(make_proc(ns->name, rank));
    }
    collective.procs = normalised(std::move(collective.procs));
}

// The lost member is no member any more: not expected, not in the list the
// host and the results get.
void leave_out(Server &server, GroupCollective &collective, const pmix_proc_t &lost)
{
    spell_out_namespace(server, collective, lost);
    collective.expected.erase(proc_name(lost));
    std::erase_if(collective.procs, [&lost](const pmix_proc_t &member) { return same_proc(member, lost); });
    std::erase_if(collective.leaders, [&lost](const pmix_proc_t &leader) { return same_proc(leader, lost); });
}

// PMIX_GROUP_NOTIFY_TERMINATION: tells the leaders (or every caller) and
// waits for their answer.
void ask_about(Server &server, GroupCollective &collective, const pmix_proc_t &lost)
{
    const bool was_leader = std::any_of(collective.leaders.begin(), collective.leaders.end(),
                                        [&lost](const pmix_proc_t &leader) { return same_proc(leader, lost); });
    leave_out(server, collective, lost);
    const pmix_status_t code = was_leader ? PMIX_GROUP_LEADER_FAILED : PMIX_GROUP_MEMBER_FAILED;
    collective.leader_lost = collective.leader_lost || was_leader;
    std::vector<pmix_proc_t> told =
        !was_leader && !collective.leaders.empty() ? collective.leaders : local_members(server, collective);
    for (const pmix_proc_t &proc : told) {
        if (listens_for(server, proc, code)) collective.awaiting.insert(proc_name(proc));
    }
    tell_members(server, code, collective.group, lost, told);
    if (collective.awaiting.empty()) return;
    const uint64_t id = collective.id;
    collective.answers_timer.cancel();
    collective.answers_timer = server.engine.add_timer(kAnswerWait, [id] {
        Server *now = current();
        GroupCollective *open = now == nullptr ? nullptr : now->part<GroupTracker>().find(id);
        if (open == nullptr) return;
        open->awaiting.clear();  // nobody answered in time: go on without the lost ones
        proceed_if_complete(*now, *open);
    });
}

void take_lead(Server &server, GroupCollective &collective, const pmix_proc_t &leader)
{
    collective.leaders = {leader};
    collective.leader_lost = false;
    tell_members(server, PMIX_GROUP_LEADER_SELECTED, collective.group, leader, local_members(server, collective));
}

GroupCollective *construct_asking(Server &server, const std::string &group, const pmix_proc_t &proc)
{
    for (uint64_t id : server.part<GroupTracker>().ids()) {
        GroupCollective *collective = server.part<GroupTracker>().find(id);
        if (collective->group == group && !collective->destruct && collective->awaiting.count(proc_name(proc)) != 0) {
            return collective;
        }
    }
    return nullptr;
}

}  // namespace

bool listens_for(Server &server, const pmix_proc_t &proc, pmix_status_t code)
{
    for (const auto &[id, peer] : server.peers) {
        if (peer->state == PeerState::connected && same_proc(peer->proc, proc)) return peer->wants(code);
    }
    return false;
}

void member_lost(Server &server, GroupCollective &collective, const pmix_proc_t &lost, bool had_arrived)
{
    if (!collective.lost.insert(proc_name(lost)).second) return;  // handled already
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       "group " + collective.group + " lost member " + proc_name(lost) +
                           (had_arrived ? " inside its call" : " before its call") +
                           (collective.ft_collective ? " (ft)" : "") +
                           (collective.notify_termination ? " (notify)" : ""));
    collective.awaiting.erase(proc_name(lost));  // it will not answer
    if (!collective.destruct && (collective.optional || (had_arrived && collective.ft_collective))) {
        leave_out(server, collective, lost);
        collective.partial = collective.partial || collective.optional;
        return proceed_if_complete(server, collective);
    }
    if (!collective.destruct && collective.notify_termination) {
        ask_about(server, collective, lost);
        return proceed_if_complete(server, collective);
    }
    tell_members(server, PMIX_GROUP_MEMBER_FAILED, collective.group, lost, callers_of(collective));
    complete_group(server, collective.id, PMIX_GROUP_MEMBER_FAILED);
}

bool answer_about_loss(Server &server, const Peer &peer, uint32_t tag, const wire::GroupJoinRequest &request)
{
    GroupCollective *collective = construct_asking(server, request.group, peer.proc);
    if (collective == nullptr) return false;
    wire::InfoReply reply;
    reply.status = PMIX_SUCCESS;
    reply_to(server, peer.id, tag, reply);
    if (request.answer == wire::GroupAnswer::abort) {
        complete_group(server, collective->id, PMIX_GROUP_CONSTRUCT_ABORT);
        return true;
    }
    if (request.answer == wire::GroupAnswer::claim_leader && collective->leader_lost) {
        take_lead(server, *collective, peer.proc);
    }
    collective->awaiting.erase(proc_name(peer.proc));
    if (collective->awaiting.empty()) collective->answers_timer.cancel();
    proceed_if_complete(server, *collective);
    return true;
}

void group_peer_lost(Server &server, const Peer &peer)
{
    const std::string name = proc_name(peer.proc);
    for (uint64_t id : server.part<GroupTracker>().ids()) {
        GroupCollective *collective = server.part<GroupTracker>().find(id);
        if (collective == nullptr || collective->expected.count(name) == 0) continue;
        const bool had_arrived = collective->has_arrived(peer.proc);
        collective->drop(peer.id, name);
        // Handed to the host already: its answer ends it.
        if (!collective->host_called) member_lost(server, *collective, peer.proc, had_arrived);
    }
}

}  // namespace pmixpp::server
