// Host mode: a process that runs the PMIx server (and is nobody's client)
// uses the client API on its own server's state, as the proc
// PMIX_SERVER_NSPACE / PMIX_SERVER_RANK.
#include <criterion/criterion.h>

#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "client/fake_server.h"
#include "client/host_fixture.h"

using client_test::string_of;
using namespace host_test;

namespace {

std::mutex g_mutex;
std::condition_variable g_cond;
int g_events = 0;
pmix_proc_t g_event_source{};

void on_event(size_t, pmix_status_t, const pmix_proc_t *source, pmix_info_t[], size_t, pmix_info_t *, size_t,
              pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, nullptr, 0, nullptr, nullptr, cbdata);
    std::lock_guard lock(g_mutex);
    g_event_source = *source;
    ++g_events;
    g_cond.notify_all();
}

}  // namespace

Test(client_host_mode, initialized_and_init_name_the_server_proc)
{
    cr_assert_eq(PMIx_Initialized(), 0);
    start_server();
    cr_assert_eq(PMIx_Initialized(), 1, "PMIx_server_init makes PMIx_Initialized true (as OpenPMIx)");
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    cr_assert_str_eq(me.nspace, "hostsrv");
    cr_assert_eq(me.rank, kServerRank);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Initialized(), 1, "the server still runs");
    stop_server();
    cr_assert_eq(PMIx_Initialized(), 0);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_ERR_INIT);
}

