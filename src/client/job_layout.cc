// Which procs run where: answered from the job data the client holds
// (node-level PMIX_LOCAL_PEERS, job-level PMIX_NODE_LIST); for a namespace
// the client has no data about, the server is asked (a GetRequest for that
// namespace's job-level key, about the given node). A host asks its own
// server's store (core/host_mode.h).
#include <pmix.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "client/core/host_mode.h"
#include "client/core/local_data.h"
#include "client/core/peers.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"

using namespace pmixpp;

namespace {

const char *nspace_or_own(const client::Session &session, const char *nspace)
{
    return (nspace == nullptr || nspace[0] == '\0') ? session.self.nspace : nspace;
}

// Our node's id: from our own proc data, else node 0 of a one-node job.
pmix_status_t own_nodeid(const client::Session &session, const char *nspace, uint32_t *nodeid_p)
{
    store::ValuePtr value;
    pmix_status_t rc =
        session.store->fetch(session.self.nspace, PMIXPP_GDS_LEVEL_PROC, session.self.rank, PMIX_NODEID, &value);
    if (rc == PMIX_SUCCESS && value->type == PMIX_UINT32) {
        *nodeid_p = value->data.uint32;
        return PMIX_SUCCESS;
    }
    return session.store->lookup_node(nspace, session.hostname.c_str(), nodeid_p);
}

pmix_status_t node_of(const client::Session &session, const char *nspace, const char *nodename, uint32_t *nodeid_p)
{
    if (nodename == nullptr || nodename[0] == '\0') {
        return own_nodeid(session, nspace, nodeid_p);
    }
    pmix_status_t rc = session.store->lookup_node(nspace, nodename, nodeid_p);
    if (rc != PMIX_SUCCESS && (session.hostname == nodename || std::strcmp(nodename, "localhost") == 0)) {
        rc = own_nodeid(session, nspace, nodeid_p);
    }
    return rc;
}

// The value of job-level `key` of nspace from the server, about node
// `nodename` when given. Blocking.
pmix_status_t ask_server(const std::shared_ptr<client::Session> &session, const char *nspace, const char *key,
                         const char *nodename, store::ValuePtr *value_p)
{
    if (session->singleton) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (client::check_may_block(*session) != PMIX_SUCCESS) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wire::GetRequest request;
    PMIX_LOAD_NSPACE(request.proc.nspace, nspace);
    request.proc.rank = PMIX_RANK_WILDCARD;
    request.key = key;
    if (nodename != nullptr) {
        pmix_info_t node;
        PMIX_INFO_LOAD(&node, PMIX_HOSTNAME, nodename, PMIX_STRING);
        pmix_status_t rc = request.directives.assign_copy(&node, 1);
        PMIX_INFO_DESTRUCT(&node);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    using ValueLatch = runtime::Latch<store::ValuePtr>;
    auto latch = std::make_shared<ValueLatch>();
    std::string wanted = key;
    pmix_status_t rc = client::send_message(session, request, std::chrono::milliseconds{0},
                                            [latch, wanted](pmix_status_t st, const wire::Frame *frame) {
                                                wire::GetReply reply;
                                                store::ValuePtr value;
                                                pmix_status_t status = client::read_reply(st, frame, &reply);
                                                if (status == PMIX_SUCCESS) {
                                                    status = client::answer_from(reply.data, wanted.c_str(), &value);
                                                }
                                                latch->complete(status, std::move(value));
                                            });
    if (rc == PMIX_SUCCESS) {
        rc = latch->wait();
    }
    if (rc == PMIX_SUCCESS) {
        *value_p = std::move(latch->payload());
    }
    return rc;
}

pmix_status_t local_peers(const std::shared_ptr<client::Session> &session, const char *ns, const char *nodename,
                          store::ValuePtr *peers_p)
{
    uint32_t nodeid = 0;
    pmix_status_t rc = node_of(*session, ns, nodename, &nodeid);
    if (rc == PMIX_SUCCESS) {
        rc = session->store->fetch(ns, PMIXPP_GDS_LEVEL_NODE, nodeid, PMIX_LOCAL_PEERS, peers_p);
    }
    if (rc == PMIX_SUCCESS) {
        return rc;
    }
    bool mine = nodename == nullptr || nodename[0] == '\0' || std::strcmp(nodename, "localhost") == 0;
    return ask_server(session, ns, PMIX_LOCAL_PEERS, mine ? session->hostname.c_str() : nodename, peers_p);
}

}  // namespace

pmix_status_t PMIx_Resolve_peers(const char *nodename, const pmix_nspace_t nspace, pmix_proc_t **procs, size_t *nprocs)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    if (procs == nullptr || nprocs == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    *procs = nullptr;
    *nprocs = 0;
    try {
        if (!session) {
            return client::host_resolve_peers(nodename, nspace, procs, nprocs);
        }
        const char *ns = nspace_or_own(*session, nspace);
        store::ValuePtr peers;
        pmix_status_t rc = local_peers(session, ns, nodename, &peers);
        if (rc != PMIX_SUCCESS) {
            return rc == PMIX_ERR_WOULD_BLOCK ? rc : PMIX_ERR_NOT_FOUND;
        }
        return client::procs_from_peer_list(ns, *peers, procs, nprocs);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// A comma-separated list the caller frees.
pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t nspace, char **nodelist)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    if (nodelist == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    *nodelist = nullptr;
    try {
        if (!session) {
            return client::host_resolve_nodes(nspace, nodelist);
        }
        const char *ns = nspace_or_own(*session, nspace);
        store::ValuePtr list;
        pmix_status_t rc = session->store->fetch(ns, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, PMIX_NODE_LIST, &list);
        if (rc != PMIX_SUCCESS) {
            rc = ask_server(session, ns, PMIX_NODE_LIST, nullptr, &list);
        }
        if (rc != PMIX_SUCCESS) {
            return rc == PMIX_ERR_WOULD_BLOCK ? rc : PMIX_ERR_NOT_FOUND;
        }
        return client::nodelist_from(*list, nodelist);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
