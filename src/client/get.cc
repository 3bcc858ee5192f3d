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

#include "client/core/host_mode.h"
#include "client/core/local_data.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"

using namespace pmixpp;

namespace {

using GetDone = std::function<void(pmix_status_t status, store::ValuePtr value)>;

// A Lookup that owns what it points to (it may outlive the caller's arrays).
struct OwnedLookup {
    client::Lookup lookup;
    std::string key;
    wire::InfoArray info;
    bool refresh = false;
};

pmix_status_t parse(const client::Session &session, const pmix_proc_t *proc, const char *key,
                    const pmix_info_t info[], size_t ninfo, OwnedLookup *out)
{
    if ((info == nullptr && ninfo > 0) ||
        (key != nullptr && (key[0] == '\0' || strnlen(key, PMIX_MAX_KEYLEN + 1) > PMIX_MAX_KEYLEN))) {
        return PMIX_ERR_BAD_PARAM;
    }
    client::Lookup &l = out->lookup;
    if (proc == nullptr || proc->nspace[0] == '\0') {
        std::memcpy(l.target.nspace, session.self.nspace, sizeof l.target.nspace);
        l.target.rank = proc == nullptr ? PMIX_RANK_WILDCARD : proc->rank;
    } else {
        PMIX_LOAD_NSPACE(l.target.nspace, proc->nspace);
        l.target.rank = proc->rank;
    }
    if (key != nullptr) {
        out->key = key;
    }
    if (ninfo > 0) {
        pmix_status_t rc = out->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    for (const pmix_info_t &item : out->info) {
        if (std::strncmp(item.key, PMIX_DATA_SCOPE, PMIX_MAX_KEYLEN) == 0 && item.value.type == PMIX_SCOPE) {
            l.visibility = item.value.data.scope;
        }
    }
    out->refresh = client::flag_of(out->info.data(), out->info.size(), PMIX_GET_REFRESH_CACHE);
    l.key = key != nullptr ? out->key.c_str() : nullptr;
    l.info = out->info.data();
    l.ninfo = out->info.size();
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
    return client::send_message(
        session, request, timeout, [session, owned, done](pmix_status_t st, const wire::Frame *frame) {
            wire::GetReply reply;
            pmix_status_t status = client::read_reply(st, frame, &reply);
            store::ValuePtr value;
            if (status == PMIX_SUCCESS) {
                client::cache_reply(*session, owned->lookup.target, reply.data);
                if (owned->lookup.key == nullptr && owned->lookup.target.rank != PMIX_RANK_WILDCARD) {
                    client::mark_collected(*session, owned->lookup.target);
                }
                status = client::answer_from(reply.data, owned->lookup.key, &value);
            }
            // What the server could not say may still be known here (job
            // data of a peer, a cached value behind PMIX_GET_REFRESH_CACHE).
            if (status != PMIX_SUCCESS && client::lookup_local(*session, owned->lookup, &value) == PMIX_SUCCESS) {
                status = PMIX_SUCCESS;
            }
            done(status, std::move(value));
        });
}

// PMIX_SUCCESS with *value_p: answered locally. PMIX_OPERATION_IN_PROGRESS:
// the server was asked and `done` will run. Anything else: the final status.
pmix_status_t start_get(const std::shared_ptr<client::Session> &session, const pmix_proc_t *proc,
                        const char *key, const pmix_info_t info[], size_t ninfo, store::ValuePtr *value_p,
                        bool may_wait, GetDone done)
{
    auto owned = std::make_shared<OwnedLookup>();
    pmix_status_t rc = parse(*session, proc, key, info, ninfo, owned.get());
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    // Everything a peer posted lives at the server unless a collecting
    // fence (or an earlier everything-Get) brought it here.
    bool peer_everything = key == nullptr && owned->lookup.target.rank != PMIX_RANK_WILDCARD &&
                           owned->lookup.target.rank != PMIX_RANK_UNDEF &&
                           client::should_ask_server(*session, owned->lookup) &&
                           !client::has_collected(*session, owned->lookup.target);
    bool refresh = owned->refresh && !session->singleton;
    if (!refresh && !peer_everything) {
        rc = client::lookup_local(*session, owned->lookup, value_p);
        if (rc != PMIX_ERR_NOT_FOUND || !client::should_ask_server(*session, owned->lookup)) {
            return rc;
        }
    }
    if (!may_wait && client::check_may_block(*session) != PMIX_SUCCESS) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    rc = ask_server(session, std::move(owned), std::move(done));
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
            pmix_status_t rc = client::host_get(proc, key, info, ninfo, &value);
            if (rc == PMIX_SUCCESS) {
                *val = value.release();
            }
            return rc;
        }
        using ValueLatch = runtime::Latch<store::ValuePtr>;
        auto latch = std::make_shared<ValueLatch>();
        store::ValuePtr value;
        pmix_status_t rc = start_get(session, proc, key, info, ninfo, &value, false,
                                     [latch](pmix_status_t st, store::ValuePtr v) { latch->complete(st, std::move(v)); });
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
        pmix_status_t rc = start_get(session, proc, key, info, ninfo, &value, true, deliver);
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
