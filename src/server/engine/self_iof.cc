// The host's own forwarded I/O (self_access.h): its stdin pushes to its
// push_stdin, its pulls registered like a tool's, their chunks to the
// client library's sink.
#include "server/engine/self_access.h"

#include "server/engine/self_ops.h"
#include "server/iof/iof_registry.h"
#include "server/requests/requests.h"
#include "server/state/server.h"

#include <memory>
#include <new>

namespace pmixpp::server {

pmix_status_t server_iof_push_nb(const pmix_proc_t targets[], std::size_t ntargets, const pmix_info_t directives[],
                                 std::size_t ndirs, const uint8_t *data, std::size_t size, bool eof, PushDone done)
{
    if ((targets == nullptr && ntargets > 0) || (directives == nullptr && ndirs > 0) || (data == nullptr && size > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        auto request = std::make_shared<wire::IofPushRequest>();
        request->targets.assign(targets, targets + ntargets);
        pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        if (size > 0) request->data.assign(data, data + size);
        request->eof = eof;
        return run_on_server<wire::StatusReply>(std::move(done), [request](Server &server, PushDone tracked) {
            start_iof_push(server, server.self_proc(), std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_iof_pull_nb(const pmix_proc_t procs[], std::size_t nprocs, const pmix_info_t directives[],
                                 std::size_t ndirs, uint16_t channels, PullDone done)
{
    if (procs == nullptr || nprocs == 0 || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::IofPullRequest>();
        request->procs.assign(procs, procs + nprocs);
        request->channels = channels;
        const pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::IofPullReply>(std::move(done), [request](Server &server, PullDone tracked) {
            start_iof_pull(server, iof::kHostOwner, std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_iof_deregister_nb(uint64_t id, const pmix_info_t directives[], std::size_t ndirs, PushDone done)
{
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::IofDeregisterRequest>();
        request->id = id;
        const pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::StatusReply>(std::move(done), [request](Server &server, PushDone tracked) {
            wire::StatusReply reply;
            reply.status = stop_iof_pull(server, iof::kHostOwner, *request);
            tracked(reply);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_set_iof_sink(IofSink sink)
{
    auto shared = std::make_shared<IofSink>(std::move(sink));
    return with_server([shared](Server &server) {
        server.part<iof::IofRegistry>().set_host_sink(*shared);
        return PMIX_SUCCESS;
    });
}

}  // namespace pmixpp::server
