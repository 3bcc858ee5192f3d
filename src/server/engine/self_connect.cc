// The host's own PMIx_Connect and PMIx_Disconnect (self_access.h): what
// crosses servers is the host's business, so a set that names anyone but
// the host goes to the host's upcall as it is; the host's clients in that
// set make their own calls, which the server gathers as usual.
#include "server/engine/self_access.h"

#include "server/engine/self_ops.h"
#include "server/host/host_module.h"
#include "server/requests/requests.h"
#include "server/state/server.h"

#include <memory>
#include <new>
#include <vector>

namespace pmixpp::server {

namespace {

// What the upcall reads until it calls back, which may be after the server
// finalized and failed the op.
struct SelfConnectCall {
    std::vector<pmix_proc_t> procs;
    wire::InfoArray info;
};

void answer_connect(const PushDone &done, pmix_status_t status)
{
    wire::StatusReply reply;
    reply.status = status;
    done(reply);
}

void start_self_connect(Server &server, bool disconnect, std::shared_ptr<SelfConnectCall> call, PushDone done)
{
    if (names_only_self(server, call->procs.data(), call->procs.size())) return answer_connect(done, PMIX_SUCCESS);
    const auto &slots = server.host.slots();
    const auto upcall = disconnect ? slots.disconnect : slots.connect;
    if (upcall == nullptr) return answer_connect(done, PMIX_ERR_NOT_SUPPORTED);
    host::start_op(
        [upcall, call](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            return upcall(call->procs.data(), call->procs.size(), call->info.data(), call->info.size(), cbfunc, cbdata);
        },
        [done, call](pmix_status_t status) { answer_connect(done, status); });
}

}  // namespace

pmix_status_t server_connect_nb(bool disconnect, const pmix_proc_t procs[], std::size_t nprocs,
                                const pmix_info_t info[], std::size_t ninfo, PushDone done)
{
    if (procs == nullptr || nprocs == 0 || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        auto call = std::make_shared<SelfConnectCall>();
        call->procs.assign(procs, procs + nprocs);
        const pmix_status_t rc = call->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::StatusReply>(std::move(done), [disconnect, call](Server &server, PushDone tracked) {
            start_self_connect(server, disconnect, call, std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
