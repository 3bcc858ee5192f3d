// The test host's upcalls (the pmix_server_module_t it gives
// PMIx_server_init): they count what the library asks, answer at once or
// later from a host thread, hand fence and direct modex to the other node
// when there is one, record aborts, answer one query key of their own and
// acknowledge connects and disconnects.
#include "integration/host/host_internal.h"

#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace pmixpp::itest {
namespace {

// Every upcall starts here: the current host, after noting the thread.
Host *enter()
{
    Host *host = Host::current();
    if (host != nullptr) host->note_upcall_thread();
    return host;
}

struct OpCall {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
};

void complete_op_later(void *arg)
{
    auto *call = static_cast<OpCall *>(arg);
    call->cbfunc(PMIX_SUCCESS, call->cbdata);
    delete call;
}

// Sync mode answers "done" at once; async mode acknowledges from a host
// thread later, the way a real RM that forwards the event would.
pmix_status_t acknowledge(Host *host, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (host == nullptr || !host->options().async_upcalls || cbfunc == nullptr) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    host->run_later(complete_op_later, new OpCall{cbfunc, cbdata});
    return PMIX_SUCCESS;
}

pmix_status_t on_client_connected(const pmix_proc_t *, void *, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = enter();
    if (host != nullptr) host->counters().connected++;
    return acknowledge(host, cbfunc, cbdata);
}

pmix_status_t on_client_finalized(const pmix_proc_t *, void *, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = enter();
    if (host != nullptr) host->counters().finalized++;
    return acknowledge(host, cbfunc, cbdata);
}

pmix_status_t on_abort(const pmix_proc_t *caller, void *, int status, const char message[], pmix_proc_t procs[],
                       size_t nprocs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = enter();
    if (host == nullptr) return PMIX_OPERATION_SUCCEEDED;
    AbortRecord record;
    if (caller != nullptr) record.caller = *caller;
    record.status = status;
    record.message = message != nullptr ? message : "";
    record.procs_null = procs == nullptr;
    if (procs != nullptr) record.procs.assign(procs, procs + nprocs);
    const pmix_status_t rc = host->record_abort(std::move(record), cbfunc, cbdata);
    if (rc != PMIX_OPERATION_SUCCEEDED) return rc;  // held until release_abort()
    return acknowledge(host, cbfunc, cbdata);
}

struct FenceCall {
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
    char *data;
    size_t ndata;
};

void release_fence_data(void *data)
{
    std::free(data);
}

void complete_fence_later(void *arg)
{
    auto *call = static_cast<FenceCall *>(arg);
    call->cbfunc(PMIX_SUCCESS, call->data, call->ndata, call->cbdata, release_fence_data, call->data);
    delete call;
}

// One node: the gathered data of the job is exactly this node's
// contribution. With a second node the contributions of both are joined.
pmix_status_t on_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char *data, size_t ndata,
                       pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = enter();
    if (host != nullptr) host->counters().fences++;
    if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    // `data` is ours (malloc'ed, as OpenPMIx hands it): freed once used.
    if (host != nullptr && host->options().cross_node != nullptr) {
        const pmix_status_t rc = host->options().cross_node->fence(data, ndata, cbfunc, cbdata);
        std::free(data);  // the link keeps its own copy
        return rc;
    }
    if (host == nullptr || !host->options().async_upcalls) {
        cbfunc(PMIX_SUCCESS, data, ndata, cbdata, release_fence_data, data);
        return PMIX_SUCCESS;
    }
    host->run_later(complete_fence_later, new FenceCall{cbfunc, cbdata, data, ndata});
    return PMIX_SUCCESS;
}

// Alone, every process runs on this node, so nobody else can hold the data;
// with a second node, its host asks its own server.
pmix_status_t on_direct_modex(const pmix_proc_t *proc, const pmix_info_t[], size_t, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    Host *host = enter();
    if (host == nullptr) return PMIX_ERR_NOT_FOUND;
    host->counters().direct_modex++;
    if (host->options().cross_node == nullptr || proc == nullptr || cbfunc == nullptr) return PMIX_ERR_NOT_FOUND;
    return host->options().cross_node->direct_modex(*proc, cbfunc, cbdata);
}

// Connect and disconnect cross no node here: the host only acknowledges.
pmix_status_t on_connect(const pmix_proc_t[], size_t nprocs, const pmix_info_t[], size_t, pmix_op_cbfunc_t cbfunc,
                         void *cbdata)
{
    Host *host = enter();
    if (host != nullptr) {
        host->counters().connects++;
        host->counters().last_connect_nprocs = static_cast<int>(nprocs);
    }
    return acknowledge(host, cbfunc, cbdata);
}

