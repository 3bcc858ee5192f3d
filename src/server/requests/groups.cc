// PMIx_Group_construct / PMIx_Group_destruct: a collective over the group's
// members, driven like a connect (the same tracker, participants and
// timeout). Every local member asks with the same name (construct: and the
// same member list). When every member lives on this node and no context
// id is asked for, the server completes it itself; otherwise, once every
// local member asked, the host's group upcall gets it once, and what the
// host answers (PMIX_GROUP_CONTEXT_ID, ...) is every member's result.
// Construct results carry PMIX_GROUP_MEMBERSHIP, as OpenPMIx 4.2.9 does.
//
// A member whose connection ends before the collective was handed to the
// host fails it for the others with PMIX_GROUP_MEMBER_FAILED, as status and
// as an event about that member: nobody waits for a process that cannot
// arrive.
#include "common/runtime/log.h"
#include "server/events/delivery.h"
#include "server/state/peer_io.h"
#include "server/state/info_read.h"
#include "server/host/host_module.h"
#include "server/requests/group_ops.h"
#include "server/requests/participants.h"
#include "server/requests/requests.h"
#include "server/requests/group_tracker.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

namespace pmixpp::server {

// PMIX_GROUP_MEMBER_FAILED tells which proc failed a construct, not only
// that it failed; PMIX_GROUP_LEFT who left.
void tell_members(Server &server, pmix_status_t code, const std::string &group, const pmix_proc_t &about,
                  std::vector<pmix_proc_t> told)
{
    wire::Event event;
    event.status = code;
    event.source = about;
    event.range = PMIX_RANGE_CUSTOM;
    if (told.empty() || event.info.allocate(3) != PMIX_SUCCESS) return;
    pmix_data_array_t range{PMIX_PROC, told.size(), told.data()};  // copied by the load
    PMIX_INFO_LOAD(&event.info[0], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&event.info[1], PMIX_GROUP_ID, group.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&event.info[2], PMIX_EVENT_AFFECTED_PROC, &about, PMIX_PROC);
    deliver_local_event(server, event, kNoPeer);
}

namespace {

const char *group_api_name(bool destruct)
{
    return destruct ? "PMIx_Group_destruct" : "PMIx_Group_construct";
}

// The construct results: what the host said (less the endpoint data, which
// is stored), then the membership unless the host gave it already.
pmix_status_t construct_results(const wire::InfoArray &from_host, const std::vector<pmix_proc_t> &members,
                                wire::InfoArray *results_p)
{
    bool has_membership = false;
    size_t endpoints = 0;  // the members' data: stored, not handed to them
    for (const pmix_info_t &info : from_host) {
        has_membership |= PMIX_CHECK_KEY(&info, PMIX_GROUP_MEMBERSHIP);
        endpoints += PMIX_CHECK_KEY(&info, PMIX_GROUP_ENDPT_DATA) ? 1 : 0;
    }
    const size_t n = from_host.size() - endpoints + (has_membership ? 0 : 1);
    pmix_status_t rc = results_p->allocate(n);
    if (rc != PMIX_SUCCESS) return rc;
    size_t next = 0;
    for (const pmix_info_t &info : from_host) {
        if (PMIX_CHECK_KEY(&info, PMIX_GROUP_ENDPT_DATA)) continue;
        rc = PMIx_Info_xfer(&(*results_p)[next++], &info);
        if (rc != PMIX_SUCCESS) return rc;
    }
    if (has_membership) return PMIX_SUCCESS;
    pmix_data_array_t array;
    array.type = PMIX_PROC;
    array.size = members.size();
    array.array = const_cast<pmix_proc_t *>(members.data());  // copied by the load
    PMIX_INFO_LOAD(&(*results_p)[n - 1], PMIX_GROUP_MEMBERSHIP, &array, PMIX_DATA_ARRAY);
    return PMIX_SUCCESS;
}

std::optional<size_t> context_id_in(const wire::InfoArray &info)
{
    for (const pmix_info_t &entry : info) {
        if (!PMIX_CHECK_KEY(&entry, PMIX_GROUP_CONTEXT_ID)) continue;
        switch (entry.value.type) {
        case PMIX_SIZE: return entry.value.data.size;
        case PMIX_UINT64: return static_cast<size_t>(entry.value.data.uint64);
        case PMIX_UINT32: return entry.value.data.uint32;
        default: break;  // a host's own type: handed on, not recorded
        }
    }
    return std::nullopt;
}

// A member whose connection already ended, if any.
std::optional<pmix_proc_t> gone_member(Server &server, const std::vector<pmix_proc_t> &members)
{
    for (const pmix_proc_t &member : members) {
        Namespace *ns = server.find_namespace(member.nspace);
        if (ns == nullptr || ns->gone.empty()) continue;
        if (member.rank != PMIX_RANK_WILDCARD && ns->gone.count(member.rank) != 0) return member;
        if (member.rank == PMIX_RANK_WILDCARD) return make_proc(ns->name, *ns->gone.begin());
    }
    return std::nullopt;
}

// PMIX_GROUP_CONSTRUCT_COMPLETE (with the membership and context id) or
// PMIX_GROUP_CONSTRUCT_ABORT to the members of a group an invitation formed,
// from its leader. Not for default handlers, as OpenPMIx raises them.
void announce(Server &server, const std::string &group, const pmix_proc_t &leader, std::vector<pmix_proc_t> members,
              pmix_status_t status, const wire::InfoArray &results)
{
    wire::Event event;
    event.status = status == PMIX_SUCCESS ? PMIX_GROUP_CONSTRUCT_COMPLETE : PMIX_GROUP_CONSTRUCT_ABORT;
    event.source = leader;
    event.range = PMIX_RANGE_CUSTOM;
    if (members.empty() || event.info.allocate(3 + results.size()) != PMIX_SUCCESS) return;
    pmix_data_array_t range{PMIX_PROC, members.size(), members.data()};  // copied by the load
    PMIX_INFO_LOAD(&event.info[0], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&event.info[1], PMIX_GROUP_ID, group.c_str(), PMIX_STRING);
    const bool non_default = true;
    PMIX_INFO_LOAD(&event.info[2], PMIX_EVENT_NON_DEFAULT, &non_default, PMIX_BOOL);
    for (size_t i = 0; i < results.size(); ++i) (void)PMIx_Info_xfer(&event.info[3 + i], &results[i]);
    deliver_local_event(server, event, kNoPeer);
}

// Ends the collective `id` for every member that arrived: a construct that
// succeeded records the group, a destruct that succeeded forgets it.
void finish_group(Server &server, uint64_t id, pmix_status_t status, const wire::InfoArray &from_host = {})
{
    GroupCollective *collective = server.part<GroupTracker>().find(id);
    if (collective == nullptr) return;  // timed out or failed already
    collective->timer.cancel();
    collective->answers_timer.cancel();
    if (status == PMIX_SUCCESS && collective->partial) status = PMIX_ERR_PARTIAL_SUCCESS;
    const bool formed = status == PMIX_SUCCESS || status == PMIX_ERR_PARTIAL_SUCCESS;
    const std::vector<Arrival> arrivals = std::move(collective->arrived);
    const bool destruct = collective->destruct;
    const std::string group = collective->group;
    const std::vector<pmix_proc_t> members = std::move(collective->procs);
    const bool through_host = collective->needs_host;
    std::map<std::string, wire::InfoArray> member_info = std::move(collective->member_info);
    const std::optional<pmix_proc_t> announced_by = collective->announced_by;
    server.part<GroupTracker>().erase(id);
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       std::string(group_api_name(destruct)) + " of " + group + " ends: " + PMIx_Error_string(status));
    if (destruct) {
        if (formed) server.part<GroupRegistry>().erase(group);
        for (const Arrival &arrival : arrivals) reply_status(server, arrival.peer, arrival.tag, status);
        return;
    }
    wire::InfoReply reply;
    reply.status = status;
    if (formed) {
        store_endpoint_data(server, group, from_host);
        const pmix_status_t rc = construct_results(from_host, members, &reply.info);
        if (rc != PMIX_SUCCESS) reply.status = rc;
        if (rc == PMIX_SUCCESS) {
            const std::optional<size_t> context_id = context_id_in(from_host);
            server.part<GroupRegistry>()[group] = Group{members, context_id, through_host};
            if (context_id && !member_info.empty())
                server.part<GroupInfoByContext>()[*context_id] = std::move(member_info);
        }
    }
    for (const Arrival &arrival : arrivals) reply_to(server, arrival.peer, arrival.tag, reply);
    if (announced_by) {
        const bool announced = reply.status == PMIX_SUCCESS || reply.status == PMIX_ERR_PARTIAL_SUCCESS;
        announce(server, group, *announced_by, members, announced ? PMIX_SUCCESS : reply.status, reply.info);
    }
}

// What the host is handed, owned by the call: the host may read it until it
// calls back, which may be after the collective timed out and is gone.
struct GroupUpcall {
    uint64_t id = 0;
    char group[PMIX_MAX_NSLEN + 1] = {};
    std::vector<pmix_proc_t> procs;
    wire::InfoArray directives;
};

void host_done(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata, pmix_release_cbfunc_t release,
               void *release_cbdata)
{
    std::unique_ptr<GroupUpcall> call(static_cast<GroupUpcall *>(cbdata));
    auto answer = std::make_shared<wire::InfoArray>();
    if (status == PMIX_SUCCESS && ninfo > 0 && info != nullptr) status = answer->assign_copy(info, ninfo);
    if (release != nullptr) release(release_cbdata);
    if (call == nullptr) return;
    // Handled on the progress thread, after the upcall returned.
    post_to_server([id = call->id, status, answer](Server &server) { finish_group(server, id, status, *answer); });
}

void call_host(Server &server, GroupCollective &collective)
{
    const auto upcall = server.host.slots().group;
    auto *call = new (std::nothrow) GroupUpcall;
    if (call == nullptr) return finish_group(server, collective.id, PMIX_ERR_NOMEM);
    call->id = collective.id;
    std::strncpy(call->group, collective.group.c_str(), PMIX_MAX_NSLEN);
    call->procs = collective.procs;
    call->directives = std::move(collective.directives);
    if (!collective.destruct && collective.spans_nodes) {
        const pmix_status_t rc = add_endpoint_data(server, collective, &call->directives);
        if (rc != PMIX_SUCCESS) {
            runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                               "no endpoint data for group " + collective.group + ": " + PMIx_Error_string(rc));
        }
    }
    collective.host_called = true;
    const pmix_group_operation_t op = collective.destruct ? PMIX_GROUP_DESTRUCT : PMIX_GROUP_CONSTRUCT;
    const uint64_t id = collective.id;
    const pmix_status_t rc = upcall(op, call->group, call->procs.data(), call->procs.size(), call->directives.data(),
                                    call->directives.size(), host_done, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    finish_group(server, id, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

// The caller's PMIX_GROUP_INFO (a data array of infos), kept for the
// members' qualified gets once the group has a context id.
void keep_group_info(GroupCollective &collective, const Peer &peer, const wire::InfoArray &info)
{
    for (const pmix_info_t &entry : info) {
        if (!PMIX_CHECK_KEY(&entry, PMIX_GROUP_INFO) || entry.value.type != PMIX_DATA_ARRAY) continue;
        const pmix_data_array_t *array = entry.value.data.darray;
        if (array == nullptr || array->type != PMIX_INFO || array->size == 0) continue;
        wire::InfoArray copy;
        if (copy.assign_copy(static_cast<const pmix_info_t *>(array->array), array->size) != PMIX_SUCCESS) continue;
        collective.member_info[proc_name(peer.proc)] = std::move(copy);
    }
}

void refuse(Server &server, const Peer &peer, uint32_t tag, bool destruct, pmix_status_t status)
{
    if (destruct) return reply_status(server, peer.id, tag, status);
    wire::InfoReply reply;
    reply.status = status;
    reply_to(server, peer.id, tag, reply);
}

// The refusals that need no collective; PMIX_SUCCESS lets the caller join.
pmix_status_t check_caller(Server &server, const Peer &peer, bool destruct, const std::string &group,
                           const std::vector<pmix_proc_t> &members, const Participants &participants, bool needs_host)
{
    if (group.empty() || members.empty() || participants.local.count(proc_name(peer.proc)) == 0) {
        runtime::log_warning("server", describe(peer) + " called " + group_api_name(destruct) +
                                           " without a group name or as no member of the group: refused with "
                                           "PMIX_ERR_BAD_PARAM (name the group, and the caller among its members)");
        return PMIX_ERR_BAD_PARAM;
    }
    if (needs_host && server.host.slots().group == nullptr) return PMIX_ERR_NOT_SUPPORTED;
    if (participants.any_gone) return PMIX_GROUP_MEMBER_FAILED;
    return PMIX_SUCCESS;
}

// What this caller said about losing members (group_failures.cc).
void note_failure_directives(GroupCollective &collective, const Peer &peer, const wire::InfoArray &info)
{
    if (directive_flag(info.data(), info.size(), PMIX_GROUP_LEADER)) collective.leaders.push_back(peer.proc);
    collective.notify_termination |= directive_flag(info.data(), info.size(), PMIX_GROUP_NOTIFY_TERMINATION);
    collective.ft_collective |= directive_flag(info.data(), info.size(), PMIX_GROUP_FT_COLLECTIVE);
}

// Members whose connection ended before this call: handled as lost once
// (a construct that tolerates losses goes on without them).
void handle_gone_members(Server &server, uint64_t id, const std::vector<pmix_proc_t> &members)
{
    std::vector<pmix_proc_t> gone;
    for (const pmix_proc_t &member : members) {
        const Namespace *ns = server.find_namespace(member.nspace);
        if (ns == nullptr) continue;
        if (member.rank != PMIX_RANK_WILDCARD) {
            if (ns->gone.count(member.rank) != 0) gone.push_back(member);
            continue;
        }
        for (pmix_rank_t rank : ns->gone) {
            if (ns->is_local(rank)) gone.push_back(make_proc(ns->name, rank));
        }
    }
    for (const pmix_proc_t &member : gone) {
        GroupCollective *collective = server.part<GroupTracker>().find(id);
        if (collective == nullptr) return;
        member_lost(server, *collective, member, false);
    }
}

void run_collective(Server &server, Peer &peer, uint32_t tag, bool destruct, const std::string &group,
                    std::vector<pmix_proc_t> members, wire::InfoArray &info, bool needs_host)
{
    Participants participants = local_participants(server, members);
    needs_host = needs_host || !participants.all_local;
    // The signature is of the list as given: every caller names the same.
    const std::string signature = std::string(group_api_name(destruct)) + ":" + group + ":" + signature_of(members);
    const bool optional = !destruct && directive_flag(info.data(), info.size(), PMIX_GROUP_OPTIONAL);
    // Gone members are then handled once, by member_lost (group_failures.cc).
    const bool tolerant =
        !destruct && (optional || directive_flag(info.data(), info.size(), PMIX_GROUP_NOTIFY_TERMINATION) ||
                      directive_flag(info.data(), info.size(), PMIX_GROUP_FT_COLLECTIVE));
    const bool any_gone = participants.any_gone;
    if (tolerant) participants.any_gone = false;  // handled once joined
    const pmix_status_t refused = check_caller(server, peer, destruct, group, members, participants, needs_host);
    if (refused == PMIX_GROUP_MEMBER_FAILED) {
        if (auto lost = gone_member(server, members)) {
            tell_members(server, PMIX_GROUP_MEMBER_FAILED, group, *lost, {peer.proc});
        }
    }
    if (refused != PMIX_SUCCESS) return refuse(server, peer, tag, destruct, refused);
    bool created = false;
    GroupCollective &collective = join(server.part<GroupTracker>(), signature, peer, tag, &created);
    if (!destruct) {
        keep_group_info(collective, peer, info);
        note_failure_directives(collective, peer, info);
    }
    const uint64_t id = collective.id;
    if (created) {
        collective.group = group;
        collective.destruct = destruct;
        collective.needs_host = needs_host;
        collective.spans_nodes = !participants.all_local;
        collective.optional = optional;
        collective.procs = members;
        collective.expected = std::move(participants.local);
        collective.directives = std::move(info);
        arm_timeout(server, collective,
                    [](Server &now, uint64_t expired) { finish_group(now, expired, PMIX_ERR_TIMEOUT); });
    }
    if (tolerant && any_gone) handle_gone_members(server, id, members);
    if (GroupCollective *open = server.part<GroupTracker>().find(id)) proceed_if_complete(server, *open);
}

}  // namespace

void handle_group_construct(Server &server, Peer &peer, uint32_t tag, wire::GroupConstructRequest &request)
{
    if (server.part<GroupRegistry>().count(request.group) != 0) {
        runtime::log_warning("server", describe(peer) + " constructs group " + request.group +
                                           ", which exists: refused with PMIX_ERR_EXISTS (destruct it first)");
        return refuse(server, peer, tag, false, PMIX_ERR_EXISTS);
    }
    const bool wants_context_id =
        directive_flag(request.info.data(), request.info.size(), PMIX_GROUP_ASSIGN_CONTEXT_ID);
    run_collective(server, peer, tag, false, request.group, normalised(std::move(request.procs)), request.info,
                   wants_context_id);
}

void handle_group_destruct(Server &server, Peer &peer, uint32_t tag, wire::GroupDestructRequest &request)
{
    auto found = server.part<GroupRegistry>().find(request.group);
    if (found == server.part<GroupRegistry>().end()) return refuse(server, peer, tag, true, PMIX_ERR_NOT_FOUND);
    run_collective(server, peer, tag, true, request.group, found->second.members, request.info,
                   found->second.host_knows);
}

// No collective: the caller is out of the group at once, the members left
// hear PMIX_GROUP_LEFT (source: the leaver). The host is not told (OpenPMIx
// 4.2 has no leave upcall); a later destruct goes to it with the rest.
void handle_group_leave(Server &server, Peer &peer, uint32_t tag, wire::GroupLeaveRequest &request)
{
    auto found = server.part<GroupRegistry>().find(request.group);
    if (found == server.part<GroupRegistry>().end()) return reply_status(server, peer.id, tag, PMIX_ERR_NOT_FOUND);
    std::vector<pmix_proc_t> &members = found->second.members;
    const auto leaver = std::find_if(members.begin(), members.end(),
                                     [&peer](const pmix_proc_t &member) { return same_proc(member, peer.proc); });
    if (leaver == members.end()) return reply_status(server, peer.id, tag, PMIX_ERR_BAD_PARAM);
    members.erase(leaver);
    std::vector<pmix_proc_t> told = members;
    if (members.empty()) server.part<GroupRegistry>().erase(found);
    reply_status(server, peer.id, tag, PMIX_SUCCESS);
    if (!told.empty()) tell_members(server, PMIX_GROUP_LEFT, request.group, peer.proc, std::move(told));
}

void complete_group(Server &server, uint64_t id, pmix_status_t status, const wire::InfoArray &from_host)
{
    finish_group(server, id, status, from_host);
}

void proceed_if_complete(Server &server, GroupCollective &collective)
{
    if (!collective.complete() || !collective.awaiting.empty()) return;
    if (!collective.needs_host) return finish_group(server, collective.id, PMIX_SUCCESS, {});
    call_host(server, collective);
}

void form_announced_group(Server &server, const std::string &group, const pmix_proc_t &leader,
                          std::vector<pmix_proc_t> members, std::vector<Arrival> waiting, wire::InfoArray directives,
                          bool needs_host)
{
    members = normalised(std::move(members));
    Participants participants = local_participants(server, members);
    GroupCollective &collective =
        server.part<GroupTracker>().create("PMIx_Group_invite:" + group + ":" + signature_of(members));
    collective.group = group;
    collective.announced_by = leader;
    collective.needs_host = needs_host || !participants.all_local;
    collective.procs = std::move(members);
    for (const Arrival &arrival : waiting) collective.expected.insert(proc_name(arrival.proc));
    collective.arrived = std::move(waiting);
    collective.directives = std::move(directives);
    if (collective.needs_host && server.host.slots().group == nullptr) {
        return finish_group(server, collective.id, PMIX_ERR_NOT_SUPPORTED);
    }
    arm_timeout(server, collective, [](Server &now, uint64_t id) { finish_group(now, id, PMIX_ERR_TIMEOUT); });
    proceed_if_complete(server, collective);
}

bool answer_group_get(const Server &server, const wire::GetRequest &request, wire::GetReply *reply_p)
{
    const bool membership = request.key == PMIX_GROUP_MEMBERSHIP;
    if (!membership && request.key != PMIX_GROUP_CONTEXT_ID) return false;
    std::string name(request.proc.nspace, strnlen(request.proc.nspace, PMIX_MAX_NSLEN));
    bool named = false;  // by a PMIX_GROUP_ID directive
    for (const pmix_info_t &entry : request.directives) {
        if (PMIX_CHECK_KEY(&entry, PMIX_GROUP_ID) && entry.value.type == PMIX_STRING &&
            entry.value.data.string != nullptr) {
            name = entry.value.data.string;
            named = true;
        }
    }
    // A namespace of that name wins, as for fences over a group.
    if (!named && server.namespaces.count(name) != 0) return false;
    auto group = server.part<GroupRegistry>().find(name);
    if (group == server.part<GroupRegistry>().end()) return false;
    pmix_info_t answer;
    if (membership) {
        pmix_data_array_t array{PMIX_PROC, group->second.members.size(),
                                const_cast<pmix_proc_t *>(group->second.members.data())};  // copied by the load
        PMIX_INFO_LOAD(&answer, PMIX_GROUP_MEMBERSHIP, &array, PMIX_DATA_ARRAY);
    } else if (group->second.context_id) {
        PMIX_INFO_LOAD(&answer, PMIX_GROUP_CONTEXT_ID, &*group->second.context_id, PMIX_SIZE);
    } else {
        reply_p->status = PMIX_ERR_NOT_FOUND;  // a group the host gave no id
        return true;
    }
    reply_p->status = reply_p->data.assign_copy(&answer, 1);
    PMIX_INFO_DESTRUCT(&answer);
    return true;
}

bool answer_group_qualified_get(const Server &server, const wire::GetRequest &request, wire::GetReply *reply_p)
{
    std::optional<size_t> context_id;
    for (const pmix_info_t &entry : request.directives) {
        if (!PMIX_CHECK_KEY(&entry, PMIX_GROUP_CONTEXT_ID)) continue;
        wire::InfoArray one;
        if (one.assign_copy(&entry, 1) != PMIX_SUCCESS) return false;
        context_id = context_id_in(one);
    }
    if (!context_id) return false;
    reply_p->status = PMIX_ERR_NOT_FOUND;
    auto group = server.part<GroupInfoByContext>().find(*context_id);
    if (group == server.part<GroupInfoByContext>().end() || request.key.empty()) return true;
    auto member = group->second.find(proc_name(request.proc));
    if (member == group->second.end()) return true;
    for (const pmix_info_t &entry : member->second) {
        if (!PMIX_CHECK_KEY(&entry, request.key.c_str())) continue;
        reply_p->status = reply_p->data.assign_copy(&entry, 1);
        return true;
    }
    return true;
}

std::vector<pmix_proc_t> with_groups_expanded(const Server &server, std::vector<pmix_proc_t> procs)
{
    std::vector<pmix_proc_t> expanded;
    for (const pmix_proc_t &proc : procs) {
        const std::string name(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN));
        auto group = server.part<GroupRegistry>().find(name);
        // A namespace of that name wins: groups and namespaces share the
        // pmix_proc_t's nspace field, and a job is what callers meant first.
        if (group == server.part<GroupRegistry>().end() || server.namespaces.count(name) != 0) {
            expanded.push_back(proc);
            continue;
        }
        const std::vector<pmix_proc_t> &members = group->second.members;
        if (proc.rank == PMIX_RANK_WILDCARD) {
            expanded.insert(expanded.end(), members.begin(), members.end());
        } else if (proc.rank < members.size()) {
            expanded.push_back(members[proc.rank]);  // rank N of a group: its Nth member
        } else {
            expanded.push_back(proc);  // no such member: the fence refuses it as it would any unknown proc
        }
    }
    return expanded;
}

void fail_all_groups(Server &server, pmix_status_t status)
{
    for (uint64_t id : server.part<GroupTracker>().ids()) finish_group(server, id, status);
}

}  // namespace pmixpp::server
