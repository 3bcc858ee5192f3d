// PMIx_Process_monitor end to end: real clients (clients/monitor.c) watched
// by the server's own heartbeat and file monitors, alerts reaching both the
// client's handler and a handler the host registered in its own process,
// cancel, bad requests, monitors stopped when a client finalizes or exits,
// the host's monitor upcall taking (or declining) requests, and the host
// process monitoring itself. Timings are one-sided and generous: the only
// bounds are "no alert before it can be due" and "an alert within 15 s".
#include "integration/cases/itest_support.h"

#include <pmix.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace pmixpp::itest;

namespace {

// Alerts the host's own handler received.
struct HostAlerts {
    std::mutex lock;
    std::vector<std::pair<pmix_status_t, pmix_proc_t>> seen;  // code, source

    int count(pmix_status_t code, const char *nspace)
    {
        std::lock_guard<std::mutex> guard(lock);
        int n = 0;
        for (const auto &[status, source] : seen) {
            n += status == code && std::strncmp(source.nspace, nspace, PMIX_MAX_NSLEN) == 0 ? 1 : 0;
        }
        return n;
    }
};
HostAlerts g_host_alerts;

void on_host_alert(size_t, pmix_status_t status, const pmix_proc_t *source, pmix_info_t[], size_t, pmix_info_t[],
                   size_t, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    {
        std::lock_guard<std::mutex> guard(g_host_alerts.lock);
        g_host_alerts.seen.emplace_back(status, source != nullptr ? *source : pmix_proc_t{});
    }
    if (cbfunc != nullptr) cbfunc(PMIX_EVENT_ACTION_COMPLETE, nullptr, 0, nullptr, nullptr, cbdata);
}

void register_host_alerts()
{
    pmix_status_t codes[2] = {PMIX_MONITOR_HEARTBEAT_ALERT, PMIX_MONITOR_FILE_ALERT};
    const pmix_status_t rc = PMIx_Register_event_handler(codes, 2, nullptr, 0, on_host_alert, nullptr, nullptr);
    cr_assert(rc >= 0, "the host's PMIx_Register_event_handler: %s", PMIx_Error_string(rc));
}

bool wait_for_host_alert(pmix_status_t code, const char *nspace, int timeout_ms)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (g_host_alerts.count(code, nspace) == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return g_host_alerts.count(code, nspace) > 0;
}

std::string scratch_file(const char *name)
{
    const std::string path = host().tmpdir() + "/" + name;
    std::ofstream(path) << "start\n";
    return path;
}

// One monitor client in a job of its own; fails the test unless it succeeded.
ProcResult run_client(const char *nspace, const std::vector<std::string> &args)
{
    register_local_job(nspace, 1);
    Launch launch;
    launch.program = client_path("itest_monitor");
    launch.args = args;
    pid_t pid = -1;
    cr_assert_eq(host().spawn(nspace, 0, launch, &pid), PMIX_SUCCESS);
    const auto results = host().wait({pid}, kJobTimeoutMs);
    cr_assert_eq(results.size(), 1u);
    expect_all_ok(results, 1);
    cr_assert_eq(host().deregister_job(nspace), PMIX_SUCCESS);
    return results[0];
}

bool mentions(const ProcResult &result, const std::string &text)
{
    return result.output.find(text) != std::string::npos;
}

// The test host's monitor upcall: takes heartbeat monitors itself (answers
// at once, from inside the upcall, with one result) and declines file
// monitors later, from another thread, so that the server runs them.
std::atomic<int> g_upcalls{0};
std::atomic<int> g_upcalls_from_job{0};
const char *const kHostedJob = "monitor-hosted";

struct Declined {
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
};

void decline_later(void *arg)
{
    auto *declined = static_cast<Declined *>(arg);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    declined->cbfunc(PMIX_ERR_NOT_SUPPORTED, nullptr, 0, declined->cbdata, nullptr, nullptr);
    delete declined;
}

void free_results(void *cbdata)
{
    auto *info = static_cast<pmix_info_t *>(cbdata);
    PMIX_INFO_FREE(info, 1);
}

pmix_status_t test_monitor_upcall(const pmix_proc_t *requestor, const pmix_info_t *monitor, pmix_status_t,
                                  const pmix_info_t[], size_t, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    ++g_upcalls;
    if (requestor != nullptr && std::strncmp(requestor->nspace, kHostedJob, PMIX_MAX_NSLEN) == 0 &&
        requestor->rank == 0) {
        ++g_upcalls_from_job;
    }
    if (PMIX_CHECK_KEY(monitor, PMIX_MONITOR_FILE)) {
        Host::current()->run_later(decline_later, new Declined{cbfunc, cbdata});
        return PMIX_SUCCESS;
    }
    pmix_info_t *results = nullptr;
    PMIX_INFO_CREATE(results, 1);
    uint32_t answer = 42;
    PMIX_INFO_LOAD(&results[0], "pmix.test.monitored", &answer, PMIX_UINT32);
    cbfunc(PMIX_SUCCESS, results, 1, cbdata, free_results, results);
    return PMIX_SUCCESS;
}

}  // namespace

