// PMIx_Put, PMIx_Commit and PMIx_Store_internal: a process's own data goes
// into the local store at once (so PMIx_Get of self is local) and to the
// server at commit (sent, not waited for), sorted by scope. Get and Fence are in get.cc / fence.cc.
#include <pmix.h>

#include <cstring>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "client/core/fence_arena.h"
#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/values/value_ops.h"

#include <pmixpp/util.hpp>

using namespace pmixpp;

namespace {

using pmixpp::util::valid_key;

// One info owning a copy of val.
struct OwnedInfo {
    pmix_info_t info;
    OwnedInfo() { std::memset(&info, 0, sizeof info); }
    ~OwnedInfo() { values::info_destruct(&info); }
    OwnedInfo(const OwnedInfo &) = delete;
    OwnedInfo &operator=(const OwnedInfo &) = delete;
    pmix_status_t load(const char *key, const pmix_value_t *val)
    {
        values::load_key(info.key, key);
        return values::value_xfer(&info.value, val);
    }
};

// The uncommitted keys' current values, grouped by scope.
pmix_status_t collect_puts(const client::Session &session, const std::map<std::string, pmix_scope_t> &keys,
                           wire::CommitRequest *request_p)
{
    std::map<pmix_scope_t, std::vector<std::pair<std::string, store::ValuePtr>>> by_scope;
    for (const auto &[key, scope] : keys) {
        store::ValuePtr value;
        if (session.store->fetch_modex(session.self.nspace, session.self.rank, PMIX_GLOBAL, key.c_str(), &value) ==
            PMIX_SUCCESS) {
            by_scope[scope].emplace_back(key, std::move(value));
        }
    }
    auto fill = [&](pmix_scope_t scope, wire::InfoArray *array) {
        auto &entries = by_scope[scope];
        pmix_status_t rc = array->allocate(entries.size());
        for (size_t i = 0; rc == PMIX_SUCCESS && i < entries.size(); ++i) {
            values::load_key((*array)[i].key, entries[i].first.c_str());
            rc = values::value_xfer(&(*array)[i].value, entries[i].second.get());
        }
        return rc;
    };
    pmix_status_t rc = fill(PMIX_LOCAL, &request_p->local);
    if (rc == PMIX_SUCCESS) rc = fill(PMIX_REMOTE, &request_p->remote);
    if (rc == PMIX_SUCCESS) rc = fill(PMIX_GLOBAL, &request_p->global);
    return rc;
}

pmix_status_t commit(const std::shared_ptr<client::Session> &session)
{
    std::map<std::string, pmix_scope_t> keys;
    {
        std::lock_guard lock(session->put_mutex);
        keys.swap(session->uncommitted);
    }
    if (session->singleton) {
        return PMIX_SUCCESS;
    }
    wire::CommitRequest request;
    pmix_status_t rc = collect_puts(*session, keys, &request);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    // Sent, not waited for (as OpenPMIx does), and with no reply asked for:
    // the server stores a commit before it reads the next request of this
    // connection, and our requests leave in the order they were made, so a
    // Fence or Get that follows already sees the data. A reply would wake
    // our progress thread for nothing, in the middle of the next fence; the
    // server logs a commit it could not store instead.
    request.reply_wanted = false;
    client::arena_note_commit(*session, request);  // the rank's fence arena slot, if any
    wire::Bytes payload;
    rc = wire::encode_to_bytes(request, &payload);
    return rc != PMIX_SUCCESS ? rc : client::send_oneway(session, payload);
}

}  // namespace

pmix_status_t PMIx_Put(pmix_scope_t scope, const char key[], pmix_value_t *val)
{
    auto session = client::current_session();
    if (!session) {
        try {
            return client::host_mode() ? client::host_put(scope, key, val) : PMIX_ERR_INIT;
        } catch (const std::bad_alloc &) {
            return PMIX_ERR_NOMEM;
        }
    }
    if (!valid_key(key) || val == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (scope == PMIX_SCOPE_UNDEF) {
        scope = PMIX_GLOBAL;
    }
    if (scope != PMIX_LOCAL && scope != PMIX_REMOTE && scope != PMIX_GLOBAL && scope != PMIX_INTERNAL) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        OwnedInfo item;
        pmix_status_t rc = item.load(key, val);
        if (rc == PMIX_SUCCESS) {
            rc = session->store->put_modex(session->self.nspace, session->self.rank, scope, &item.info, 1);
        }
        if (rc == PMIX_SUCCESS && scope != PMIX_INTERNAL) {
            std::lock_guard lock(session->put_mutex);
            session->uncommitted[key] = scope;
        }
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Commit(void)
{
    auto session = client::current_session();
    if (!session) {
        try {
            return client::host_mode() ? client::host_commit() : PMIX_ERR_INIT;
        } catch (const std::bad_alloc &) {
            return PMIX_ERR_NOMEM;
        }
    }
    try {
        return commit(session);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// Stored as the proc's own (internal-scope) data, or as job data for
// PMIX_RANK_WILDCARD, so that a later PMIx_Get finds it locally.
pmix_status_t PMIx_Store_internal(const pmix_proc_t *proc, const char key[], pmix_value_t *val)
{
    auto session = client::current_session();
    if (proc == nullptr || !valid_key(key) || val == nullptr) {
        return session || client::host_mode() ? PMIX_ERR_BAD_PARAM : PMIX_ERR_INIT;
    }
    if (!session) {
        return client::host_mode() ? client::host_store_internal(*proc, key, val) : PMIX_ERR_INIT;
    }
    const char *nspace = proc->nspace[0] != '\0' ? proc->nspace : session->self.nspace;
    char bounded[PMIX_MAX_NSLEN + 1] = {};
    std::memcpy(bounded, nspace, strnlen(nspace, PMIX_MAX_NSLEN));  // stays NUL-terminated
    try {
        OwnedInfo item;
        pmix_status_t rc = item.load(key, val);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        if (proc->rank == PMIX_RANK_WILDCARD || proc->rank == PMIX_RANK_UNDEF) {
            return session->store->put(bounded, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, &item.info, 1);
        }
        return session->store->put_modex(bounded, proc->rank, PMIX_INTERNAL, &item.info, 1);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
