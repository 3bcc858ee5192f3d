// The client without a server (singleton mode), reference-counted init, and
// argument validation of the client API.
#include <criterion/criterion.h>

#include <pmix.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <cstring>
#include <string>

#include "client/fake_server.h"
#include "framework/src/selected_modules.h"

using client_test::string_of;

namespace {

void clear_server_env()
{
    for (const char *name : {"PMIXPP_SERVER_URIS", "PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                             "PMIX_SERVER_URI2", "PMIX_SERVER_URI21", "PMIX_NAMESPACE", "PMIX_RANK"}) {
        unsetenv(name);
    }
}

pmix_proc_t init_singleton()
{
    clear_server_env();
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    return me;
}

uint32_t job_u32(const pmix_proc_t &me, const char *key)
{
    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&job, key, nullptr, 0, &val), PMIX_SUCCESS, "%s", key);
    cr_assert_eq(val->type, PMIX_UINT32, "%s", key);
    uint32_t out = val->data.uint32;
    PMIX_VALUE_RELEASE(val);
    return out;
}

int g_fence_calls = 0;
void fence_done(pmix_status_t status, void *cbdata)
{
    *static_cast<pmix_status_t *>(cbdata) = status;
    ++g_fence_calls;
}

}  // namespace

Test(client_singleton, init_put_get_fence_finalize)
{
    pmix_proc_t me = init_singleton();
    cr_assert_eq(PMIx_Initialized(), 1);
    cr_assert(std::strncmp(me.nspace, "singleton.", 10) == 0, "nspace %s", me.nspace);
    cr_assert_eq(me.rank, 0u);
    cr_assert_eq(job_u32(me, PMIX_JOB_SIZE), 1u);
    cr_assert_eq(job_u32(me, PMIX_UNIV_SIZE), 1u);
    cr_assert_eq(job_u32(me, PMIX_LOCAL_SIZE), 1u);

    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&me, PMIX_LOCAL_RANK, nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->data.uint16, 0);
    PMIX_VALUE_RELEASE(val);

    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, "hello", PMIX_STRING);
    cr_assert_eq(PMIx_Put(PMIX_GLOBAL, "app.key", &v), PMIX_SUCCESS);
    PMIX_VALUE_DESTRUCT(&v);
    cr_assert_eq(PMIx_Commit(), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Fence(nullptr, 0, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Get(&me, "app.key", nullptr, 0, &val), PMIX_SUCCESS);
    const std::string got = string_of(val);  // named: Criterion compares after the full expression
    cr_assert_str_eq(got.c_str(), "hello");
    PMIX_VALUE_RELEASE(val);

    // A key nobody put: not found, without any server to ask.
    cr_assert_eq(PMIx_Get(&me, "nobody.put.this", nullptr, 0, &val), PMIX_ERR_NOT_FOUND);

    pmix_status_t fence_status = PMIX_ERROR;
    cr_assert_eq(PMIx_Fence_nb(nullptr, 0, nullptr, 0, fence_done, &fence_status), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Initialized(), 0);
    cr_assert_eq(g_fence_calls, 1, "the fence callback ran before finalize returned");
    cr_assert_eq(fence_status, PMIX_SUCCESS);
}

