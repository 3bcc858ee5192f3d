// PMIx_Get / PMIx_Get_nb: answered from the local store on the caller's
// thread when possible, else by a GetRequest to the server whose reply is
// cached. The blocking form waits on the non-blocking one. A host (a
// process running the server, not a client) asks its server's state
// (core/host_mode.h).
#include <pmix.h>

#include <cstring>
#include <functional>
#include <memory>
#include <new>

#include "client/core/fence_arena.h"
#include "client/core/host_mode.h"
#include "client/core/local_data.h"
#include "client/core/own_proc_dir.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"
#include "common/runtime/log.h"

using namespace pmixpp;

namespace {

using GetDone = std::function<void(pmix_status_t status, store::ValuePtr value)>;

// A Lookup that owns what it points to (it may outlive the caller's arrays).
struct OwnedLookup {
    client::Lookup lookup;
    std::string key;
    wire::InfoArray info;
};

pmix_scope_t visibility_of(const pmix_info_t info[], size_t ninfo)
{
    pmix_scope_t scope = PMIX_GLOBAL;
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (std::strncmp(info[i].key, PMIX_DATA_SCOPE, PMIX_MAX_KEYLEN) == 0 && info[i].value.type == PMIX_SCOPE) {
            scope = info[i].value.data.scope;
        }
    }
    return scope;
}

// A key qualified by a group's context id is what that member gave the
// group (PMIX_GROUP_INFO), not its own data: only the server knows it, and
// it is not cached as the proc's data.
bool group_qualified(const client::Lookup &lookup)
{
    for (size_t i = 0; lookup.info != nullptr && i < lookup.ninfo; ++i) {
        if (PMIX_CHECK_KEY(&lookup.info[i], PMIX_GROUP_CONTEXT_ID)) return true;
    }
    return false;
}

// Checks the arguments and fills a Lookup that borrows the caller's key and
// info: enough for the local answer, which needs no copy of anything.
pmix_status_t parse(const client::Session &session, const pmix_proc_t *proc, const char *key, const pmix_info_t info[],
                    size_t ninfo, client::Lookup *lookup_p)
{
    if ((info == nullptr && ninfo > 0) ||
        (key != nullptr && (key[0] == '\0' || strnlen(key, PMIX_MAX_KEYLEN + 1) > PMIX_MAX_KEYLEN))) {
        return PMIX_ERR_BAD_PARAM;
    }
    client::Lookup &l = *lookup_p;
    if (proc == nullptr || proc->nspace[0] == '\0') {
        std::memcpy(l.target.nspace, session.self.nspace, sizeof l.target.nspace);
        l.target.rank = proc == nullptr ? PMIX_RANK_WILDCARD : proc->rank;
    } else {
        PMIX_LOAD_NSPACE(l.target.nspace, proc->nspace);
        l.target.rank = proc->rank;
    }
    l.key = key;
    l.info = ninfo > 0 ? info : nullptr;
    l.ninfo = ninfo;
    l.visibility = visibility_of(info, ninfo);
    return PMIX_SUCCESS;
}

