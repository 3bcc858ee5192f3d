// PMIx_Allocation_request(_nb) and PMIx_Session_control: relayed to the
// host (its allocate upcall, and pmixpp's session-control extension), which
// acts as or talks to the scheduler. The host's answer (PMIX_SESSION_ID,
// PMIX_ALLOC_ID, ...) comes back as info. The host's own allocation
// request goes to its allocate upcall directly (host mode).
#include <pmix.h>

#include <cstdlib>
#include <new>

#include "client/core/host_call.h"
#include "client/core/host_mode.h"
#include "client/core/requests.h"

using namespace pmixpp;

namespace {

using client::InfoDone;

template <typename Request> pmix_status_t start(Request &request, const pmix_info_t info[], size_t ninfo, InfoDone done)
{
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = client::connected_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_for_reply<wire::InfoReply>(
        session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin), std::move(done));
}

pmix_status_t start_allocation(pmix_alloc_directive_t directive, const pmix_info_t info[], size_t ninfo, InfoDone done)
{
    if ((info == nullptr && ninfo > 0) || directive == 0 || directive > PMIX_ALLOC_RELEASE + 1) {
        return PMIX_ERR_BAD_PARAM;
    }
    // The host asking: its own allocate upcall decides.
    if (!client::current_session() && client::host_mode()) {
        return client::host_allocate_nb(directive, info, ninfo, std::move(done));
    }
    wire::AllocateRequest request;
    request.directive = directive;
    const pmix_status_t rc = request.info.assign_copy(info, ninfo);
    return rc != PMIX_SUCCESS ? rc : start(request, info, ninfo, std::move(done));
}

pmix_status_t start_session_control(uint32_t session_id, const pmix_info_t directives[], size_t ndirs, InfoDone done)
{
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    wire::SessionControlRequest request;
    request.session_id = session_id;
    const pmix_status_t rc = request.directives.assign_copy(directives, ndirs);
    return rc != PMIX_SUCCESS ? rc : start(request, directives, ndirs, std::move(done));
}

// Hands the reply's info to the caller (a calloc'ed array, freed with PMIX_INFO_FREE).
void hand_results(const std::shared_ptr<wire::InfoReply> &reply, pmix_info_t **results_p, size_t *nresults_p)
{
    if (results_p == nullptr || nresults_p == nullptr) return;
    *results_p = nullptr;
    *nresults_p = 0;
    if (reply) *results_p = reply->info.release(nresults_p);
}

}  // namespace

pmix_status_t PMIx_Allocation_request(pmix_alloc_directive_t directive, pmix_info_t *info, size_t ninfo,
                                      pmix_info_t **results, size_t *nresults)
{
    try {
        std::shared_ptr<wire::InfoReply> reply;
        const pmix_status_t rc = client::wait_for_reply<wire::InfoReply>(
            [&](InfoDone done) { return start_allocation(directive, info, ninfo, std::move(done)); }, &reply);
        hand_results(reply, results, nresults);
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Allocation_request_nb(pmix_alloc_directive_t directive, pmix_info_t *info, size_t ninfo,
                                         pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    try {
        return start_allocation(directive, info, ninfo, client::info_callback(cbfunc, cbdata));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Session_control(uint32_t session_id, const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    try {
        if (cbfunc != nullptr) {
            return start_session_control(session_id, directives, ndirs, client::info_callback(cbfunc, cbdata));
        }
        std::shared_ptr<wire::InfoReply> reply;
        return client::wait_for_reply<wire::InfoReply>(
            [&](InfoDone done) { return start_session_control(session_id, directives, ndirs, std::move(done)); },
            &reply);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