// Open MPI's pattern: Init, Init, Finalize, and it keeps using PMIx.
// PMIx_Get(NULL, PMIX_PROCID): the caller's own id, in every role (a host's
// is in host_as_client_test.cc; a connected client's takes this same path).
Test(client_singleton, own_id_of_a_null_proc)
{
    pmix_proc_t me = init_singleton();
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(nullptr, PMIX_PROCID, nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->type, PMIX_PROC);
    cr_expect_str_eq(val->data.proc->nspace, me.nspace);
    cr_expect_eq(val->data.proc->rank, me.rank);
    PMIX_VALUE_RELEASE(val);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_singleton, init_twice_finalize_once_keeps_working)
{
    pmix_proc_t first = init_singleton();
    pmix_proc_t second;
    cr_assert_eq(PMIx_Init(&second, nullptr, 0), PMIX_SUCCESS);
    cr_assert_str_eq(first.nspace, second.nspace);
    cr_assert_eq(first.rank, second.rank);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Initialized(), 1);

    pmix_value_t v;
    uint32_t n = 7;
    PMIX_VALUE_LOAD(&v, &n, PMIX_UINT32);
    cr_assert_eq(PMIx_Store_internal(&first, "opal.puri", &v), PMIX_SUCCESS);
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&first, "opal.puri", nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->data.uint32, 7u);
    PMIX_VALUE_RELEASE(val);

    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Initialized(), 0);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_ERR_INIT);

    // And the library can be initialized again.
    pmix_proc_t again;
    cr_assert_eq(PMIx_Init(&again, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_singleton, calls_before_init_say_so)
{
    clear_server_env();
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, "x", PMIX_STRING);
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Initialized(), 0);
    cr_assert_eq(PMIx_Put(PMIX_GLOBAL, "k", &v), PMIX_ERR_INIT);
    cr_assert_eq(PMIx_Commit(), PMIX_ERR_INIT);
    cr_assert_eq(PMIx_Get(nullptr, "k", nullptr, 0, &val), PMIX_ERR_INIT);
    cr_assert_eq(PMIx_Fence(nullptr, 0, nullptr, 0), PMIX_ERR_INIT);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_ERR_INIT);
    cr_assert_eq(PMIx_Abort(1, "x", nullptr, 0), PMIX_ERR_INIT);
    PMIX_VALUE_DESTRUCT(&v);
}

