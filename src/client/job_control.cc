// Job control directives (kill, signal, ..., and RFC0027's registered
// cleanup of files and directories). The client only carries the request:
// its server keeps cleanup registrations itself and hands the other
// directives to its host. A refused registration's reason (e.g. which path
// is not absolute) is printed once, since the callback carries no info.
#include <pmix.h>

#include <chrono>
#include <functional>
#include <memory>
#include <new>

#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"
#include "common/runtime/log.h"
#include "common/runtime/progress_engine.h"

using namespace pmixpp;

namespace {

using JobControlDone = std::function<void(pmix_status_t status)>;

pmix_status_t check_args(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[], size_t ndirs)
{
    if (targets == nullptr && ntargets > 0) return PMIX_ERR_BAD_PARAM;
    if (directives == nullptr || ndirs == 0) return PMIX_ERR_BAD_PARAM;  // nothing to do
    return PMIX_SUCCESS;
}

// No client session: PMIX_ERR_INIT, unless the process runs the server
// itself; then its own job_control upcall gets the request (as OpenPMIx
// hands it), a cleanup registration included: the host keeps its files.
pmix_status_t without_session(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[],
                              size_t ndirs, JobControlDone done)
{
    if (!client::host_mode()) return PMIX_ERR_INIT;
    const pmix_status_t rc = check_args(targets, ntargets, directives, ndirs);
    return rc != PMIX_SUCCESS ? rc : client::host_job_control_nb(targets, ntargets, directives, ndirs, std::move(done));
}

pmix_status_t start_job_control(const std::shared_ptr<client::Session> &session, const pmix_proc_t targets[],
                                size_t ntargets, const pmix_info_t directives[], size_t ndirs, JobControlDone done)
{
    if (session->singleton) return PMIX_ERR_UNREACH;  // no server to act on it
    wire::JobControlRequest request;
    if (targets != nullptr) request.targets.assign(targets, targets + ntargets);
    const pmix_status_t rc = request.directives.assign_copy(directives, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_message(
        session, request, std::chrono::milliseconds{0}, [done](pmix_status_t st, const wire::Frame *frame) {
            wire::JobControlReply reply;
            const pmix_status_t status = client::read_reply(st, frame, &reply);
            if (status != PMIX_SUCCESS && !reply.reason.empty()) {
                runtime::log_warning("job_control", "PMIx_Job_control refused: " + reply.reason);
            }
            done(status);
        });
}

}  // namespace

pmix_status_t PMIx_Job_control(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[],
                               size_t ndirs, pmix_info_t **results, size_t *nresults)
{
    if (results != nullptr) *results = nullptr;
    if (nresults != nullptr) *nresults = 0;
    auto session = client::current_session();
    if (!session && !client::host_mode()) return PMIX_ERR_INIT;
    pmix_status_t rc = check_args(targets, ntargets, directives, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    const bool blocked = session ? client::check_may_block(*session) != PMIX_SUCCESS
                                 : runtime::ProgressEngine::process().on_progress_thread();
    if (blocked) return PMIX_ERR_WOULD_BLOCK;
    try {
        auto latch = std::make_shared<runtime::Latch<>>();
        auto done = [latch](pmix_status_t st) { latch->complete(st); };
        rc = session ? start_job_control(session, targets, ntargets, directives, ndirs, done)
                     : without_session(targets, ntargets, directives, ndirs, done);
        return rc != PMIX_SUCCESS ? rc : latch->wait();
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Job_control_nb(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[],
                                  size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    auto session = client::current_session();
    try {
        auto done = [cbfunc, cbdata](pmix_status_t st) {
            if (cbfunc != nullptr) cbfunc(st, nullptr, 0, cbdata, nullptr, nullptr);
        };
        if (!session) return without_session(targets, ntargets, directives, ndirs, done);
        const pmix_status_t rc = check_args(targets, ntargets, directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return start_job_control(session, targets, ntargets, directives, ndirs, done);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
