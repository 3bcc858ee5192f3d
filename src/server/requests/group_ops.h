// What group_invites.cc shares with groups.cc: the group events and the
// forming of a group once its members are known. Progress thread only.
#ifndef PMIXPP_SERVER_REQUESTS_GROUP_OPS_H
#define PMIXPP_SERVER_REQUESTS_GROUP_OPS_H

#include "server/core/server.h"
#include "server/requests/group_tracker.h"

#include <string>
#include <vector>

namespace pmixpp::server {

// The event `code` about `about` (its source and PMIX_EVENT_AFFECTED_PROC)
// to the procs in `told` (a custom range), with PMIX_GROUP_ID = group.
void tell_members(Server &server, pmix_status_t code, const std::string &group, const pmix_proc_t &about,
                  std::vector<pmix_proc_t> told);

// Forms `group` of `members` as a construct would (the host's group upcall
// when needs_host), answering each of `waiting` with the construct's
// results; every member then hears PMIX_GROUP_CONSTRUCT_COMPLETE (or
// PMIX_GROUP_CONSTRUCT_ABORT) from `leader`.
void form_announced_group(Server &server, const std::string &group, const pmix_proc_t &leader,
                          std::vector<pmix_proc_t> members, std::vector<Arrival> waiting,
                          wire::InfoArray directives, bool needs_host);

}  // namespace pmixpp::server

#endif
