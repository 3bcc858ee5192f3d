// PMIx_Fence of the host itself (self_access.h). The host is no participant
// of its clients' collectives: its fence is either trivial (only itself) or
// a collective among servers that the host's own fence_nb carries, with the
// host's committed data as the contribution.
#include "server/state/info_read.h"
#include "server/engine/self_access.h"
#include "server/engine/self_ops.h"
#include "server/requests/requests.h"

#include <chrono>
#include <memory>
#include <new>
#include <vector>

namespace pmixpp::server {

namespace {

// Shared by the host's call and the timeout: whichever comes first answers.
struct SelfFence {
    FenceDone done;
    runtime::Timer timer;
    bool answered = false;

    void answer(pmix_status_t status)
    {
        if (answered) return;
        answered = true;
        timer.cancel();
        wire::FenceReply reply;
        reply.status = status;
        done(reply);
    }
};

// What the host's fence_nb reads until it calls back (see fence.cc).
struct SelfFenceCall {
    std::shared_ptr<SelfFence> fence;
    std::vector<pmix_proc_t> procs;
    wire::InfoArray directives;
    wire::Bytes data;
};

void self_fence_done(pmix_status_t status, const char *data, size_t ndata, void *cbdata, pmix_release_cbfunc_t release,
                     void *release_cbdata)
{
    std::unique_ptr<SelfFenceCall> call(static_cast<SelfFenceCall *>(cbdata));
    wire::Bytes blob = take_host_blob(data, ndata, release, release_cbdata, &status);
    if (call == nullptr) return;
    post_to_server([fence = std::move(call->fence), status, blob = std::move(blob)](Server &server) {
        if (fence->answered) return;
        fence->answer(status == PMIX_SUCCESS ? store_remote_blob(server, blob) : status);
    });
}

pmix_status_t make_call(Server &server, const std::vector<pmix_proc_t> &procs, const wire::InfoArray &directives,
                        std::unique_ptr<SelfFenceCall> *call_p)
{
    auto call = std::make_unique<SelfFenceCall>();
    call->procs = procs;
    pmix_status_t rc = call->directives.assign_copy(directives.data(), directives.size());
    if (rc != PMIX_SUCCESS) return rc;
    if (directive_flag(directives.data(), directives.size(), PMIX_COLLECT_DATA)) {
        wire::ProcData own;
        if ((rc = proc_modex(server, server.self_proc(), PMIX_REMOTE, &own)) != PMIX_SUCCESS) return rc;
        std::vector<wire::ProcData> records;
        records.push_back(std::move(own));
        if ((rc = wire::encode_modex(records, &call->data)) != PMIX_SUCCESS) return rc;
    }
    *call_p = std::move(call);
    return PMIX_SUCCESS;
}

void arm_timeout(Server &server, const wire::InfoArray &directives, const std::shared_ptr<SelfFence> &fence)
{
    const auto seconds = directive_timeout(directives.data(), directives.size());
    if (!seconds) return;
    fence->timer =
        server.engine.add_timer(std::chrono::seconds(*seconds), [fence] { fence->answer(PMIX_ERR_TIMEOUT); });
}

void start_self_fence(Server &server, const std::vector<pmix_proc_t> &procs, const wire::InfoArray &directives,
                      const std::shared_ptr<SelfFence> &fence)
{
    if (names_only_self(server, procs.data(), procs.size())) return fence->answer(PMIX_SUCCESS);
    const auto upcall = server.host.slots().fence_nb;
    if (upcall == nullptr) return fence->answer(PMIX_ERR_NOT_SUPPORTED);
    std::unique_ptr<SelfFenceCall> call;
    pmix_status_t rc = make_call(server, procs, directives, &call);
    if (rc != PMIX_SUCCESS) return fence->answer(rc);
    call->fence = fence;
    arm_timeout(server, directives, fence);
    SelfFenceCall *raw = call.release();
    rc = upcall(raw->procs.data(), raw->procs.size(), raw->directives.data(), raw->directives.size(),
                reinterpret_cast<char *>(raw->data.data()), raw->data.size(), self_fence_done, raw);
    if (rc == PMIX_SUCCESS) return;
    delete raw;
    fence->answer(rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

}  // namespace

pmix_status_t server_fence_nb(const pmix_proc_t procs[], std::size_t nprocs, const pmix_info_t info[],
                              std::size_t ninfo, FenceDone done)
{
    if ((procs == nullptr && nprocs > 0) || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        auto participants = std::make_shared<std::vector<pmix_proc_t>>();
        if (nprocs > 0) participants->assign(procs, procs + nprocs);
        auto directives = std::make_shared<wire::InfoArray>();
        const pmix_status_t rc = directives->assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) return rc;
        auto shared_done = std::make_shared<FenceDone>(std::move(done));
        return post_self(
            [participants, directives, shared_done](Server &server) {
                auto fence = std::make_shared<SelfFence>();
                fence->done = track_self_op<wire::FenceReply>(server, std::move(*shared_done));
                start_self_fence(server, *participants, *directives, fence);
            },
            [shared_done](pmix_status_t status) {
                wire::FenceReply reply;
                reply.status = status;
                if (*shared_done) (*shared_done)(reply);
            });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
