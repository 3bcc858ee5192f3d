// Invite and join on a link to an OpenPMIx server. OpenPMIx 4.2 has no
// command for them: its clients build an invitation from events, and so
// does the link, in the same messages, so that a job may mix its clients
// and ours:
//
//   leader   hears the invitees' answers (registers, once per link, for
//            PMIX_GROUP_INVITE_ACCEPTED and _DECLINED), tells the invitees
//            PMIX_GROUP_INVITED (range custom: the invitees; PMIX_GROUP_ID),
//            waits until each answered, then tells the members
//            PMIX_GROUP_CONSTRUCT_COMPLETE: that notice is also what makes
//            OpenPMIx's server know the group (a fence over it, a destruct).
//   joiner   tells the leader (range custom) or everyone in the session
//            (no leader named) PMIX_GROUP_INVITE_ACCEPTED or _DECLINED.
//
// Each step of a leader's invitation is a message on the invite's own tag;
// the dialect sends the next when the server answered the last. An
// invitee that declines is left out, as our server does; one that never
// answers holds the invitation until its timeout. Pure data; any thread.
#ifndef PMIXPP_CLIENT_OPENPMIX_INVITE_AND_JOIN_H
#define PMIXPP_CLIENT_OPENPMIX_INVITE_AND_JOIN_H

#include <pmix_common.h>

#include <span>
#include <string>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

struct Invitation {
    enum class Step {
        registering,  // for the answers, the first invitation on the link
        inviting,     // PMIX_GROUP_INVITED sent
        completing,   // PMIX_GROUP_CONSTRUCT_COMPLETE sent
    };
    Step step = Step::inviting;
    bool told = false;  // the server passed PMIX_GROUP_INVITED on
    std::string group;
    std::vector<pmix_proc_t> unanswered;  // invitees yet to answer
    std::vector<pmix_proc_t> members;     // the leader, then each who accepted
};

// [cmd NOTIFY][status][range][ninfo][infos]: OpenPMIx names no source, the
// server knows the sender.
pmix_status_t pack_notice(openpmix::Writer &writer, pmix_status_t code, pmix_data_range_t range,
                          const wire::InfoArray &info);

// Our GroupInviteRequest led by `self`, and its first message: the
// registration for the answers unless `registered`, else the invitation.
pmix_status_t start_invitation(std::span<const uint8_t> ours, const pmix_proc_t &self, bool registered,
                               openpmix::Writer &writer, Invitation *invitation_p);

// The server answered the invitation's last message with `status`: either
// *next_p is its next message, or *done_p is set and *ours_p our reply.
pmix_status_t advance_invitation(Invitation &invitation, pmix_status_t status, openpmix::Encoding encoding,
                                 std::vector<uint8_t> *next_p, bool *done_p, wire::Bytes *ours_p);

// An event that answers one of `invitation`'s invitees: recorded, true.
bool take_answer(const wire::Event &event, Invitation &invitation);
// Every invitee answered and PMIX_GROUP_INVITED is through: the closing
// notice goes next.
bool ready_to_complete(const Invitation &invitation);
pmix_status_t pack_completion(Invitation &invitation, openpmix::Writer &writer);

// Our GroupJoinRequest as OpenPMIx's joiner sends it; an answer OpenPMIx's
// clients cannot give (a claim of the lead, an abort) is
// PMIX_ERR_NOT_SUPPORTED.
pmix_status_t pack_join(std::span<const uint8_t> ours, openpmix::Writer &writer);

}  // namespace pmixpp::client

#endif
