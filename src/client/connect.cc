// PMIx_Connect / PMIx_Disconnect (and _nb): the server gathers the local
// participants of the proc set and hands the collective to its host's
// connect / disconnect upcall (server/requests/connect.cc); every
// participant gets the host's status. Afterwards the job data of a
// connected namespace is reachable through PMIx_Get (the server answers for
// every namespace registered with it).
//
// A process that runs the server itself (host mode) is no participant of
// its clients' collectives: its own set completes at once, any other goes
// to its own connect / disconnect upcall (server/engine/self_connect.cc).
#include <pmix.h>

#include <memory>
#include <new>
#include <type_traits>

#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"

using namespace pmixpp;

namespace {

template <typename Request>
pmix_status_t start(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                    client::StatusDone done)
{
    std::shared_ptr<client::Session> session = client::current_session();
    const bool host_asking = !session && client::host_mode();
    if (!session && !host_asking) return PMIX_ERR_INIT;
    if (procs == nullptr || nprocs == 0 || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    if (host_asking) {
        constexpr bool disconnect = std::is_same_v<Request, wire::DisconnectRequest>;
        return client::host_connect_nb(disconnect, procs, nprocs, info, ninfo, std::move(done));
    }
    Request request;
    request.procs.assign(procs, procs + nprocs);
    const pmix_status_t rc = request.info.assign_copy(info, ninfo);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_status_request(session, request, client::timeout_of(info, ninfo, client::kServerTimeoutMargin),
                                       std::move(done));
}

template <typename Request>
pmix_status_t blocking(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo)
{
    try {
        return client::wait_for_status(
            [&](client::StatusDone done) { return start<Request>(procs, nprocs, info, ninfo, std::move(done)); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

template <typename Request>
pmix_status_t nonblocking(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    try {
        return start<Request>(procs, nprocs, info, ninfo, [cbfunc, cbdata](pmix_status_t st) {
            if (cbfunc != nullptr) cbfunc(st, cbdata);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace

pmix_status_t PMIx_Connect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo)
{
    return blocking<wire::ConnectRequest>(procs, nprocs, info, ninfo);
}

pmix_status_t PMIx_Connect_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return nonblocking<wire::ConnectRequest>(procs, nprocs, info, ninfo, cbfunc, cbdata);
}

pmix_status_t PMIx_Disconnect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo)
{
    return blocking<wire::DisconnectRequest>(procs, nprocs, info, ninfo);
}

pmix_status_t PMIx_Disconnect_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return nonblocking<wire::DisconnectRequest>(procs, nprocs, info, ninfo, cbfunc, cbdata);
}
