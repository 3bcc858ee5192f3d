// PMIx_Get that the client could not answer from its own copy of the job
// data: registered data and modex data from the store, resolved the way a
// client would (common/store/resolver.h).
//
// When the key is not there yet:
//  - a local target that has not committed: wait for its commit (unless
//    PMIX_IMMEDIATE), at most PMIX_TIMEOUT seconds; PMIX_ERR_NOT_FOUND once
//    it is gone without committing (finalized, died, deregistered);
//  - a remote target whose data has not arrived: ask the host's
//    direct_modex (PMIX_ERR_NOT_SUPPORTED when the host has none), unless
//    the host itself asks (PMIX_ERR_NOT_FOUND: it is the one to ask);
//  - a reserved "pmix" key of a registered namespace: PMIX_ERR_NOT_FOUND at
//    once. Only the host provides those and it registered them already;
//    peers cannot post them, so waiting for a commit would wait forever
//    (OpenPMIx's nodeinfo example asks for a peer's pmix.fab.coord);
//  - otherwise PMIX_ERR_NOT_FOUND.
// A key qualified by PMIX_GROUP_CONTEXT_ID is what the target gave in
// PMIX_GROUP_INFO to that group's construct (groups.cc), or not found.
// An empty key asks for all the target's data (the client caches it).
#include "common/runtime/log.h"
#include "common/store/resolver.h"
#include "common/values/value_ops.h"
#include "server/state/node_resources.h"
#include "server/state/peer_io.h"
#include "server/state/info_read.h"
#include "server/requests/requests.h"

#include <chrono>
#include <cstring>
#include <memory>
#include <new>
#include <string>

