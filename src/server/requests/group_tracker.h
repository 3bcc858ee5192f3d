// Process groups (groups.cc): the construct and destruct collectives in
// progress, and the groups this server knows once constructed. A group is a
// collective over its members like a connect, so it reuses the same tracker;
// the group's name is part of the signature, so two groups of the same
// members are different collectives.
#ifndef PMIXPP_SERVER_REQUESTS_GROUP_TRACKER_H
#define PMIXPP_SERVER_REQUESTS_GROUP_TRACKER_H

#include "server/requests/collective_tracker.h"

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server {

struct GroupCollective : LocalCollective {
    std::string group;
    bool destruct = false;
    // Formed by an invitation: its members hear PMIX_GROUP_CONSTRUCT_COMPLETE
    // (or _ABORT) from the leader when it ends.
    std::optional<pmix_proc_t> announced_by;
    bool needs_host = false;   // a member elsewhere, or a context id asked
    bool spans_nodes = false;  // a member elsewhere: endpoint data goes to the host
    bool optional = false;     // PMIX_GROUP_OPTIONAL: a member that is gone is left out
    // Losing a member (group_failures.cc).
    bool notify_termination = false;   // PMIX_GROUP_NOTIFY_TERMINATION: ask the members
    bool ft_collective = false;        // PMIX_GROUP_FT_COLLECTIVE: drop one lost inside its call
    bool partial = false;              // an optional member was left out: PMIX_ERR_PARTIAL_SUCCESS
    std::vector<pmix_proc_t> leaders;  // callers that said PMIX_GROUP_LEADER
    bool leader_lost = false;          // a leader was lost, no other has taken its place yet
    std::set<std::string> lost;        // members handled as lost already (proc_name)
    std::set<std::string> awaiting;    // asked about a loss, not answered yet (proc_name)
    runtime::Timer answers_timer;      // bounds that wait
    // Each local member's PMIX_GROUP_INFO (proc_name -> its infos).
    std::map<std::string, wire::InfoArray> member_info;
};

using GroupTracker = CollectiveTracker<GroupCollective>;

// A constructed group: answered to PMIx_Query_info and fences over its name,
// removed by its destruct.
struct Group {
    std::vector<pmix_proc_t> members;  // normalised
    std::optional<size_t> context_id;  // PMIX_GROUP_CONTEXT_ID the host assigned
    bool host_knows = false;           // constructed through the host: destructed through it too
};

using GroupRegistry = std::map<std::string, Group>;

// A PMIx_Group_invite in progress (group_invites.cc): the leader, the
// invitees that have not answered, those that accepted and wait in
// PMIx_Group_join, by group name. It becomes a group (a GroupCollective
// announced_by the leader) once nobody is left to answer.
struct Invitation {
    uint64_t id = 0;  // tells a timer's invitation from a later one of the same name
    std::string group;
    pmix_proc_t leader{};
    std::optional<Arrival> leader_reply;  // the leader's invite call, while it waits
    std::vector<pmix_proc_t> invited;     // every invitee, wildcards expanded, leader not among them
    std::set<std::string> pending;        // invitees that have not answered (proc_name)
    std::vector<pmix_proc_t> accepted;
    std::vector<Arrival> joins;  // accepted PMIx_Group_join calls, waiting for the group
    wire::InfoArray directives;  // the leader's
    bool optional = false;       // PMIX_GROUP_OPTIONAL: the lost are left out
    bool needs_host = false;     // PMIX_GROUP_ASSIGN_CONTEXT_ID
    // The leader was lost: the participants asked for a new one that have
    // not answered yet (proc_name).
    bool leader_lost = false;
    std::set<std::string> asked_for_leader;
    runtime::Timer timer;  // PMIX_TIMEOUT, or the wait for a new leader
};

using InvitationRegistry = std::map<std::string, Invitation>;

// The PMIX_GROUP_INFO the members of a group with a context id gave, by
// context id and member (proc_name): what PMIx_Get answers for a key
// qualified by PMIX_GROUP_CONTEXT_ID. Kept after the destruct (OpenPMIx's
// group_lcl_cid example reads it then) until the server finalizes.
using GroupInfoByContext = std::map<size_t, std::map<std::string, wire::InfoArray>>;

}  // namespace pmixpp::server

#endif
