// Which procs run where, answered from the job data the client holds
// (node-level PMIX_LOCAL_PEERS, job-level PMIX_NODE_LIST). Namespaces the
// client has no data for are PMIX_ERR_NOT_FOUND.
#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "client/core/discovery.h"
#include "client/core/session.h"

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
    pmix_status_t rc = session.store->fetch(session.self.nspace, PMIXPP_GDS_LEVEL_PROC, session.self.rank,
                                            PMIX_NODEID, &value);
    if (rc == PMIX_SUCCESS && value->type == PMIX_UINT32) {
        *nodeid_p = value->data.uint32;
        return PMIX_SUCCESS;
    }
    return session.store->lookup_node(nspace, session.hostname.c_str(), nodeid_p);
}

pmix_status_t node_of(const client::Session &session, const char *nspace, const char *nodename,
                      uint32_t *nodeid_p)
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

std::vector<pmix_rank_t> parse_ranks(const char *list)
{
    std::vector<pmix_rank_t> ranks;
    for (const std::string &item : client::split_list(list, ',')) {
        char *end = nullptr;
        unsigned long rank = std::strtoul(item.c_str(), &end, 10);
        if (end != nullptr && *end == '\0') {
            ranks.push_back(static_cast<pmix_rank_t>(rank));
        }
    }
    return ranks;
}

}  // namespace

pmix_status_t PMIx_Resolve_peers(const char *nodename, const pmix_nspace_t nspace, pmix_proc_t **procs,
                                 size_t *nprocs)
{
    auto session = client::current_session();
    if (!session) {
        return PMIX_ERR_INIT;
    }
    if (procs == nullptr || nprocs == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    *procs = nullptr;
    *nprocs = 0;
    try {
        const char *ns = nspace_or_own(*session, nspace);
        uint32_t nodeid = 0;
        pmix_status_t rc = node_of(*session, ns, nodename, &nodeid);
        store::ValuePtr peers;
        if (rc == PMIX_SUCCESS) {
            rc = session->store->fetch(ns, PMIXPP_GDS_LEVEL_NODE, nodeid, PMIX_LOCAL_PEERS, &peers);
        }
        if (rc != PMIX_SUCCESS) {
            return PMIX_ERR_NOT_FOUND;
        }
        if (peers->type != PMIX_STRING || peers->data.string == nullptr) {
            return PMIX_ERR_BAD_PARAM;
        }
        auto ranks = parse_ranks(peers->data.string);
        if (ranks.empty()) {
            return PMIX_ERR_NOT_FOUND;
        }
        auto *array = static_cast<pmix_proc_t *>(std::calloc(ranks.size(), sizeof(pmix_proc_t)));
        if (array == nullptr) {
            return PMIX_ERR_NOMEM;
        }
        for (size_t i = 0; i < ranks.size(); ++i) {
            PMIX_LOAD_NSPACE(array[i].nspace, ns);
            array[i].rank = ranks[i];
        }
        *procs = array;
        *nprocs = ranks.size();
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// A comma-separated list the caller frees.
pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t nspace, char **nodelist)
{
    auto session = client::current_session();
    if (!session) {
        return PMIX_ERR_INIT;
    }
    if (nodelist == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    *nodelist = nullptr;
    try {
        store::ValuePtr list;
        pmix_status_t rc = session->store->fetch(nspace_or_own(*session, nspace), PMIXPP_GDS_LEVEL_JOB,
                                                 PMIX_RANK_WILDCARD, PMIX_NODE_LIST, &list);
        if (rc != PMIX_SUCCESS || list->type != PMIX_STRING || list->data.string == nullptr) {
            return PMIX_ERR_NOT_FOUND;
        }
        *nodelist = strdup(list->data.string);
        return *nodelist == nullptr ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
