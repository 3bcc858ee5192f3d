// The host's own calls that its upcalls carry out (self_access.h):
// PMIx_Spawn, PMIx_Allocation_request, PMIx_Job_control and what PMIx_Log
// cannot serve itself, each with the server proc as requester, as a
// client's request would reach them.
#include "server/engine/self_access.h"

#include "server/engine/self_ops.h"
#include "server/requests/requests.h"
#include "server/state/server.h"

#include <memory>
#include <new>

namespace pmixpp::server {

pmix_status_t server_spawn_nb(const pmix_info_t job_info[], std::size_t ninfo, const pmix_app_t apps[],
                              std::size_t napps, SpawnDone done)
{
    if ((job_info == nullptr && ninfo > 0) || apps == nullptr || napps == 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::SpawnRequest>();
        pmix_status_t rc = request->job_info.assign_copy(job_info, ninfo);
        if (rc == PMIX_SUCCESS) rc = request->apps.assign_copy(apps, napps);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::SpawnReply>(std::move(done), [request](Server &server, SpawnDone tracked) {
            start_spawn(server, server.self_proc(), std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_allocate_nb(pmix_alloc_directive_t directive, const pmix_info_t info[], std::size_t ninfo,
                                 AllocateDone done)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::AllocateRequest>();
        request->directive = directive;
        const pmix_status_t rc = request->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::InfoReply>(std::move(done), [request](Server &server, AllocateDone tracked) {
            start_allocate(server, server.self_proc(), std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_job_control_nb(const pmix_proc_t targets[], std::size_t ntargets, const pmix_info_t directives[],
                                    std::size_t ndirs, SelfJobControlDone done)
{
    if ((targets == nullptr && ntargets > 0) || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::JobControlRequest>();
        if (ntargets > 0) request->targets.assign(targets, targets + ntargets);
        const pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::StatusReply>(std::move(done), [request](Server &server, SelfJobControlDone tracked) {
            start_job_control(server, server.self_proc(), std::move(*request), [tracked](pmix_status_t status) {
                wire::StatusReply reply;
                reply.status = status;
                tracked(reply);
            });
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_log_nb(wire::InfoArray data, const pmix_info_t directives[], std::size_t ndirs, PushDone done)
{
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::LogRequest>();
        request->data = std::move(data);
        const pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::StatusReply>(std::move(done), [request](Server &server, PushDone tracked) {
            start_log(server, server.self_proc(), std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
