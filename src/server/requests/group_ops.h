// What group_invites.cc shares with groups.cc: the group events and the
// forming of a group once its members are known. Progress thread only.
#ifndef PMIXPP_SERVER_REQUESTS_GROUP_OPS_H
#define PMIXPP_SERVER_REQUESTS_GROUP_OPS_H

#include "server/state/server.h"
#include "server/requests/group_tracker.h"

#include <string>
#include <vector>

namespace pmixpp::server {

// The event `code` about `about` (its source and PMIX_EVENT_AFFECTED_PROC)
// to the procs in `told` (a custom range), with PMIX_GROUP_ID = group.
void tell_members(Server &server, pmix_status_t code, const std::string &group, const pmix_proc_t &about,
                  std::vector<pmix_proc_t> told);

// groups.cc: ends construct or destruct `id` with `status` (the host's
// answer in from_host) for every member waiting in it.
void complete_group(Server &server, uint64_t id, pmix_status_t status, const wire::InfoArray &from_host = {});
// groups.cc: completes it, or hands it to the host, once nobody is missing
// or being asked about a loss.
void proceed_if_complete(Server &server, GroupCollective &collective);

// group_failures.cc: whether proc has a connection that takes `code` (a
// handler for it, or one for every code): who will answer a group event.
bool listens_for(Server &server, const pmix_proc_t &proc, pmix_status_t code);

// group_failures.cc: a member of an open construct or destruct is lost
// (its connection ended), inside its call or before it (had_arrived).
void member_lost(Server &server, GroupCollective &collective, const pmix_proc_t &lost, bool had_arrived);
// group_failures.cc: what a member's handlers answered about a loss
// (PMIX_GROUP_MEMBER_FAILED / _LEADER_FAILED) of an open construct named
// request.group; false when no construct asked the caller.
bool answer_about_loss(Server &server, const Peer &peer, uint32_t tag, const wire::GroupJoinRequest &request);

// group_endpoints.cc: a construct with members elsewhere hands the host
// its local members' data (PMIX_GROUP_ENDPT_DATA appended to *directives_p)
// and stores what the host brings back from the other nodes.
pmix_status_t add_endpoint_data(Server &server, const GroupCollective &collective, wire::InfoArray *directives_p);
void store_endpoint_data(Server &server, const std::string &group, const wire::InfoArray &from_host);

// Forms `group` of `members` as a construct would (the host's group upcall
// when needs_host), answering each of `waiting` with the construct's
// results; every member then hears PMIX_GROUP_CONSTRUCT_COMPLETE (or
// PMIX_GROUP_CONSTRUCT_ABORT) from `leader`.
void form_announced_group(Server &server, const std::string &group, const pmix_proc_t &leader,
                          std::vector<pmix_proc_t> members, std::vector<Arrival> waiting, wire::InfoArray directives,
                          bool needs_host);

}  // namespace pmixpp::server

#endif
