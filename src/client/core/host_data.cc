// The data calls of a host (host_mode.h) over server/engine/self_access.h.
#include <cstdlib>
#include <cstring>
#include <string>

#include "client/core/host_mode.h"
#include "client/core/local_data.h"
#include "client/core/peers.h"
#include "client/core/singleton.h"
#include "common/runtime/latch.h"
#include "server/engine/self_access.h"

#include <pmixpp/util.hpp>

namespace pmixpp::client {

namespace {

// PMIx_Get's target: a NULL proc or empty nspace means the host's own
// namespace; PMIX_PROCID of a NULL proc, the host itself.
pmix_status_t target_of(const pmix_proc_t *proc, const char *key, pmix_proc_t *target_p)
{
    pmix_proc_t me;
    pmix_status_t rc = host_identity(&me);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    pmix_proc_t target = me;
    const bool own_id = proc == nullptr && key != nullptr && std::strncmp(key, PMIX_PROCID, PMIX_MAX_KEYLEN) == 0;
    target.rank = own_id ? me.rank : proc == nullptr ? PMIX_RANK_WILDCARD : proc->rank;
    if (proc != nullptr && proc->nspace[0] != '\0') {
        PMIX_LOAD_NSPACE(target.nspace, proc->nspace);
    }
    *target_p = target;
    return PMIX_SUCCESS;
}

// NULL asks for every key.
bool valid_key_or_all(const char *key)
{
    return key == nullptr || util::valid_key(key);
}

// One job-level key of nspace on the server, optionally about one node.
pmix_status_t job_value(const char *nspace, const char *key, const char *nodename, store::ValuePtr *value_p)
{
    pmix_proc_t job{};
    PMIX_LOAD_NSPACE(job.nspace, nspace);
    job.rank = PMIX_RANK_WILDCARD;
    pmix_info_t node;
    PMIX_INFO_CONSTRUCT(&node);
    size_t nqual = 0;
    if (nodename != nullptr) {
        PMIX_INFO_LOAD(&node, PMIX_HOSTNAME, nodename, PMIX_STRING);
        nqual = 1;
    }
    pmix_value_t *raw = nullptr;
    pmix_status_t rc = server::server_get(&job, key, nqual > 0 ? &node : nullptr, nqual, &raw);
    PMIX_INFO_DESTRUCT(&node);
    if (rc == PMIX_SUCCESS) {
        value_p->reset(raw);
    }
    return rc;
}

}  // namespace

pmix_status_t host_get_nb(const pmix_proc_t *proc, const char *key, const pmix_info_t info[], size_t ninfo,
                          HostValueDone done)
{
    if (!valid_key_or_all(key) || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_proc_t target;
    pmix_status_t rc = target_of(proc, key, &target);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    std::string wanted = key != nullptr ? key : "";
    return server::server_get_nb(target, wanted.c_str(), info, ninfo, [wanted, done](wire::GetReply &reply) {
        store::ValuePtr value;
        pmix_status_t st = reply.status;
        if (st == PMIX_SUCCESS) {
            st = answer_from(reply.data, wanted.empty() ? nullptr : wanted.c_str(), &value);
        }
        done(st, std::move(value));
    });
}

pmix_status_t host_get(const pmix_proc_t *proc, const char *key, const pmix_info_t info[], size_t ninfo,
                       store::ValuePtr *value_p)
{
    if (runtime::ProgressEngine::process().on_progress_thread()) {
        // Only what is there already: waiting here would stop the server.
        pmix_proc_t target;
        pmix_status_t rc =
            valid_key_or_all(key) && key != nullptr ? target_of(proc, key, &target) : PMIX_ERR_WOULD_BLOCK;
        pmix_value_t *raw = nullptr;
        if (rc == PMIX_SUCCESS) {
            rc = server::server_get(&target, key, info, ninfo, &raw);
        }
        if (rc == PMIX_SUCCESS) {
            value_p->reset(raw);
        }
        return rc;
    }
    using ValueLatch = runtime::Latch<store::ValuePtr>;
    auto latch = std::make_shared<ValueLatch>();
    pmix_status_t rc = host_get_nb(proc, key, info, ninfo,
                                   [latch](pmix_status_t st, store::ValuePtr v) { latch->complete(st, std::move(v)); });
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    rc = latch->wait();
    if (rc == PMIX_SUCCESS) {
        *value_p = std::move(latch->payload());
    }
    return rc;
}

pmix_status_t host_put(pmix_scope_t scope, const char *key, const pmix_value_t *value)
{
    return server::server_put(scope, key, value);
}

pmix_status_t host_store_internal(const pmix_proc_t &proc, const char *key, const pmix_value_t *value)
{
    return server::server_store_internal(proc, key, value);
}

pmix_status_t host_commit()
{
    return server::server_commit();
}

pmix_status_t host_fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                            HostOpDone done)
{
    if ((procs == nullptr && nprocs > 0) || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return server::server_fence_nb(procs, nprocs, info, ninfo, [done](wire::FenceReply &reply) { done(reply.status); });
}

pmix_status_t host_query_nb(const pmix_query_t queries[], size_t nqueries, HostQueryDone done)
{
    if (queries == nullptr || nqueries == 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    return server::server_query_nb(queries, nqueries, [done](wire::QueryReply &reply) {
        auto results = std::make_shared<wire::InfoArray>(std::move(reply.results));
        done(reply.status, std::move(results));
    });
}

pmix_status_t host_resolve_peers(const char *nodename, const char *nspace, pmix_proc_t **procs_p, size_t *nprocs_p)
{
    pmix_proc_t me;
    pmix_status_t rc = host_identity(&me);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    const char *ns = (nspace == nullptr || nspace[0] == '\0') ? me.nspace : nspace;
    std::string node = (nodename != nullptr && nodename[0] != '\0') ? nodename : local_hostname();
    store::ValuePtr peers;
    rc = job_value(ns, PMIX_LOCAL_PEERS, node.c_str(), &peers);
    return rc == PMIX_SUCCESS ? procs_from_peer_list(ns, *peers, procs_p, nprocs_p) : PMIX_ERR_NOT_FOUND;
}

pmix_status_t host_resolve_nodes(const char *nspace, char **nodelist_p)
{
    pmix_proc_t me;
    pmix_status_t rc = host_identity(&me);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    const char *ns = (nspace == nullptr || nspace[0] == '\0') ? me.nspace : nspace;
    store::ValuePtr list;
    rc = job_value(ns, PMIX_NODE_LIST, nullptr, &list);
    return rc == PMIX_SUCCESS ? nodelist_from(*list, nodelist_p) : PMIX_ERR_NOT_FOUND;
}

}  // namespace pmixpp::client
