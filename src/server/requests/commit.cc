// PMIx_Commit: the client's put data, stored by scope; whoever waits for
// that process's data (a Get, a dmodex request) is woken.
#include "server/state/peer_io.h"
#include "server/requests/requests.h"

#include "common/runtime/log.h"

#include <pmix.h>

#include <string>

namespace pmixpp::server {

namespace {

pmix_status_t store_scope(const Server &server, const pmix_proc_t &proc, pmix_scope_t scope,
                          const wire::InfoArray &info)
{
    if (info.empty()) return PMIX_SUCCESS;
    return server.store->put_modex(proc.nspace, proc.rank, scope, info.data(), info.size());
}

}  // namespace

void handle_commit(Server &server, Peer &peer, uint32_t tag, wire::CommitRequest &request)
{
    const pmix_proc_t &proc = peer.proc;
    pmix_status_t rc = store_scope(server, proc, PMIX_LOCAL, request.local);
    if (rc == PMIX_SUCCESS) rc = store_scope(server, proc, PMIX_REMOTE, request.remote);
    if (rc == PMIX_SUCCESS) rc = store_scope(server, proc, PMIX_GLOBAL, request.global);
    if (rc == PMIX_SUCCESS) {
        if (Namespace *ns = server.find_namespace(proc.nspace)) ns->committed.insert(proc.rank);
        server.waiters.committed(proc.nspace, proc.rank);
    }
    if (request.reply_wanted) return reply_status(server, peer.id, tag, rc);
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server",
                             "could not store the data committed by " + describe(peer) + ": " + PMIx_Error_string(rc));
    }
}

pmix_status_t proc_modex(const Server &server, const pmix_proc_t &proc, pmix_scope_t scope, wire::ProcData *data_p)
{
    store::InfoArray info;
    const pmix_status_t rc = server.store->fetch_modex_all(proc.nspace, proc.rank, scope, &info);
    if (rc != PMIX_SUCCESS && rc != PMIX_ERR_NOT_FOUND) return rc;
    wire::ProcData data;
    data.proc = proc;
    std::size_t count = 0;
    pmix_info_t *array = info.release(&count);
    data.info.adopt(array, count);
    *data_p = std::move(data);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::server
