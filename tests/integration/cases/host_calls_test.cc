// What a host does besides launching: queries that reach the server and
// its query upcall, PMIx_server_IOF_deliver while a job runs, and a host
// that drives the server from its own libevent loop (PMIX_EVENT_BASE).
#include "integration/cases/itest_support.h"
#include "integration/host/external_loop.h"
#include "integration/host/host_internal.h"

#include <chrono>

using namespace pmixpp::itest;

namespace {

ExternalLoop *g_loop = nullptr;

// The server goes first: its finalize needs the host's loop to run.
void stop_host_then_loop()
{
    stop_host();
    delete g_loop;
    g_loop = nullptr;
}

// Waits (bounded) for a pmix_op_cbfunc_t the library promised. Given a
// callback, OpenPMIx returns PMIX_SUCCESS and calls back: anything else,
// PMIX_OPERATION_SUCCEEDED too, is a failure for its callers (Open MPI).
pmix_status_t wait_callback(pmix_status_t rc, OpWait *op, int timeout_ms)
{
    if (rc == PMIX_OPERATION_SUCCEEDED) return rc;  // `op` stays alive for a stray callback
    if (rc != PMIX_SUCCESS) {
        delete op;
        return rc;
    }
    std::unique_lock<std::mutex> guard(op->lock);
    if (!op->changed.wait_for(guard, std::chrono::milliseconds(timeout_ms), [op] { return op->done; })) {
        return PMIX_ERR_TIMEOUT;  // op stays alive for a late callback
    }
    const pmix_status_t status = op->status;
    guard.unlock();
    delete op;
    return status;
}

}  // namespace

TestSuite(host_calls, .fini = stop_host_then_loop, .timeout = 240);

// The client's own job size is known locally; the other job's, the
// namespaces and the host's own key need the server (and its upcall).
Test(host_calls, query_namespaces_job_sizes_and_the_host_upcall)
{
    start_host();
    register_local_job("itest-query-other", 5);  // registered, never started
    const JobLayout layout = register_local_job("itest-query", 2);
    Launch launch;
    launch.program = client_path("itest_query");
    launch.args = {"--job-size", "2", "--other", "itest-query-other", "--other-size", "5"};
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-query", layout, launch, &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 2);
    cr_expect_geq(host().counters().queries.load(), 2,
                  "query upcalls: the host key and the unknown key both reach the host");
}

// PMIX_SERVER_SHARE_TOPOLOGY: the client finds the server's topology XML in
// its node's data and loads its topology from there.
Test(host_calls, shared_topology_reaches_the_client)
{
    HostOptions options;
    options.share_topology = true;
    start_host(options);
    const JobLayout layout = register_local_job("itest-topo", 2);
    Launch launch;
    launch.program = client_path("itest_topology");
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-topo", layout, launch, &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 2);
}

// Output delivered while a job runs and no tool pulls it: the call is
// accepted (the output kept for later pulls) without disturbing the job.
Test(host_calls, iof_deliver_while_a_job_runs)
{
    start_host();
    const JobLayout layout = register_local_job("itest-iof", 4);
    Launch launch = exchange_launch(layout, 2 * layout.job_size);
    launch.args.push_back("--hold");
    launch.args.push_back(host().tmpdir());
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-iof", layout, launch, &pids), PMIX_SUCCESS);
    const bool ready = wait_until_ready(host().tmpdir(), layout, kJobTimeoutMs);
    if (ready) {
        pmix_proc_t source;
        PMIX_LOAD_PROCID(&source, "itest-iof", 1);
        char text[] = "output of rank 1\n";
        pmix_byte_object_t bytes = {text, sizeof(text) - 1};
        auto *op = new OpWait;
        pmix_status_t rc =
            PMIx_server_IOF_deliver(&source, PMIX_FWD_STDOUT_CHANNEL, &bytes, nullptr, 0, op_wait_callback, op);
        rc = wait_callback(rc, op, 20000);
        cr_expect_eq(rc, PMIX_SUCCESS, "PMIx_server_IOF_deliver with a callback: %s", status_name(rc).c_str());
        rc = PMIx_server_IOF_deliver(&source, PMIX_FWD_STDERR_CHANNEL, &bytes, nullptr, 0, nullptr, nullptr);
        cr_expect_eq(rc, PMIX_OPERATION_SUCCEEDED, "PMIx_server_IOF_deliver without a callback: %s",
                     status_name(rc).c_str());
        rc = PMIx_server_IOF_deliver(nullptr, PMIX_FWD_STDOUT_CHANNEL, &bytes, nullptr, 0, nullptr, nullptr);
        cr_expect_eq(rc, PMIX_ERR_BAD_PARAM, "no source: %s", status_name(rc).c_str());
    }
    release(host().tmpdir());
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 4);
    cr_assert(ready, "the job never became ready");
}

// The host owns the event base and its thread; the library must run every
// upcall there and still carry the whole exchange.
Test(host_calls, external_event_base_runs_the_exchange)
{
    g_loop = new ExternalLoop;
    cr_assert(g_loop->start(), "cannot start a libevent loop");
    HostOptions options;
    options.event_base = g_loop->base();
    start_host(options);
    host().expect_upcalls_on(g_loop->thread_id());
    const JobLayout layout = register_local_job("itest-evbase", 4);
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-evbase", layout, exchange_launch(layout, 2 * layout.job_size), &pids),
                 PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 4);
    cr_expect_eq(host().counters().connected.load(), 4, "client_connected upcalls");
    cr_expect_eq(host().counters().finalized.load(), 4, "client_finalized upcalls");
    cr_expect_eq(host().counters().upcalls_off_loop.load(), 0, "upcalls that ran off the host's loop thread");
    cr_expect_eq(host().deregister_job("itest-evbase"), PMIX_SUCCESS);
}