namespace pmixpp::server {

namespace {

struct PendingGet {
    GetResponder respond;
    pmix_proc_t requester{};
    PeerId owner = kNoPeer;
    wire::GetRequest request;
    bool answered = false;
    runtime::Timer timer;
};
using PendingGetPtr = std::shared_ptr<PendingGet>;

bool is_rank(pmix_rank_t rank)
{
    return rank != PMIX_RANK_WILDCARD && rank != PMIX_RANK_UNDEF && rank != PMIX_RANK_INVALID;
}

bool target_is_local(Server &server, const pmix_proc_t &target)
{
    const Namespace *ns = server.find_namespace(target.nspace);
    return ns != nullptr && ns->registered && is_rank(target.rank) && ns->is_local(target.rank);
}

// Which modex data of the target the requester may see: a local peer sees
// local and global keys, a remote one remote and global keys, and the host
// itself (self-access) everything.
pmix_scope_t visibility(Server &server, const PendingGet &get)
{
    if (server.is_self(get.requester)) return PMIX_GLOBAL;
    return target_is_local(server, get.request.proc) ? PMIX_LOCAL : PMIX_REMOTE;
}

pmix_status_t one_key(Server &server, const PendingGet &get, wire::GetReply *reply_p)
{
    const wire::GetRequest &request = get.request;
    store::GetRequest lookup;
    lookup.target = &request.proc;
    lookup.key = request.key.c_str();
    lookup.qualifiers = request.directives.data();
    lookup.nqualifiers = request.directives.size();
    lookup.self = &get.requester;
    lookup.modex_visibility = visibility(server, get);
    store::ValuePtr value;
    pmix_status_t rc = store::get(*server.store, lookup, &value);
    if (rc == PMIX_ERR_NOT_FOUND) rc = get_node_resource(server, lookup, &value);
    if (rc != PMIX_SUCCESS) return rc;
    wire::GetReply reply;
    if ((rc = reply.data.allocate(1)) != PMIX_SUCCESS) return rc;
    values::load_key(reply.data[0].key, request.key.c_str());
    if ((rc = values::value_xfer(&reply.data[0].value, value.get())) != PMIX_SUCCESS) return rc;
    *reply_p = std::move(reply);
    return PMIX_SUCCESS;
}

// Everything of the target: job level for a wildcard, else its modex data
// (required: without it the data is not there yet) and its proc level.
pmix_status_t everything(Server &server, const PendingGet &get, wire::GetReply *reply_p)
{
    const pmix_proc_t &target = get.request.proc;
    const char *nspace = target.nspace;
    store::InfoArray job, proc, modex;
    pmix_status_t rc = PMIX_SUCCESS;
    if (!is_rank(target.rank)) {
        rc = server.store->fetch_all(nspace, PMIXPP_GDS_LEVEL_JOB, 0, &job);
    } else {
        rc = server.store->fetch_modex_all(nspace, target.rank, visibility(server, get), &modex);
        if (rc == PMIX_SUCCESS) {
            const pmix_status_t level = server.store->fetch_all(nspace, PMIXPP_GDS_LEVEL_PROC, target.rank, &proc);
            if (level != PMIX_SUCCESS && level != PMIX_ERR_NOT_FOUND) rc = level;
        }
    }
    if (rc != PMIX_SUCCESS) return rc;
    wire::GetReply reply;
    const std::size_t total = job.size() + proc.size() + modex.size();
    if ((rc = reply.data.allocate(total)) != PMIX_SUCCESS) return rc;
    std::size_t next = 0;
    for (const store::InfoArray *part : {&job, &proc, &modex}) {
        for (const pmix_info_t &item : *part) {
            if ((rc = values::info_xfer(&reply.data[next++], &item)) != PMIX_SUCCESS) return rc;
        }
    }
    *reply_p = std::move(reply);
    return PMIX_SUCCESS;
}

// The host's own id, which nobody registers (its namespace is usually not
// a job): PMIX_PROCID, PMIX_NSPACE and PMIX_RANK of itself, asked by itself.
bool answer_own_id(Server &server, const PendingGet &get, wire::GetReply *reply_p)
{
    const wire::GetRequest &request = get.request;
    if (!server.is_self(get.requester) ||
        std::strncmp(request.proc.nspace, get.requester.nspace, PMIX_MAX_NSLEN) != 0) {
        return false;
    }
    const pmix_proc_t me = server.self_proc();
    pmix_value_t value;
    PMIX_VALUE_CONSTRUCT(&value);
    if (request.key == PMIX_PROCID) {
        value.type = PMIX_PROC;
        value.data.proc = const_cast<pmix_proc_t *>(&me);  // copied by value_xfer below
    } else if (request.key == PMIX_NSPACE) {
        value.type = PMIX_STRING;
        value.data.string = const_cast<char *>(me.nspace);
    } else if (request.key == PMIX_RANK && request.proc.rank == me.rank) {
        value.type = PMIX_PROC_RANK;
        value.data.rank = me.rank;
    } else {
        return false;
    }
    wire::GetReply reply;
    if (reply.data.allocate(1) != PMIX_SUCCESS) return false;
    values::load_key(reply.data[0].key, request.key.c_str());
    if (values::value_xfer(&reply.data[0].value, &value) != PMIX_SUCCESS) return false;
    *reply_p = std::move(reply);
    return true;
}

pmix_status_t lookup(Server &server, const PendingGet &get, wire::GetReply *reply_p)
{
    return get.request.key.empty() ? everything(server, get, reply_p) : one_key(server, get, reply_p);
}

void answer(Server &, PendingGet &get, wire::GetReply reply)
{
    if (get.answered) return;
    get.answered = true;
    get.timer.cancel();
    if (get.respond) get.respond(reply);
}

void answer_status(Server &server, PendingGet &get, pmix_status_t status)
{
    wire::GetReply reply;
    reply.status = status;
    answer(server, get, std::move(reply));
}

void retry(Server &server, const PendingGetPtr &get)
{
    wire::GetReply reply;
    const pmix_status_t rc = lookup(server, *get, &reply);
    if (rc != PMIX_SUCCESS) return answer_status(server, *get, rc);
    answer(server, *get, std::move(reply));
}

std::chrono::milliseconds timeout_of(const PendingGet &get)
{
    const auto &directives = get.request.directives;
    const auto seconds = directive_timeout(directives.data(), directives.size());
    return seconds ? std::chrono::milliseconds(*seconds * 1000ull) : std::chrono::milliseconds{0};
}

// A peer may keep only so many gets waiting: each costs the server memory
// and sends nothing back, so a peer that never reads could park them
// without end.
bool over_parked_limit(Server &server, const PendingGet &get)
{
    if (get.owner == kNoPeer) return false;
    const std::size_t limit = server.config.max_parked_requests;
    if (limit == 0 || server.waiters.owned_by(get.owner) < limit) return false;
    server.warnings.note("parked", "gets refused with PMIX_ERR_OUT_OF_RESOURCE: " + proc_name(get.requester) + " has " +
                                       std::to_string(limit) + " waiting (raise " + kMaxParkedRequestsEnv +
                                       " if a job needs more)");
    return true;
}

void wait_for_commit(Server &server, const PendingGetPtr &get)
{
    if (over_parked_limit(server, *get)) return answer_status(server, *get, PMIX_ERR_OUT_OF_RESOURCE);
    const pmix_proc_t &target = get->request.proc;
    server.waiters.add(
        target.nspace, target.rank, timeout_of(*get),
        [get](pmix_status_t status) {
            Server *now = current();
            if (now == nullptr) return;
            if (status != PMIX_SUCCESS) return answer_status(*now, *get, status);
            retry(*now, get);
        },
        get->owner);
}

struct HostModexCall {
    PendingGetPtr get;
};

void host_modex_done(pmix_status_t status, const char *data, size_t ndata, void *cbdata, pmix_release_cbfunc_t release,
                     void *release_cbdata)
{
    std::unique_ptr<HostModexCall> call(static_cast<HostModexCall *>(cbdata));
    wire::Bytes blob = take_host_blob(data, ndata, release, release_cbdata, &status);
    if (call == nullptr) return;
    post_to_server([get = std::move(call->get), status, blob = std::move(blob)](Server &server) {
        if (get->answered) return;
        const pmix_status_t rc = status == PMIX_SUCCESS ? store_remote_blob(server, blob) : status;
        if (rc != PMIX_SUCCESS) return answer_status(server, *get, rc);
        retry(server, get);
    });
}

void ask_host(Server &server, const PendingGetPtr &get)
{
    const auto upcall = server.host.slots().direct_modex;
    if (upcall == nullptr) return answer_status(server, *get, PMIX_ERR_NOT_SUPPORTED);
    auto *call = new (std::nothrow) HostModexCall{get};
    if (call == nullptr) return answer_status(server, *get, PMIX_ERR_NOMEM);
    const auto timeout = timeout_of(*get);
    if (timeout.count() > 0) {
        get->timer = server.engine.add_timer(timeout, [get] {
            if (Server *now = current()) answer_status(*now, *get, PMIX_ERR_TIMEOUT);
        });
    }
    const auto &directives = get->request.directives;
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       "asking the host's direct_modex for " + proc_name(get->request.proc));
    const pmix_status_t rc = upcall(&get->request.proc, directives.data(), directives.size(), host_modex_done, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    if (rc == PMIX_OPERATION_SUCCEEDED) return retry(server, get);
    answer_status(server, *get, rc);
}

bool is_reserved_key(const std::string &key)
{
    return key.compare(0, 4, "pmix") == 0;
}

void when_missing(Server &server, const PendingGetPtr &get)
{
    const pmix_proc_t &target = get->request.proc;
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       "get of '" + get->request.key + "' of " + proc_name(target) + " for " +
                           proc_name(get->requester) + ": not here yet");
    Namespace *ns = server.find_namespace(target.nspace);
    const auto &directives = get->request.directives;
    const bool immediate = directive_flag(directives.data(), directives.size(), PMIX_IMMEDIATE);
    if (!is_rank(target.rank) || immediate) return answer_status(server, *get, PMIX_ERR_NOT_FOUND);
    // The host itself is told at once what its server does not hold, as
    // OpenPMIx tells it, unless it gave PMIX_TIMEOUT to wait like a client:
    // PRRTE asks for its PMIX_PARENT_ID and commits nothing, and its direct
    // modex asks for a client's key and keeps the request itself when the
    // answer is NOT_FOUND.
    const bool host_asks = server.is_self(get->requester);
    if (host_asks && !directive_timeout(directives.data(), directives.size())) {
        return answer_status(server, *get, PMIX_ERR_NOT_FOUND);
    }
    if (server.is_self(target)) {
        // The host's own data (self-access puts): a client waits for its
        // commit.
        if (server.self_committed || host_asks) {
            return answer_status(server, *get, PMIX_ERR_NOT_FOUND);
        }
        return wait_for_commit(server, get);
    }
    if (ns != nullptr && ns->registered && (target.rank >= ns->summary.job_size || is_reserved_key(get->request.key))) {
        return answer_status(server, *get, PMIX_ERR_NOT_FOUND);
    }
    if (target_is_local(server, target)) {
        // Committed without the key, or gone: the key will never come.
        if (ns->committed.count(target.rank) != 0 || ns->gone.count(target.rank) != 0) {
            return answer_status(server, *get, PMIX_ERR_NOT_FOUND);
        }
        return wait_for_commit(server, get);
    }
    if (ns != nullptr && ns->remote_data.count(target.rank) != 0) {
        return answer_status(server, *get, PMIX_ERR_NOT_FOUND);
    }
    // The host asking for a remote proc's data is not sent back to itself:
    // Open MPI's direct_modex first looks with a blocking PMIx_Get, which
    // would call that same direct_modex again and wait on itself forever.
    if (server.is_self(get->requester)) return answer_status(server, *get, PMIX_ERR_NOT_FOUND);
    ask_host(server, get);
}

}  // namespace

void start_get(Server &server, const pmix_proc_t &requester, wire::GetRequest request, GetResponder respond,
               PeerId owner)
{
    auto get = std::make_shared<PendingGet>();
    get->respond = std::move(respond);
    get->requester = requester;
    get->owner = owner;
    get->request = std::move(request);
    wire::GetReply reply;
    if (answer_group_get(server, get->request, &reply) || answer_group_qualified_get(server, get->request, &reply) ||
        answer_own_id(server, *get, &reply)) {
        return answer(server, *get, std::move(reply));
    }
    const pmix_status_t rc = lookup(server, *get, &reply);
    if (rc == PMIX_SUCCESS) return answer(server, *get, std::move(reply));
    if (rc != PMIX_ERR_NOT_FOUND) return answer_status(server, *get, rc);
    when_missing(server, get);
}

void handle_get(Server &server, Peer &peer, uint32_t tag, wire::GetRequest &request)
{
    start_get(server, peer.proc, std::move(request), answer_peer<wire::GetReply>(peer.id, tag), peer.id);
}

}  // namespace pmixpp::server
