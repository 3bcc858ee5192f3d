// Self-access, data and queries: the host's PMIx_Get / Put / Commit /
// Query_info answered from the server's state (see self_access.h).
#include "server/engine/self_access.h"

#include "common/store/resolver.h"
#include "common/values/value_ops.h"
#include "server/engine/self_ops.h"
#include "server/state/node_resources.h"
#include "server/state/server.h"
#include "server/requests/requests.h"
#include "server/sessiondirs/session_dirs.h"

#include <cstring>
#include <new>

namespace pmixpp::server {

pmix_status_t post_self(std::function<void(Server &)> work, std::function<void(pmix_status_t)> fail)
{
    if (current() == nullptr) return PMIX_ERR_INIT;
    return post_later([work = std::move(work), fail = std::move(fail)] {
        if (Server *now = current(); now != nullptr && !now->finalizing) {
            work(*now);
        } else if (fail) {
            fail(PMIX_ERR_INIT);
        }
    });
}

void fail_self_ops(Server &server, pmix_status_t status)
{
    auto pending = std::move(server.self_ops);
    server.self_ops.clear();
    for (auto &[id, fail] : pending) fail(status);
}

bool names_only_self(const Server &server, const pmix_proc_t procs[], std::size_t nprocs)
{
    for (std::size_t i = 0; i < nprocs; ++i) {
        if (!server.is_self(procs[i])) return false;
    }
    return true;
}

bool server_running()
{
    return current() != nullptr;
}

pmix_status_t server_identity(pmix_proc_t *proc_p, uint64_t *generation_p)
{
    if (proc_p == nullptr) return PMIX_ERR_BAD_PARAM;
    return published_identity(proc_p, generation_p) ? PMIX_SUCCESS : PMIX_ERR_INIT;
}

namespace {

// The host asked for a client's PMIX_PROCDIR: whoever knows its name finds
// the directory there (session_dirs.h: it is made when first asked for).
void make_named_proc_dir(Server &server, const pmix_proc_t &target, const char *key)
{
    if (std::strncmp(key, PMIX_PROCDIR, PMIX_MAX_KEYLEN) != 0 || target.rank > PMIX_RANK_VALID) return;
    const std::string nspace(target.nspace, strnlen(target.nspace, PMIX_MAX_NSLEN));
    (void)server.part<sessiondirs::SessionDirs>().make_proc_dir(nspace, target.rank);
}

}  // namespace

pmix_status_t server_get(const pmix_proc_t *target, const char *key, const pmix_info_t qualifiers[],
                         std::size_t nqualifiers, pmix_value_t **value_p)
{
    if (target == nullptr || key == nullptr || value_p == nullptr) return PMIX_ERR_BAD_PARAM;
    if (qualifiers == nullptr && nqualifiers > 0) return PMIX_ERR_BAD_PARAM;
    try {
        return with_server([&](Server &server) {
            const pmix_proc_t self = server.self_proc();
            store::GetRequest request;
            request.target = target;
            request.key = key;
            request.qualifiers = qualifiers;
            request.nqualifiers = nqualifiers;
            request.self = &self;
            request.modex_visibility = PMIX_GLOBAL;
            store::ValuePtr value;
            pmix_status_t rc = store::get(*server.store, request, &value);
            if (rc == PMIX_ERR_NOT_FOUND) rc = get_node_resource(server, request, &value);
            if (rc == PMIX_SUCCESS) make_named_proc_dir(server, *target, key);
            if (rc == PMIX_SUCCESS) *value_p = value.release();
            return rc;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_get_nb(const pmix_proc_t &target, const char *key, const pmix_info_t qualifiers[],
                            std::size_t nqualifiers, GetDone done)
{
    if (qualifiers == nullptr && nqualifiers > 0) return PMIX_ERR_BAD_PARAM;
    if (key != nullptr && strnlen(key, PMIX_MAX_KEYLEN + 1) > PMIX_MAX_KEYLEN) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::GetRequest>();
        request->proc = target;
        request->key = key == nullptr ? "" : key;
        pmix_status_t rc = request->directives.assign_copy(qualifiers, nqualifiers);
        if (rc != PMIX_SUCCESS) return rc;
        auto shared_done = std::make_shared<GetDone>(std::move(done));
        return post_self(
            [request, shared_done](Server &server) {
                make_named_proc_dir(server, request->proc, request->key.c_str());
                start_get(server, server.self_proc(), std::move(*request),
                          track_self_op<wire::GetReply>(server, std::move(*shared_done)));
            },
            [shared_done](pmix_status_t status) {
                wire::GetReply reply;
                reply.status = status;
                if (*shared_done) (*shared_done)(reply);
            });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_put(pmix_scope_t scope, const char *key, const pmix_value_t *value)
{
    if (key == nullptr || *key == '\0' || strnlen(key, PMIX_MAX_KEYLEN + 1) > PMIX_MAX_KEYLEN || value == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (scope != PMIX_LOCAL && scope != PMIX_REMOTE && scope != PMIX_GLOBAL && scope != PMIX_INTERNAL) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        return with_server([&](Server &server) {
            StagedPut staged;
            staged.scope = scope;
            values::load_key(staged.info.key, key);
            const pmix_status_t rc = values::value_xfer(&staged.info.value, value);
            if (rc != PMIX_SUCCESS) return rc;
            // The last put of a key wins, as for a client.
            for (auto &earlier : server.staged_puts) {
                if (std::strncmp(earlier.info.key, key, PMIX_MAX_KEYLEN) != 0) continue;
                values::info_destruct(&earlier.info);
                earlier = staged;
                return PMIX_SUCCESS;
            }
            server.staged_puts.push_back(staged);
            return PMIX_SUCCESS;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_store_internal(const pmix_proc_t &proc, const char *key, const pmix_value_t *value)
{
    try {
        return with_server([&](Server &server) {
            const pmix_proc_t self = server.self_proc();
            char nspace[PMIX_MAX_NSLEN + 1] = {};
            const char *given = proc.nspace[0] != '\0' ? proc.nspace : self.nspace;
            std::memcpy(nspace, given, strnlen(given, PMIX_MAX_NSLEN));
            pmix_info_t item;
            std::memset(&item, 0, sizeof item);
            values::load_key(item.key, key);
            pmix_status_t rc = values::value_xfer(&item.value, value);
            if (rc == PMIX_SUCCESS) {
                rc = proc.rank == PMIX_RANK_WILDCARD || proc.rank == PMIX_RANK_UNDEF
                         ? server.store->put(nspace, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, &item, 1)
                         : server.store->put_modex(nspace, proc.rank, PMIX_INTERNAL, &item, 1);
            }
            values::info_destruct(&item);
            return rc;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

namespace {

pmix_status_t commit_staged(Server &server)
{
    const pmix_proc_t self = server.self_proc();
    for (pmix_scope_t scope : {PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL, PMIX_INTERNAL}) {
        std::vector<pmix_info_t> batch;
        for (const auto &staged : server.staged_puts) {
            if (staged.scope == scope) batch.push_back(staged.info);  // shallow: the store copies
        }
        if (batch.empty()) continue;
        const pmix_status_t rc = server.store->put_modex(self.nspace, self.rank, scope, batch.data(), batch.size());
        if (rc != PMIX_SUCCESS) return rc;
    }
    for (auto &staged : server.staged_puts) values::info_destruct(&staged.info);
    server.staged_puts.clear();
    server.self_committed = true;
    server.waiters.committed(self.nspace, self.rank);
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t server_commit()
{
    try {
        return with_server([](Server &server) { return commit_staged(server); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_query_nb(const pmix_query_t queries[], std::size_t nqueries, QueryDone done)
{
    if (queries == nullptr || nqueries == 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::QueryRequest>();
        pmix_status_t rc = request->queries.assign_copy(queries, nqueries);
        if (rc != PMIX_SUCCESS) return rc;
        auto shared_done = std::make_shared<QueryDone>(std::move(done));
        return post_self(
            [request, shared_done](Server &server) {
                start_query(server, server.self_proc(), std::move(*request),
                            track_self_op<wire::QueryReply>(server, std::move(*shared_done)));
            },
            [shared_done](pmix_status_t status) {
                wire::QueryReply reply;
                reply.status = status;
                if (*shared_done) (*shared_done)(reply);
            });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