TestSuite(monitor, .fini = stop_host, .timeout = 300);

Test(monitor, heartbeat_alert_reaches_the_client_and_the_host_when_beats_stop)
{
    start_host();
    register_host_alerts();
    const ProcResult result = run_client("monitor-beat", {"--mode", "heartbeat", "--drops", "1"});
    cr_expect(mentions(result, "heartbeat alerts 1"), "%s", result.describe().c_str());
    cr_expect_geq(g_host_alerts.count(PMIX_MONITOR_HEARTBEAT_ALERT, "monitor-beat"), 1,
                  "the host's handler heard no heartbeat alert of the client");
    cr_expect_eq(g_host_alerts.count(PMIX_MONITOR_FILE_ALERT, "monitor-beat"), 0);
}

Test(monitor, heartbeat_drops_are_respected)
{
    start_host();
    const ProcResult result = run_client("monitor-drops", {"--mode", "heartbeat", "--drops", "4"});
    cr_expect(mentions(result, "heartbeat alerts 1"), "%s", result.describe().c_str());
}

Test(monitor, file_alert_for_an_unchanged_file_and_none_while_it_grows)
{
    start_host();
    register_host_alerts();
    const std::string path = scratch_file("watched");
    const ProcResult result = run_client("monitor-file", {"--mode", "file", "--path", path});
    cr_expect(mentions(result, "file alerts 1"), "%s", result.describe().c_str());
    cr_expect(wait_for_host_alert(PMIX_MONITOR_FILE_ALERT, "monitor-file", 5000),
              "the host's handler heard no file alert of the client");
}

Test(monitor, cancel_by_id_and_unknown_ids)
{
    start_host();
    run_client("monitor-cancel", {"--mode", "cancel"});
}

Test(monitor, bad_requests_are_refused_and_heartbeats_are_one_way)
{
    start_host();
    run_client("monitor-errors", {"--mode", "errors"});
}

Test(monitor, finalize_stops_the_monitors_of_a_client)
{
    start_host();
    register_host_alerts();
    // The client stays alive 4 s after PMIx_Finalize, without beating.
    const ProcResult result = run_client("monitor-fin", {"--mode", "leave", "--how", "finalize"});
    cr_expect(mentions(result, "monitor started"), "%s", result.describe().c_str());
    cr_expect_eq(g_host_alerts.count(PMIX_MONITOR_HEARTBEAT_ALERT, "monitor-fin"), 0,
                 "an alert for a client that finalized");
}

Test(monitor, exit_without_finalize_stops_the_monitors_of_a_client)
{
    start_host();
    register_host_alerts();
    const ProcResult result = run_client("monitor-exit", {"--mode", "leave", "--how", "exit"});
    cr_expect(mentions(result, "monitor started"), "%s", result.describe().c_str());
    std::this_thread::sleep_for(std::chrono::milliseconds(3500));
    cr_expect_eq(g_host_alerts.count(PMIX_MONITOR_HEARTBEAT_ALERT, "monitor-exit"), 0,
                 "an alert for a client that is gone");
}

Test(monitor, the_hosts_upcall_decides_first)
{
    HostOptions options;
    options.monitor_upcall = test_monitor_upcall;
    start_host(options);
    const std::string path = scratch_file("hosted");
    run_client(kHostedJob, {"--mode", "hosted", "--path", path});
    cr_expect_eq(g_upcalls.load(), 2, "%d monitor upcalls, expected 2", g_upcalls.load());
    cr_expect_eq(g_upcalls_from_job.load(), 2, "the upcall did not name the requesting client");
}

Test(monitor, the_host_process_monitors_a_file_itself)
{
    start_host();
    register_host_alerts();
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    const std::string path = scratch_file("host-watched");
    pmix_info_t monitor, dirs[2];
    bool yes = true;
    uint32_t period = 1;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_FILE, path.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_FILE_CHECK_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_FILE_MODIFY, &yes, PMIX_BOOL);
    const pmix_status_t rc = PMIx_Process_monitor(&monitor, PMIX_MONITOR_FILE_ALERT, dirs, 2, nullptr, nullptr);
    PMIX_INFO_DESTRUCT(&monitor);
    PMIX_INFO_DESTRUCT(&dirs[0]);
    PMIX_INFO_DESTRUCT(&dirs[1]);
    cr_assert_eq(rc, PMIX_SUCCESS, "the host's PMIx_Process_monitor: %s", PMIx_Error_string(rc));
    cr_expect(wait_for_host_alert(PMIX_MONITOR_FILE_ALERT, me.nspace, 15000),
              "no file alert for the host process's own monitor");
    PMIx_Finalize(nullptr, 0);
}
