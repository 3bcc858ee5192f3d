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
#include <string>
#include <vector>

namespace pmixpp::server {

struct GroupCollective : LocalCollective {
    std::string group;
    bool destruct = false;
    bool needs_host = false;  // a member elsewhere, or a context id asked
    bool optional = false;    // PMIX_GROUP_OPTIONAL: a member that is gone is left out
    // Each local member's PMIX_GROUP_INFO (proc_name -> its infos).
    std::map<std::string, wire::InfoArray> member_info;
};

using GroupTracker = CollectiveTracker<GroupCollective>;

// A constructed group: answered to PMIx_Query_info and fences over its name,
// removed by its destruct.
struct Group {
    std::vector<pmix_proc_t> members;    // normalised
    std::optional<size_t> context_id;    // PMIX_GROUP_CONTEXT_ID the host assigned
    bool host_knows = false;             // constructed through the host: destructed through it too
};

using GroupRegistry = std::map<std::string, Group>;

// The PMIX_GROUP_INFO the members of a group with a context id gave, by
// context id and member (proc_name): what PMIx_Get answers for a key
// qualified by PMIX_GROUP_CONTEXT_ID. Kept after the destruct (OpenPMIx's
// group_lcl_cid example reads it then) until the server finalizes.
using GroupInfoByContext = std::map<size_t, std::map<std::string, wire::InfoArray>>;

}  // namespace pmixpp::server

#endif
