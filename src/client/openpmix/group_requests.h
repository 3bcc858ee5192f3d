// Groups on a link to an OpenPMIx server: our construct, destruct and
// leave as its commands 24, 28 and 27, and its answers as our replies.
// OpenPMIx's answer to a construct carries the status and a context id
// (SIZE_MAX: none assigned) but not the members, so the link keeps the
// members the request named and hands them back as
// PMIX_GROUP_MEMBERSHIP, as our server does. Invite and join have no
// command in OpenPMIx 4.2 (its clients build them from events):
// invite_and_join.h. A 4.2 server answers a leave
// PMIX_ERR_NOT_SUPPORTED: it cannot take a member out of a group (a later
// fence over the group would wait for it), and the caller hears so.
// Pure data; any thread.
#ifndef PMIXPP_CLIENT_OPENPMIX_GROUP_REQUESTS_H
#define PMIXPP_CLIENT_OPENPMIX_GROUP_REQUESTS_H

#include <pmix_common.h>

#include <cstddef>
#include <span>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

bool is_group_command(wire::Command command);

// Our request payload of `command` as OpenPMIx's command, into `writer`;
// *members_p gets a construct's members.
pmix_status_t pack_group_request(wire::Command command, std::span<const uint8_t> ours, openpmix::Writer &writer,
                                 std::vector<pmix_proc_t> *members_p);

// OpenPMIx's answer after its status (read already) as our reply.
pmix_status_t group_reply(wire::Command command, pmix_status_t status, openpmix::Reader &reader,
                          const std::vector<pmix_proc_t> &members, wire::Bytes *ours_p);

// Our reply to a group formed: the status, then on success the context id
// (none when SIZE_MAX) and the members as PMIX_GROUP_MEMBERSHIP.
pmix_status_t membership_reply(pmix_status_t status, std::size_t context_id, const std::vector<pmix_proc_t> &members,
                               wire::Bytes *ours_p);

}  // namespace pmixpp::client

#endif