Test(client_singleton, bad_arguments_are_refused)
{
    pmix_proc_t me = init_singleton();
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, "x", PMIX_STRING);
    pmix_value_t *val = nullptr;
    std::string long_key(PMIX_MAX_KEYLEN + 5, 'k');
    cr_assert_eq(PMIx_Put(PMIX_GLOBAL, nullptr, &v), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Put(PMIX_GLOBAL, "k", nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Put(PMIX_GLOBAL, long_key.c_str(), &v), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Put(static_cast<pmix_scope_t>(77), "k", &v), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Get(&me, "k", nullptr, 0, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Get(&me, "k", nullptr, 3, &val), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Get_nb(&me, "k", nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Fence(nullptr, 2, nullptr, 0), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Store_internal(nullptr, "k", &v), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Resolve_peers(nullptr, nullptr, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Resolve_nodes(nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Register_event_handler(nullptr, 0, nullptr, 0, nullptr, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Query_info(nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Deregister_event_handler(12345, nullptr, nullptr), PMIX_ERR_NOT_FOUND);
    // A singleton has nobody to abort it: it decides itself.
    cr_assert_eq(PMIx_Abort(1, "bye", nullptr, 0), PMIX_ERR_UNREACH);
    PMIX_VALUE_DESTRUCT(&v);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_singleton, get_without_key_returns_every_value)
{
    pmix_proc_t me = init_singleton();
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, "x", PMIX_STRING);
    cr_assert_eq(PMIx_Put(PMIX_LOCAL, "mine.a", &v), PMIX_SUCCESS);
    PMIX_VALUE_DESTRUCT(&v);
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&me, nullptr, nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->type, PMIX_DATA_ARRAY);
    cr_assert_eq(val->data.darray->type, PMIX_INFO);
    const auto *infos = static_cast<const pmix_info_t *>(val->data.darray->array);
    bool found = false;
    for (size_t i = 0; i < val->data.darray->size; ++i) {
        found = found || std::strcmp(infos[i].key, "mine.a") == 0;
    }
    cr_assert(found, "the put key is missing from the all-keys answer");
    PMIX_VALUE_RELEASE(val);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_singleton, resolve_peers_nodes_and_query)
{
    pmix_proc_t me = init_singleton();
    pmix_proc_t *procs = nullptr;
    size_t nprocs = 0;
    cr_assert_eq(PMIx_Resolve_peers(nullptr, me.nspace, &procs, &nprocs), PMIX_SUCCESS);
    cr_assert_eq(nprocs, 1u);
    cr_assert_str_eq(procs[0].nspace, me.nspace);
    cr_assert_eq(procs[0].rank, 0u);
    PMIX_PROC_FREE(procs, nprocs);

    char *nodes = nullptr;
    cr_assert_eq(PMIx_Resolve_nodes(me.nspace, &nodes), PMIX_SUCCESS);
    cr_assert(nodes != nullptr && nodes[0] != '\0');
    free(nodes);

    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    pmix_status_t appended;
    PMIX_ARGV_APPEND(appended, query.keys, PMIX_JOB_SIZE);
    cr_assert_eq(appended, PMIX_SUCCESS);
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_assert_eq(PMIx_Query_info(&query, 1, &results, &nresults), PMIX_SUCCESS);
    cr_assert_eq(nresults, 1u);
    cr_assert_str_eq(results[0].key, PMIX_JOB_SIZE);
    cr_assert_eq(results[0].value.data.uint32, 1u);
    PMIX_INFO_FREE(results, nresults);
    PMIX_QUERY_DESTRUCT(&query);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

namespace {

std::mutex g_mutex;
std::condition_variable g_cond;
int g_calls[3];
int g_order[3];
int g_next = 0;

void handler_a(size_t, pmix_status_t, const pmix_proc_t *, pmix_info_t[], size_t, pmix_info_t *, size_t,
               pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    g_order[g_next++] = 0;
    ++g_calls[0];
    cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, cbdata);
}

void handler_default(size_t, pmix_status_t, const pmix_proc_t *, pmix_info_t[], size_t, pmix_info_t *, size_t,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    g_order[g_next++] = 1;
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, nullptr, 0, nullptr, nullptr, cbdata);
    std::lock_guard lock(g_mutex);
    ++g_calls[1];
    g_cond.notify_all();
}

void handler_after_complete(size_t, pmix_status_t, const pmix_proc_t *, pmix_info_t[], size_t, pmix_info_t *, size_t,
                            pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    ++g_calls[2];
    cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, cbdata);
}

void notified(pmix_status_t, void *cbdata)
{
    *static_cast<int *>(cbdata) = 1;
}

}  // namespace

// Specific handlers run before default ones; ACTION_COMPLETE ends the chain.
Test(client_singleton, local_events_run_the_handler_chain)
{
    init_singleton();
    pmix_status_t code = PMIX_ERR_PROC_ABORTED;
    // Registered first but default: must run after the specific handler.
    cr_assert_geq(PMIx_Register_event_handler(nullptr, 0, nullptr, 0, handler_default, nullptr, nullptr), 0);
    pmix_info_t last;
    bool yes = true;
    PMIX_INFO_LOAD(&last, PMIX_EVENT_HDLR_LAST, &yes, PMIX_BOOL);
    cr_assert_geq(PMIx_Register_event_handler(&code, 1, &last, 1, handler_after_complete, nullptr, nullptr), 0);
    PMIX_INFO_DESTRUCT(&last);
    pmix_status_t ref = PMIx_Register_event_handler(&code, 1, nullptr, 0, handler_a, nullptr, nullptr);
    cr_assert_geq(ref, 0);

    int sent = 0;
    cr_assert_eq(PMIx_Notify_event(code, nullptr, PMIX_RANGE_PROC_LOCAL, nullptr, 0, notified, &sent), PMIX_SUCCESS);
    {
        std::unique_lock lock(g_mutex);
        cr_assert(g_cond.wait_for(lock, std::chrono::seconds(30), [] { return g_calls[1] > 0; }),
                  "the default handler never ran");
    }
    cr_assert_eq(PMIx_Deregister_event_handler(static_cast<size_t>(ref), nullptr, nullptr), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    // Finalize ran after everything queued on the progress thread.
    cr_assert_eq(sent, 1);
    cr_assert_eq(g_calls[0], 1);
    cr_assert_eq(g_calls[1], 1);
    cr_assert_eq(g_calls[2], 0, "a handler ran after ACTION_COMPLETE");
    cr_assert_eq(g_order[0], 0);
    cr_assert_eq(g_order[1], 1);
}

// A session holds the client's frameworks open, so a server finalizing in the
// same process cannot unload the components under the client's store.
Test(singleton, session_holds_its_frameworks_until_the_last_finalize)
{
    const int before = pmixpp::framework::users("gds");
    init_singleton();
    cr_expect_eq(pmixpp::framework::users("gds"), before + 1);
    cr_expect_eq(pmixpp::framework::users("ptl"), pmixpp::framework::users("gds"));
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(pmixpp::framework::users("gds"), before);
}
