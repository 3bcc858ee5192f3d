// What a process's event handlers answered to a group event, passed on to
// the server that runs the invitation or construct
// (server/requests/group_invites.cc, group_failures.cc): the standard lets
// the handlers of PMIX_GROUP_LEADER_FAILED name a new leader
// (PMIX_GROUP_LEADER in their results), and any group handler stop the
// construct by returning PMIX_GROUP_CONSTRUCT_ABORT. Every
// PMIX_GROUP_MEMBER_FAILED and _LEADER_FAILED is answered (the server may
// be waiting for it); the server ignores an answer nobody waits for.
// Progress thread.
#include <pmix.h>

#include "client/core/events.h"
#include "client/core/requests.h"
#include "client/core/session.h"

namespace pmixpp::client {

namespace {

const char *group_of(const wire::Event &event)
{
    for (const pmix_info_t &info : event.info) {
        if (PMIX_CHECK_KEY(&info, PMIX_GROUP_ID) && info.value.type == PMIX_STRING) return info.value.data.string;
    }
    return nullptr;
}

bool claims_lead(const wire::InfoArray &results)
{
    for (const pmix_info_t &info : results) {
        if (PMIX_CHECK_KEY(&info, PMIX_GROUP_LEADER) && PMIX_INFO_TRUE(&info)) return true;
    }
    return false;
}

// Events of an invitation whose handlers may abort it.
bool may_abort(pmix_status_t code)
{
    return code == PMIX_GROUP_INVITE_ACCEPTED || code == PMIX_GROUP_INVITE_DECLINED ||
           code == PMIX_GROUP_INVITE_FAILED || code == PMIX_GROUP_MEMBER_FAILED || code == PMIX_GROUP_LEADER_FAILED;
}

}  // namespace

void answer_group_event(const wire::Event &event, pmix_status_t handlers_status, const wire::InfoArray &results)
{
    const bool aborts = handlers_status == PMIX_GROUP_CONSTRUCT_ABORT && may_abort(event.status);
    // A construct or invitation waits for every answer about a loss.
    const bool asked = event.status == PMIX_GROUP_LEADER_FAILED || event.status == PMIX_GROUP_MEMBER_FAILED;
    if (!aborts && !asked) return;
    const char *group = group_of(event);
    std::shared_ptr<Session> session = current_session();
    if (group == nullptr || !session) return;  // not an invitation's, or the host's own handlers
    wire::GroupJoinRequest request;
    request.group = group;
    request.leader = event.source;
    if (aborts) {
        request.answer = wire::GroupAnswer::abort;
    } else {
        request.answer = claims_lead(results) ? wire::GroupAnswer::claim_leader : wire::GroupAnswer::no_claim;
    }
    // The server's answer says only whether this one counted: nothing to do.
    (void)send_message(session, request, std::chrono::milliseconds(0), [](pmix_status_t, const wire::Frame *) {});
}

}  // namespace pmixpp::client
