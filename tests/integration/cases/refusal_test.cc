// The server refuses whoever is not who the host registered, and survives
// garbage: each attack runs while a legitimate 4-process job is connected
// (holding after its data exchange), and that job must still complete.
#include "integration/cases/itest_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

using namespace pmixpp::itest;

TestSuite(refusal, .fini = stop_host, .timeout = 240);

namespace {

constexpr const char *kLegit = "itest-legit";
constexpr int kAttackTimeoutMs = 60000;

struct LegitJob {
    JobLayout layout;
    std::vector<pid_t> pids;
};

// Starts the legitimate job and waits until all its ranks are connected and done exchanging.
LegitJob start_legit_job()
{
    JobSpec spec;
    spec.nspace = kLegit;
    spec.local_procs = 4;
    LegitJob job;
    std::string error;
    cr_assert_eq(host().register_job(spec, &job.layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    Launch launch = exchange_launch(job.layout, 2 * job.layout.job_size);
    launch.args.push_back("--hold");
    launch.args.push_back(host().tmpdir());
    cr_assert_eq(host().spawn_job(kLegit, job.layout, launch, &job.pids), PMIX_SUCCESS);
    if (!wait_until_ready(host().tmpdir(), job.layout, kJobTimeoutMs)) {
        release(host().tmpdir());
        for (const ProcResult &result : host().wait(job.pids, 5000)) cr_log_error("%s", result.describe().c_str());
        cr_assert_fail("the legitimate job never became ready");
    }
    return job;
}

void finish_legit_job(const LegitJob &job)
{
    release(host().tmpdir());
    expect_all_ok(host().wait(job.pids, kJobTimeoutMs), job.pids.size());
}

ProcResult run_intruder(const std::string &nspace, pmix_rank_t rank, std::vector<std::string> args,
                        std::vector<std::pair<std::string, std::string>> overrides = {})
{
    Launch launch;
    launch.program = client_path("itest_intruder");
    launch.args = std::move(args);
    launch.env_overrides = std::move(overrides);
    pid_t pid = -1;
    const pmix_status_t rc = host().spawn(nspace, rank, launch, &pid);
    cr_assert_eq(rc, PMIX_SUCCESS, "spawning the intruder: %s", status_name(rc).c_str());
    ProcResult result = host().wait({pid}, kAttackTimeoutMs).front();
    cr_log_info("intruder %s: %s", launch.args.front().c_str(), result.describe().c_str());
    return result;
}

// The status the intruder's PMIx_Init printed ("init returned <n> <name>").
pmix_status_t init_status(const ProcResult &result)
{
    const std::string marker = "init returned ";
    const std::size_t at = result.output.find(marker);
    if (at == std::string::npos) return PMIX_SUCCESS;
    return static_cast<pmix_status_t>(std::strtol(result.output.c_str() + at + marker.size(), nullptr, 10));
}

void expect_refused(const ProcResult &result, bool invalid_cred_only)
{
    cr_expect(result.exited_with(0), "the intruder was not refused: %s", result.describe().c_str());
    const pmix_status_t rc = init_status(result);
    if (invalid_cred_only) {
        cr_expect_eq(rc, PMIX_ERR_INVALID_CRED, "refused with %s, expected PMIX_ERR_INVALID_CRED: %s",
                     status_name(rc).c_str(), result.describe().c_str());
    } else {
        cr_expect(rc == PMIX_ERR_INVALID_CRED || rc == PMIX_ERR_NOT_FOUND,
                  "refused with %s, expected PMIX_ERR_INVALID_CRED or PMIX_ERR_NOT_FOUND: %s", status_name(rc).c_str(),
                  result.describe().c_str());
    }
}

void expect_closed(const ProcResult &result)
{
    cr_expect(result.exited_with(0), "the server kept the garbage connection open: %s", result.describe().c_str());
}

}  // namespace

Test(refusal, wrong_uid)
{
    if (geteuid() != 0) cr_skip_test("needs root to run a client as uid 65534 (nobody)");
    HostOptions options;
    options.world_reachable = true;  // the socket lets nobody in: psec must refuse
    start_host(options);
    // The victim is registered for our uid and never started: only the uid is wrong.
    JobSpec victim;
    victim.nspace = "itest-victim";
    victim.local_procs = 1;
    std::string error;
    cr_assert_eq(host().register_job(victim, nullptr, &error), PMIX_SUCCESS, "%s", error.c_str());
    const LegitJob job = start_legit_job();
    expect_refused(run_intruder("itest-victim", 0, {"init", "--become-nobody"}), true);
    finish_legit_job(job);
}

Test(refusal, spoofed_rank_already_connected)
{
    start_host();
    const LegitJob job = start_legit_job();
    // Rank 0's environment, claiming to be rank 1, which is connected.
    expect_refused(run_intruder(kLegit, 0, {"init"}, {{"PMIX_RANK", "1"}}), false);
    finish_legit_job(job);
}

Test(refusal, spoofed_rank_never_registered)
{
    start_host();
    const LegitJob job = start_legit_job();
    expect_refused(run_intruder(kLegit, 0, {"init"}, {{"PMIX_RANK", "77"}}), false);
    finish_legit_job(job);
}

Test(refusal, unregistered_namespace)
{
    start_host();
    const LegitJob job = start_legit_job();
    expect_refused(run_intruder(kLegit, 0, {"init"}, {{"PMIX_NAMESPACE", "itest-nobody-registered-this"}}), false);
    finish_legit_job(job);
}

Test(refusal, garbage_bytes)
{
    start_host();
    const LegitJob job = start_legit_job();
    expect_closed(run_intruder(kLegit, 0, {"junk"}));
    finish_legit_job(job);
}

Test(refusal, half_a_header)
{
    start_host();
    const LegitJob job = start_legit_job();
    expect_closed(run_intruder(kLegit, 0, {"half"}));
    finish_legit_job(job);
}

Test(refusal, four_gib_length)
{
    start_host();
    const LegitJob job = start_legit_job();
    expect_closed(run_intruder(kLegit, 0, {"huge"}));
    finish_legit_job(job);
}

// All of them at once against one job, then a second job on the same server.
Test(refusal, every_attack_then_a_new_job)
{
    start_host();
    const LegitJob job = start_legit_job();
    expect_closed(run_intruder(kLegit, 0, {"junk"}));
    expect_closed(run_intruder(kLegit, 0, {"huge"}));
    expect_refused(run_intruder(kLegit, 0, {"init"}, {{"PMIX_RANK", "2"}}), false);
    expect_refused(run_intruder(kLegit, 0, {"init"}, {{"PMIX_RANK", "4"}}), false);
    finish_legit_job(job);
    cr_expect_eq(host().deregister_job(kLegit), PMIX_SUCCESS);

    JobSpec next;
    next.nspace = "itest-after";
    next.local_procs = 2;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(next, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(next.nspace, layout, exchange_launch(layout, 2 * layout.job_size), &pids),
                 PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 2);
}

namespace {

constexpr const char *kSilentModes[2] = {"silent", "half-silent"};
constexpr int kSilentLimitS = 60;  // the intruders' own bound on waiting for the server to close

bool still_running(pid_t pid)
{
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
}

bool wait_for_file(const std::string &path, int timeout_ms)
{
    for (int waited = 0; access(path.c_str(), F_OK) != 0; waited += 10) {
        if (waited >= timeout_ms) return false;
        usleep(10 * 1000);
    }
    return true;
}

}  // namespace

// Two peers connect and never complete a handshake: one sends nothing, the
// other half a frame header and then nothing, both keeping their side open.
// A legitimate job started after them must run to completion while they
// hang on, and the server must drop them itself (handshake timeout,
// PMIX_MCA_ptl_base_handshake_timeout).
Test(refusal, silent_peers_neither_delay_a_job_nor_stay_forever, .timeout = 300)
{
    // Twice the default (10 s): room for the job on a busy machine, well
    // inside the intruders' own limit.
    setenv("PMIX_MCA_ptl_base_handshake_timeout", "20", 1);
    start_host();
    JobSpec spec;
    spec.nspace = kLegit;
    spec.local_procs = 4;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(spec, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    std::vector<pid_t> silent;
    for (const char *mode : kSilentModes) {
        Launch launch;
        launch.program = client_path("itest_intruder");
        launch.args = {mode, host().tmpdir(), std::to_string(kSilentLimitS)};
        pid_t pid = -1;
        cr_assert_eq(host().spawn(kLegit, 0, launch, &pid), PMIX_SUCCESS, "spawning the %s peer", mode);
        silent.push_back(pid);
        cr_assert(wait_for_file(host().tmpdir() + "/connected." + mode, kAttackTimeoutMs),
                  "the %s peer never connected", mode);
    }
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(kLegit, layout, exchange_launch(layout, 2 * layout.job_size), &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 4);
    // Had the job waited for the silent peers, they would be gone by now.
    cr_expect(still_running(silent[0]) || still_running(silent[1]),
              "the job finished only after both silent connections had been closed");
    const std::vector<ProcResult> results = host().wait(silent, (kSilentLimitS + 15) * 1000);
    for (const ProcResult &result : results) {
        cr_log_info("%s", result.describe().c_str());
        cr_expect(result.exited_with(0), "the server never closed a silent connection within %d s: %s", kSilentLimitS,
                  result.describe().c_str());
    }
}