// A copy of a borrowed Lookup for a request that outlives the call.
pmix_status_t own(const client::Lookup &borrowed, std::shared_ptr<OwnedLookup> *owned_p)
{
    auto owned = std::make_shared<OwnedLookup>();
    owned->lookup = borrowed;
    if (borrowed.key != nullptr) {
        owned->key = borrowed.key;
        owned->lookup.key = owned->key.c_str();
    }
    if (borrowed.ninfo > 0) {
        pmix_status_t rc = owned->info.assign_copy(borrowed.info, borrowed.ninfo);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    owned->lookup.info = owned->info.data();
    owned->lookup.ninfo = owned->info.size();
    *owned_p = std::move(owned);
    return PMIX_SUCCESS;
}

// The server's answer, cached, then handed to done (progress thread).
pmix_status_t ask_server(const std::shared_ptr<client::Session> &session, std::shared_ptr<OwnedLookup> owned,
                         GetDone done)
{
    wire::GetRequest request;
    request.proc = owned->lookup.target;
    request.key = owned->key;
    pmix_status_t rc = request.directives.assign_copy(owned->info.data(), owned->info.size());
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    auto timeout = client::timeout_of(owned->info.data(), owned->info.size(), std::chrono::milliseconds{500});
    runtime::log_trace("PMIX_MCA_pmix_client_verbose", "client",
                       "get of '" + owned->key + "' of " + std::string(request.proc.nspace) + "." +
                           std::to_string(request.proc.rank) + " sent to the server");
    return client::send_message(
        session, request, timeout, [session, owned, done](pmix_status_t st, const wire::Frame *frame) {
            wire::GetReply reply;
            pmix_status_t status = client::read_reply(st, frame, &reply);
            store::ValuePtr value;
            const bool qualified = group_qualified(owned->lookup);
            if (status == PMIX_SUCCESS && qualified) {
                status = client::answer_from(reply.data, owned->lookup.key, &value);
                return done(status, std::move(value));
            }
            if (status == PMIX_SUCCESS) {
                client::cache_reply(*session, owned->lookup.target, reply.data);
                if (owned->lookup.key == nullptr && owned->lookup.target.rank != PMIX_RANK_WILDCARD) {
                    client::mark_collected(*session, owned->lookup.target);
                }
                status = client::answer_from(reply.data, owned->lookup.key, &value);
            }
            // What the server could not say may still be known here (job
            // data of a peer, a cached value behind PMIX_GET_REFRESH_CACHE).
            if (status != PMIX_SUCCESS && !qualified &&
                client::lookup_local(*session, owned->lookup, &value) == PMIX_SUCCESS) {
                status = PMIX_SUCCESS;
            }
            done(status, std::move(value));
        });
}

// PMIx_Get(NULL, PMIX_PROCID) names the caller in every role, before
// anything else, as OpenPMIx answers it (PRRTE's first get in its server).
bool asks_own_id(const pmix_proc_t *proc, const char *key)
{
    return proc == nullptr && key != nullptr && std::strncmp(key, PMIX_PROCID, PMIX_MAX_KEYLEN) == 0;
}

pmix_status_t own_id(const pmix_proc_t &me, store::ValuePtr *value_p)
{
    pmix_value_t *value = nullptr;
    PMIX_VALUE_CREATE(value, 1);
    if (value == nullptr) return PMIX_ERR_NOMEM;
    pmix_status_t rc = PMIx_Value_load(value, &me, PMIX_PROC);
    value_p->reset(value);
    return rc;
}

// The local answer, on the caller's thread and without copying the request:
// PMIX_SUCCESS with *value_p, or a final error, or PMIX_ERR_NOT_FOUND with
// *ask_server_p set when the server must be asked.
pmix_status_t answer_locally(client::Session &session, const client::Lookup &lookup, bool refresh_asked,
                             store::ValuePtr *value_p, bool *ask_server_p)
{
    *ask_server_p = false;
    client::arena_import(session, lookup.target);  // a peer's data from the last arena fence
    if (lookup.key != nullptr && group_qualified(lookup) && !session.singleton) {
        *ask_server_p = true;
        return PMIX_ERR_NOT_FOUND;
    }
    // Everything a peer posted lives at the server unless a collecting
    // fence (or an earlier everything-Get) brought it here.
    bool peer_everything = lookup.key == nullptr && lookup.target.rank != PMIX_RANK_WILDCARD &&
                           lookup.target.rank != PMIX_RANK_UNDEF && client::should_ask_server(session, lookup) &&
                           !client::has_collected(session, lookup.target);
    bool refresh = refresh_asked && !session.singleton;
    if (refresh || peer_everything) {
        *ask_server_p = true;
        return PMIX_ERR_NOT_FOUND;
    }
    pmix_status_t rc = client::lookup_local(session, lookup, value_p);
    if (rc == PMIX_SUCCESS && *value_p) client::make_own_proc_dir(session, lookup, **value_p);
    *ask_server_p = rc == PMIX_ERR_NOT_FOUND && client::should_ask_server(session, lookup);
    return rc;
}

// PMIX_SUCCESS with *value_p: answered locally. PMIX_OPERATION_IN_PROGRESS:
// the server was asked and the latch made by make_done's result runs.
// Anything else: the final status.
template <typename MakeDone>
pmix_status_t start_get(const std::shared_ptr<client::Session> &session, const pmix_proc_t *proc, const char *key,
                        const pmix_info_t info[], size_t ninfo, store::ValuePtr *value_p, bool may_wait,
                        MakeDone make_done)
{
    if (asks_own_id(proc, key)) return own_id(session->self, value_p);
    client::Lookup lookup;
    pmix_status_t rc = parse(*session, proc, key, info, ninfo, &lookup);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    bool refresh = ninfo > 0 && client::flag_of(info, ninfo, PMIX_GET_REFRESH_CACHE);
    bool need_server = false;
    rc = answer_locally(*session, lookup, refresh, value_p, &need_server);
    if (!need_server) {
        return rc;
    }
    if (!may_wait && client::check_may_block(*session) != PMIX_SUCCESS) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    std::shared_ptr<OwnedLookup> owned;
    rc = own(lookup, &owned);
    if (rc == PMIX_SUCCESS) {
        rc = ask_server(session, std::move(owned), make_done());
    }
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_IN_PROGRESS : rc;
}

}  // namespace

