// PMIx_server_dmodex_request: the host relays another node's request for
// the data a local process posted. Answered with a modex blob (one record,
// the proc's PMIX_REMOTE and PMIX_GLOBAL data) once the proc has committed;
// until then the request waits; a proc that is gone without committing is
// answered PMIX_ERR_NOT_FOUND. The callback always runs after this call
// returned, on the progress thread, exactly once (with
// PMIX_ERR_LOST_CONNECTION when the server finalizes first).
#include <pmix_server.h>

#include "server/state/server.h"
#include "server/requests/requests.h"

#include <cstring>
#include <new>

using namespace pmixpp::server;

namespace {

void respond(Server &server, const pmix_proc_t &proc, pmix_dmodex_response_fn_t cbfunc, void *cbdata)
{
    pmixpp::wire::ProcData data;
    pmixpp::wire::Bytes blob;
    pmix_status_t rc = proc_modex(server, proc, PMIX_REMOTE, &data);
    if (rc == PMIX_SUCCESS) {
        std::vector<pmixpp::wire::ProcData> records;
        records.push_back(std::move(data));
        rc = pmixpp::wire::encode_modex(records, &blob);
    }
    if (rc != PMIX_SUCCESS) return cbfunc(rc, nullptr, 0, cbdata);
    // The library owns the data; it is released once the callback returns.
    cbfunc(PMIX_SUCCESS, reinterpret_cast<char *>(blob.data()), blob.size(), cbdata);
}

// Answers on the progress thread after PMIx_server_dmodex_request returned.
// The host is owed its callback even if the server finalizes first.
pmix_status_t respond_later(const pmix_proc_t &proc, pmix_status_t status, pmix_dmodex_response_fn_t cbfunc,
                            void *cbdata)
{
    return post_later([proc, status, cbfunc, cbdata] {
        Server *now = current();
        if (status != PMIX_SUCCESS || now == nullptr || now->finalizing) {
            return cbfunc(status != PMIX_SUCCESS ? status : PMIX_ERR_LOST_CONNECTION, nullptr, 0, cbdata);
        }
        respond(*now, proc, cbfunc, cbdata);
    });
}

pmix_status_t start(Server &server, const pmix_proc_t &proc, pmix_dmodex_response_fn_t cbfunc, void *cbdata)
{
    Namespace *ns = server.find_namespace(proc.nspace);
    if (ns == nullptr || !ns->registered) return PMIX_ERR_NOT_FOUND;
    if (!ns->is_local(proc.rank)) return PMIX_ERR_NOT_FOUND;
    if (ns->committed.count(proc.rank) != 0) return respond_later(proc, PMIX_SUCCESS, cbfunc, cbdata);
    // Gone without committing: its data will never come.
    if (ns->gone.count(proc.rank) != 0) return respond_later(proc, PMIX_ERR_NOT_FOUND, cbfunc, cbdata);
    server.waiters.add(ns->name, proc.rank, std::chrono::milliseconds{0}, [proc, cbfunc, cbdata](pmix_status_t status) {
        Server *now = current();
        if (status == PMIX_SUCCESS && now == nullptr) status = PMIX_ERR_LOST_CONNECTION;
        if (status != PMIX_SUCCESS) return cbfunc(status, nullptr, 0, cbdata);
        respond(*now, proc, cbfunc, cbdata);
    });
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t *proc, pmix_dmodex_response_fn_t cbfunc, void *cbdata)
{
    if (proc == nullptr || cbfunc == nullptr || proc->rank == PMIX_RANK_WILDCARD || proc->rank == PMIX_RANK_UNDEF ||
        strnlen(proc->nspace, PMIX_MAX_NSLEN + 1) > PMIX_MAX_NSLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    const pmix_proc_t target = *proc;
    try {
        return with_server([&](Server &server) { return start(server, target, cbfunc, cbdata); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