Test(client_host_mode, get_put_commit_fence_on_the_server_state)
{
    start_server();
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, kJob, PMIX_RANK_WILDCARD);
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&job, PMIX_JOB_SIZE, nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->type, PMIX_UINT32);
    cr_assert_eq(val->data.uint32, 2u);
    PMIX_VALUE_RELEASE(val);

    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, "from-host", PMIX_STRING);
    cr_assert_eq(PMIx_Put(PMIX_GLOBAL, "host.key", &v), PMIX_SUCCESS);
    PMIX_VALUE_DESTRUCT(&v);
    cr_assert_eq(PMIx_Commit(), PMIX_SUCCESS);
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Get(&me, "host.key", nullptr, 0, &val), PMIX_SUCCESS);
    const std::string got = string_of(val);  // named: Criterion compares after the full expression
    cr_assert_str_eq(got.c_str(), "from-host");
    PMIX_VALUE_RELEASE(val);

    // A fence of the host alone has nobody to wait for.
    cr_assert_eq(PMIx_Fence(&me, 1, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    stop_server();
}

Test(client_host_mode, resolve_and_query_from_the_server_store)
{
    start_server();
    pmix_proc_t *procs = nullptr;
    size_t nprocs = 0;
    cr_assert_eq(PMIx_Resolve_peers(kHost, kJob, &procs, &nprocs), PMIX_SUCCESS);
    cr_assert_eq(nprocs, 2u);
    cr_assert_str_eq(procs[0].nspace, kJob);
    cr_assert_eq(procs[1].rank, 1u);
    PMIX_PROC_FREE(procs, nprocs);
    char *nodes = nullptr;
    cr_assert_eq(PMIx_Resolve_nodes(kJob, &nodes), PMIX_SUCCESS);
    cr_assert_str_eq(nodes, kHost);
    free(nodes);
    cr_assert_eq(PMIx_Resolve_nodes("no.such.job", &nodes), PMIX_ERR_NOT_FOUND);

    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    char *keys[] = {const_cast<char *>(PMIX_QUERY_NAMESPACES), nullptr};
    query.keys = keys;
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_assert_eq(PMIx_Query_info(&query, 1, &results, &nresults), PMIX_SUCCESS);
    cr_assert_geq(nresults, 1u);
    cr_assert_str_eq(results[0].key, PMIX_QUERY_NAMESPACES);
    std::string namespaces = string_of(&results[0].value);
    cr_assert(namespaces.find(kJob) != std::string::npos, "namespaces: %s", namespaces.c_str());
    PMIX_INFO_FREE(results, nresults);
    stop_server();
}

Test(client_host_mode, host_events_reach_host_handlers)
{
    start_server();
    pmix_status_t code = PMIX_EXTERNAL_ERR_BASE - 21;
    pmix_status_t ref = PMIx_Register_event_handler(&code, 1, nullptr, 0, on_event, nullptr, nullptr);
    cr_assert_geq(ref, 0);
    cr_assert_eq(PMIx_Notify_event(code, nullptr, PMIX_RANGE_PROC_LOCAL, nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
    {
        std::unique_lock lock(g_mutex);
        cr_assert(g_cond.wait_for(lock, std::chrono::seconds(30), [] { return g_events == 1; }));
        cr_assert_str_eq(g_event_source.nspace, "hostsrv");
        cr_assert_eq(g_event_source.rank, kServerRank);
    }
    cr_assert_eq(PMIx_Deregister_event_handler(static_cast<size_t>(ref), nullptr, nullptr), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Deregister_event_handler(static_cast<size_t>(ref), nullptr, nullptr), PMIX_ERR_NOT_FOUND);
    stop_server();
}

namespace {

std::string g_keys_asked_of_host;

// Answers every key it is given with the string "from-host".
pmix_status_t host_query(pmix_proc_t *, pmix_query_t *queries, size_t nqueries, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    size_t nkeys = 0;
    for (size_t q = 0; q < nqueries; ++q) {
        for (char **key = queries[q].keys; key != nullptr && *key != nullptr; ++key, ++nkeys) {
            g_keys_asked_of_host += std::string(g_keys_asked_of_host.empty() ? "" : ",") + *key;
        }
    }
    pmix_info_t *answers = nullptr;
    PMIX_INFO_CREATE(answers, nkeys);
    size_t next = 0;
    for (size_t q = 0; q < nqueries; ++q) {
        for (char **key = queries[q].keys; key != nullptr && *key != nullptr; ++key) {
            PMIX_INFO_LOAD(&answers[next++], *key, "from-host", PMIX_STRING);
        }
    }
    cbfunc(PMIX_SUCCESS, answers, nkeys, cbdata, nullptr, nullptr);
    PMIX_INFO_FREE(answers, nkeys);
    return PMIX_SUCCESS;
}

size_t count_key(const pmix_info_t *results, size_t n, const char *key)
{
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) count += std::strcmp(results[i].key, key) == 0 ? 1 : 0;
    return count;
}

struct MonitorAnswer {
    std::mutex lock;
    std::condition_variable changed;
    bool called = false;
    pmix_status_t status = PMIX_ERROR;
};

void on_monitor_answer(pmix_status_t status, pmix_info_t *, size_t, void *cbdata, pmix_release_cbfunc_t release,
                       void *release_cbdata)
{
    auto *answer = static_cast<MonitorAnswer *>(cbdata);
    {
        std::lock_guard guard(answer->lock);
        answer->called = true;
        answer->status = status;
    }
    answer->changed.notify_all();
    if (release != nullptr) release(release_cbdata);
}

pmix_status_t cancel_monitor(const char *id)
{
    pmix_info_t cancel;
    PMIX_INFO_LOAD(&cancel, PMIX_MONITOR_CANCEL, id, PMIX_STRING);
    const pmix_status_t rc = PMIx_Process_monitor(&cancel, PMIX_SUCCESS, nullptr, 0, nullptr, nullptr);
    PMIX_INFO_DESTRUCT(&cancel);
    return rc;
}

}  // namespace

// The library answers the namespaces and the ABI versions itself; the host is
// asked only for the rest, so no key is listed twice (OpenPMIx's abi_with_init
// example saw PMIX_QUERY_NAMESPACES answered by both).
Test(client_host_mode, host_is_asked_only_what_the_library_cannot_answer)
{
    pmix_server_module_t module{};
    module.query = host_query;
    start_server(&module);
    pmix_query_t queries[2];
    PMIX_QUERY_CONSTRUCT(&queries[0]);
    PMIX_QUERY_CONSTRUCT(&queries[1]);
    char *first[] = {const_cast<char *>(PMIX_QUERY_STABLE_ABI_VERSION), const_cast<char *>(PMIX_QUERY_NAMESPACES),
                     const_cast<char *>("site.key"), nullptr};
    char *second[] = {const_cast<char *>(PMIX_QUERY_PROVISIONAL_ABI_VERSION), nullptr};
    queries[0].keys = first;
    queries[1].keys = second;
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_assert_eq(PMIx_Query_info(queries, 2, &results, &nresults), PMIX_SUCCESS);
    cr_expect_str_eq(g_keys_asked_of_host.c_str(), "site.key");
    cr_expect_eq(nresults, 4u);
    for (const char *key :
         {PMIX_QUERY_STABLE_ABI_VERSION, PMIX_QUERY_PROVISIONAL_ABI_VERSION, PMIX_QUERY_NAMESPACES, "site.key"}) {
        cr_expect_eq(count_key(results, nresults, key), 1u, "%s answered %zu times", key,
                     count_key(results, nresults, key));
    }
    PMIX_INFO_FREE(results, nresults);
    stop_server();
}

// The host's own monitors: answered by its server (no host module here, so
// the server's own monitors), the _nb form through its callback.
Test(client_host_mode, process_monitor_asks_the_own_server)
{
    start_server();
    pmix_info_t monitor, period;
    const bool yes = true;
    const uint32_t seconds = 60;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&period, PMIX_MONITOR_HEARTBEAT_TIME, &seconds, PMIX_UINT32);
    MonitorAnswer answer;
    cr_assert_eq(PMIx_Process_monitor_nb(&monitor, PMIX_SUCCESS, &period, 1, on_monitor_answer, &answer), PMIX_SUCCESS);
    {
        std::unique_lock lock(answer.lock);
        cr_assert(answer.changed.wait_for(lock, std::chrono::seconds(30), [&] { return answer.called; }));
        cr_expect_eq(answer.status, PMIX_SUCCESS, "monitor: %s", PMIx_Error_string(answer.status));
    }
    PMIx_Heartbeat();
    cr_expect_eq(cancel_monitor(nullptr), PMIX_SUCCESS);  // every monitor of the host process
    cr_expect_eq(cancel_monitor(nullptr), PMIX_ERR_NOT_FOUND);
    PMIX_INFO_DESTRUCT(&monitor);
    PMIX_INFO_DESTRUCT(&period);
    stop_server();
}

// A tool without a server to connect to that runs a server itself (a
// launcher) asks that server, not nobody.
Test(client_host_mode, process_monitor_of_a_standalone_tool_that_runs_the_server)
{
    start_server();
    pmix_info_t standalone;
    const bool yes = true;
    PMIX_INFO_LOAD(&standalone, PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
    pmix_proc_t me{};
    const pmix_status_t rc = PMIx_tool_init(&me, &standalone, 1);
    PMIX_INFO_DESTRUCT(&standalone);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIx_tool_init: %s", PMIx_Error_string(rc));
    cr_expect_eq(cancel_monitor("nothing"), PMIX_ERR_NOT_FOUND);
    PMIx_tool_finalize();
    stop_server();
}