pmix_status_t PMIx_Get(const pmix_proc_t *proc, const char key[], const pmix_info_t info[], size_t ninfo,
                       pmix_value_t **val)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    if (val == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        if (!session) {
            store::ValuePtr value;
            pmix_proc_t me;
            pmix_status_t rc = asks_own_id(proc, key) ? client::host_identity(&me) : PMIX_ERR_NOT_FOUND;
            if (rc == PMIX_SUCCESS) {
                rc = own_id(me, &value);
            } else {
                rc = client::host_get(proc, key, info, ninfo, &value);
            }
            if (rc == PMIX_SUCCESS) {
                *val = value.release();
            }
            return rc;
        }
        // The latch is made only when the server is asked: a local answer
        // allocates nothing but the value it hands out.
        using ValueLatch = runtime::Latch<store::ValuePtr>;
        std::shared_ptr<ValueLatch> latch;
        store::ValuePtr value;
        pmix_status_t rc = start_get(session, proc, key, info, ninfo, &value, false, [&latch]() -> GetDone {
            latch = std::make_shared<ValueLatch>();
            return [latch](pmix_status_t st, store::ValuePtr v) { latch->complete(st, std::move(v)); };
        });
        if (rc == PMIX_OPERATION_IN_PROGRESS) {
            rc = latch->wait();
            value = std::move(latch->payload());
        }
        if (rc == PMIX_SUCCESS) {
            *val = value.release();
        }
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// After argument checks every outcome reaches cbfunc, on the progress
// thread; the value belongs to the library and is released after cbfunc.
pmix_status_t PMIx_Get_nb(const pmix_proc_t *proc, const char key[], const pmix_info_t info[], size_t ninfo,
                          pmix_value_cbfunc_t cbfunc, void *cbdata)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    if (cbfunc == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        auto deliver = [cbfunc, cbdata](pmix_status_t st, store::ValuePtr value) {
            cbfunc(st, st == PMIX_SUCCESS ? value.get() : nullptr, cbdata);
        };
        if (!session) {
            return client::host_get_nb(proc, key, info, ninfo, deliver);
        }
        store::ValuePtr value;
        pmix_status_t rc = start_get(session, proc, key, info, ninfo, &value, true, [&deliver] { return deliver; });
        if (rc == PMIX_OPERATION_IN_PROGRESS) {
            return PMIX_SUCCESS;
        }
        if (rc == PMIX_ERR_BAD_PARAM || rc == PMIX_ERR_NOMEM) {
            return rc;
        }
        auto shared = std::make_shared<store::ValuePtr>(std::move(value));
        return client::post_callback(*session, [deliver, rc, shared] { deliver(rc, std::move(*shared)); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
