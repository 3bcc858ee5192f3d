// Process groups. Construct and destruct are collectives over the members
// that the server drives (server/requests/groups.cc), with the host's group
// upcall when a member lives elsewhere or a context id is asked for; leave
// takes the caller out of a group at once. Invite and join build a group by
// invitation, also run by the server (server/requests/group_invites.cc):
// invite answers once every invitee answered and the group formed, an
// accepting join once the group formed (or the invitation aborted), a
// declining join at once. The blocking calls leave their results empty
// (NULL, 0) before they can fail, as OpenPMIx does: callers such as
// python3-pmix read nresults even when the call failed.
#include <pmix.h>

#include <cstring>
#include <functional>
#include <new>
#include <type_traits>

#include "client/core/host_call.h"
#include "client/core/requests.h"
#include "client/no_results.h"

using namespace pmixpp;

namespace {

using client::InfoDone;

bool valid_name(const char grp[])
{
    return grp != nullptr && grp[0] != '\0' && strnlen(grp, PMIX_MAX_NSLEN + 1) <= PMIX_MAX_NSLEN;
}

// Construct and invite: a group's name, its members and directives.
template <typename Request>
pmix_status_t start_with_members(const char grp[], const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                 size_t ninfo, InfoDone done)
{
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = client::connected_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (!valid_name(grp) || procs == nullptr || nprocs == 0 || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    Request request;
    request.group = grp;
    request.procs.assign(procs, procs + nprocs);
    rc = request.info.assign_copy(info, ninfo);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_for_reply<wire::InfoReply>(
        session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin), std::move(done));
}

// The caller's pmix_group_opt_t as the number it holds: a value outside the
// enum is the caller's mistake to refuse, and reading it as the enum would
// already be undefined.
using RawOption = std::underlying_type_t<pmix_group_opt_t>;
RawOption raw_option(const pmix_group_opt_t *opt)
{
    RawOption raw = 0;
    std::memcpy(&raw, opt, sizeof raw);
    return raw;
}

pmix_status_t start_join(const char grp[], const pmix_proc_t *leader, RawOption opt, const pmix_info_t info[],
                         size_t ninfo, InfoDone done)
{
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = client::connected_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (!valid_name(grp) || (opt != PMIX_GROUP_ACCEPT && opt != PMIX_GROUP_DECLINE) || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    wire::GroupJoinRequest request;
    request.group = grp;
    if (leader != nullptr) {
        request.leader = *leader;
    } else {
        request.leader.rank = PMIX_RANK_UNDEF;
    }
    request.answer = opt == PMIX_GROUP_ACCEPT ? wire::GroupAnswer::accept : wire::GroupAnswer::decline;
    rc = request.info.assign_copy(info, ninfo);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_for_reply<wire::InfoReply>(
        session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin), std::move(done));
}

// The blocking form of an InfoReply call: its info becomes *results.
pmix_status_t wait_with_results(const std::function<pmix_status_t(InfoDone)> &start, pmix_info_t **results,
                                size_t *nresults)
{
    client::no_results(results, nresults);
    try {
        std::shared_ptr<wire::InfoReply> reply;
        const pmix_status_t rc = client::wait_for_reply<wire::InfoReply>(start, &reply);
        if (reply && results != nullptr && nresults != nullptr) *results = reply->info.release(nresults);
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t with_callback(const std::function<pmix_status_t(InfoDone)> &start, pmix_info_cbfunc_t cbfunc,
                            void *cbdata)
{
    try {
        return start(client::info_callback(cbfunc, cbdata));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// Destruct and leave: the group's name and directives, answered by a status.
template <typename Request>
pmix_status_t start_named(const char grp[], const pmix_info_t info[], size_t ninfo, client::StatusDone done)
{
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = client::connected_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (!valid_name(grp) || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    Request request;
    request.group = grp;
    rc = request.info.assign_copy(info, ninfo);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_status_request(session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin),
                                       std::move(done));
}

}  // namespace

pmix_status_t PMIx_Group_construct(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t directives[], size_t ndirs, pmix_info_t **results,
                                   size_t *nresults)
{
    return wait_with_results(
        [&](InfoDone done) {
            return start_with_members<wire::GroupConstructRequest>(grp, procs, nprocs, directives, ndirs,
                                                                   std::move(done));
        },
        results, nresults);
}

pmix_status_t PMIx_Group_construct_nb(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                      const pmix_info_t info[], size_t ninfo, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    return with_callback(
        [&](InfoDone done) {
            return start_with_members<wire::GroupConstructRequest>(grp, procs, nprocs, info, ninfo, std::move(done));
        },
        cbfunc, cbdata);
}

template <typename Request> pmix_status_t blocking_named(const char grp[], const pmix_info_t info[], size_t ninfo)
{
    try {
        return client::wait_for_status(
            [&](client::StatusDone done) { return start_named<Request>(grp, info, ninfo, std::move(done)); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

template <typename Request>
pmix_status_t nonblocking_named(const char grp[], const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                void *cbdata)
{
    try {
        return start_named<Request>(grp, info, ninfo, [cbfunc, cbdata](pmix_status_t st) {
            if (cbfunc != nullptr) cbfunc(st, cbdata);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Group_destruct(const char grp[], const pmix_info_t info[], size_t ninfo)
{
    return blocking_named<wire::GroupDestructRequest>(grp, info, ninfo);
}

pmix_status_t PMIx_Group_destruct_nb(const char grp[], const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                     void *cbdata)
{
    return nonblocking_named<wire::GroupDestructRequest>(grp, info, ninfo, cbfunc, cbdata);
}

pmix_status_t PMIx_Group_leave(const char grp[], const pmix_info_t info[], size_t ninfo)
{
    return blocking_named<wire::GroupLeaveRequest>(grp, info, ninfo);
}

pmix_status_t PMIx_Group_leave_nb(const char grp[], const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                  void *cbdata)
{
    return nonblocking_named<wire::GroupLeaveRequest>(grp, info, ninfo, cbfunc, cbdata);
}

pmix_status_t PMIx_Group_invite(const char grp[], const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                size_t ninfo, pmix_info_t **results, size_t *nresults)
{
    return wait_with_results(
        [&](InfoDone done) {
            return start_with_members<wire::GroupInviteRequest>(grp, procs, nprocs, info, ninfo, std::move(done));
        },
        results, nresults);
}

pmix_status_t PMIx_Group_invite_nb(const char grp[], const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                   size_t ninfo, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    return with_callback(
        [&](InfoDone done) {
            return start_with_members<wire::GroupInviteRequest>(grp, procs, nprocs, info, ninfo, std::move(done));
        },
        cbfunc, cbdata);
}

pmix_status_t PMIx_Group_join(const char grp[], const pmix_proc_t *leader, pmix_group_opt_t opt,
                              const pmix_info_t info[], size_t ninfo, pmix_info_t **results, size_t *nresults)
{
    const RawOption raw = raw_option(&opt);
    return wait_with_results([&](InfoDone done) { return start_join(grp, leader, raw, info, ninfo, std::move(done)); },
                             results, nresults);
}

pmix_status_t PMIx_Group_join_nb(const char grp[], const pmix_proc_t *leader, pmix_group_opt_t opt,
                                 const pmix_info_t info[], size_t ninfo, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    const RawOption raw = raw_option(&opt);
    return with_callback([&](InfoDone done) { return start_join(grp, leader, raw, info, ninfo, std::move(done)); },
                         cbfunc, cbdata);
}