pmix_status_t on_disconnect(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, pmix_op_cbfunc_t cbfunc,
                            void *cbdata)
{
    Host *host = enter();
    if (host != nullptr) host->counters().disconnects++;
    return acknowledge(host, cbfunc, cbdata);
}

void release_query_results(void *cbdata)
{
    auto *results = static_cast<pmix_info_t *>(cbdata);
    PMIX_INFO_FREE(results, 1);
}

// The host knows one key of its own; whatever else reaches it is unknown.
pmix_status_t on_query(pmix_proc_t *, pmix_query_t *queries, size_t nqueries, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = enter();
    if (host != nullptr) host->counters().queries++;
    if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    bool asked = false;
    for (size_t i = 0; i < nqueries; ++i) {
        for (char **key = queries[i].keys; key != nullptr && *key != nullptr; ++key) {
            asked = asked || std::strcmp(*key, kHostQueryKey) == 0;
        }
    }
    if (!asked) return PMIX_ERR_NOT_FOUND;
    pmix_info_t *results = nullptr;
    PMIX_INFO_CREATE(results, 1);
    if (results == nullptr) return PMIX_ERR_NOMEM;
    PMIX_INFO_LOAD(&results[0], kHostQueryKey, kHostQueryAnswer, PMIX_STRING);
    cbfunc(PMIX_SUCCESS, results, 1, cbdata, release_query_results, results);
    return PMIX_SUCCESS;
}

struct GroupExchange {
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
};

void release_group_info(void *cbdata)
{
    auto *info = static_cast<pmix_info_t *>(cbdata);
    PMIX_INFO_FREE(info, 1);
}

// Both nodes' endpoint data, joined, goes back as PMIX_GROUP_ENDPT_DATA.
void group_exchanged(pmix_status_t status, const char *data, size_t ndata, void *cbdata, pmix_release_cbfunc_t release,
                     void *release_cbdata)
{
    std::unique_ptr<GroupExchange> call(static_cast<GroupExchange *>(cbdata));
    pmix_info_t *info = nullptr;
    PMIX_INFO_CREATE(info, 1);
    pmix_byte_object_t joined{const_cast<char *>(data), ndata};
    PMIX_INFO_LOAD(&info[0], PMIX_GROUP_ENDPT_DATA, &joined, PMIX_BYTE_OBJECT);  // copies
    if (release != nullptr) release(release_cbdata);
    call->cbfunc(status, info, 1, call->cbdata, release_group_info, info);
}

// Two nodes: a construct is an allgather of the servers' endpoint data
// over the link (as PRRTE's group upcall does with its grpcomm); a
// destruct needs nothing.
pmix_status_t on_cross_node_group(pmix_group_operation_t op, char[], const pmix_proc_t[], size_t,
                                  const pmix_info_t directives[], size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = enter();
    if (host == nullptr || host->options().cross_node == nullptr) return PMIX_ERR_NOT_SUPPORTED;
    if (op == PMIX_GROUP_DESTRUCT) return PMIX_OPERATION_SUCCEEDED;
    host->counters().group_exchanges++;
    const pmix_byte_object_t *ours = nullptr;
    for (size_t i = 0; i < ndirs; ++i) {
        if (PMIX_CHECK_KEY(&directives[i], PMIX_GROUP_ENDPT_DATA) && directives[i].value.type == PMIX_BYTE_OBJECT) {
            ours = &directives[i].value.data.bo;
        }
    }
    if (ours != nullptr && ours->size > 0) host->counters().endpoint_data_given++;
    auto *call = new GroupExchange{cbfunc, cbdata};
    const pmix_status_t rc = host->options().cross_node->fence(ours != nullptr ? ours->bytes : nullptr,
                                                               ours != nullptr ? ours->size : 0, group_exchanged, call);
    if (rc != PMIX_SUCCESS) delete call;
    return rc;
}

}  // namespace

pmix_server_module_t make_module(const HostOptions &options)
{
    pmix_server_module_t module;
    std::memset(&module, 0, sizeof(module));
    module.client_connected = on_client_connected;
    module.client_finalized = on_client_finalized;
    module.abort = on_abort;
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    module.query = on_query;
    module.connect = on_connect;
    module.disconnect = on_disconnect;
    module.monitor = options.monitor_upcall;
    module.group = options.group_upcall;
    if (module.group == nullptr && options.cross_node != nullptr) module.group = on_cross_node_group;
    if (options.credential_upcalls) {
        module.get_credential = on_get_credential;
        module.validate_credential = on_validate_credential;
    }
    return module;
}

}  // namespace pmixpp::itest
