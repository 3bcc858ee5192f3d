// The environment a forked client gets, and the edges of a client's life:
// abort reaching the host, a client that vanishes without finalizing, and a
// server that goes away under a blocked client.
#include "integration/cases/itest_support.h"

#include <signal.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <map>

using namespace pmixpp::itest;

TestSuite(lifecycle, .fini = stop_host, .timeout = 240);

namespace {

std::map<std::string, std::string> as_map(const std::vector<std::string> &env)
{
    std::map<std::string, std::string> vars;
    for (const std::string &entry : env) {
        const std::size_t equals = entry.find('=');
        if (equals != std::string::npos) vars[entry.substr(0, equals)] = entry.substr(equals + 1);
    }
    return vars;
}

std::string forced(const char *name)
{
    const char *value = std::getenv(name);
    return value != nullptr ? value : "";
}

Launch lifecycle(std::vector<std::string> args)
{
    Launch launch;
    launch.program = client_path("itest_lifecycle");
    launch.args = std::move(args);
    return launch;
}

}  // namespace

Test(lifecycle, setup_fork_names_server_transport_and_security)
{
    start_host();
    register_local_job("itest-env", 2);
    std::vector<std::string> env;
    cr_assert_eq(host().fork_env("itest-env", 1, {}, &env), PMIX_SUCCESS);
    auto vars = as_map(env);
    cr_expect_eq(vars["PMIX_NAMESPACE"], "itest-env");
    cr_expect_eq(vars["PMIX_RANK"], "1");
    cr_expect_eq(vars["PMIX_SERVER_TMPDIR"], host().tmpdir());
    cr_expect_eq(vars["PMIX_HOSTNAME"], host().hostname());
    cr_expect(!vars["PMIX_VERSION"].empty(), "PMIX_VERSION is missing");
    // Ours for our clients; gds/hash for OpenPMIx's (server/openpmix/).
    cr_expect(!vars["PMIXPP_GDS_MODULE"].empty(), "PMIXPP_GDS_MODULE is missing");
    cr_expect_eq(vars["PMIX_GDS_MODULE"], "hash");
    const std::string ours = vars["PMIXPP_SERVER_URIS"];
    // The pair this CTest entry forces is the one the client is told to use.
    const std::string ptl = forced("PMIX_MCA_ptl");
    if (ptl == "usock") cr_expect_eq(ours.rfind("usock:", 0), 0u, "usock forced, URIs %s", ours.c_str());
    if (ptl == "tcp") cr_expect_eq(ours.rfind("tcp", 0), 0u, "tcp forced, URIs %s", ours.c_str());
    if (!ptl.empty()) cr_expect_eq(vars["PMIX_PTL_MODULE"], ptl, "PMIX_PTL_MODULE=%s", vars["PMIX_PTL_MODULE"].c_str());
    // OpenPMIx's clients are told of the tcp listener, when there is one:
    // it is all they speak.
    for (const char *name :
         {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI2", "PMIX_SERVER_URI21"}) {
        if (ptl == "usock") {
            cr_expect_eq(vars.count(name), 0u, "%s=%s without a tcp listener", name, vars[name].c_str());
            continue;
        }
        cr_expect_eq(vars[name].rfind("itest-server.0;tcp4://", 0), 0u, "%s=%s", name, vars[name].c_str());
        const std::string uri = vars[name].substr(vars[name].find(';') + 1);
        cr_expect(ours.find(uri) != std::string::npos, "PMIXPP_SERVER_URIS=%s lacks %s", ours.c_str(), uri.c_str());
    }
    const std::string psec = forced("PMIX_MCA_psec");
    if (!psec.empty()) {
        cr_expect_eq(vars["PMIX_SECURITY_MODE"], psec, "PMIX_SECURITY_MODE=%s", vars["PMIX_SECURITY_MODE"].c_str());
    }
}

Test(lifecycle, abort_reaches_the_host)
{
    start_host();
    const JobLayout layout = register_local_job("itest-abort", 1);
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-abort", layout, lifecycle({"abort"}), &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 1);
    cr_expect_eq(host().counters().aborts.load(), 1, "abort upcalls");
    cr_expect_eq(host().counters().last_abort_status.load(), 42, "status given to the host's abort");
}

// A client that dies without PMIx_Finalize must not disturb the next job.
// A rank that finalized without putting anything: its peer's Get of its
// data and a fence with it must be answered, not wait forever.
Test(lifecycle, requests_involving_a_finalized_rank_are_answered)
{
    start_host();
    const JobLayout layout = register_local_job("itest-left", 2);
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-left", layout, lifecycle({"left-behind"}), &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 2);
}

Test(lifecycle, vanished_client_then_a_new_job)
{
    start_host();
    const JobLayout gone = register_local_job("itest-vanish", 2);
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-vanish", gone, lifecycle({"vanish"}), &pids), PMIX_SUCCESS);
    for (const ProcResult &result : host().wait(pids, kJobTimeoutMs)) {
        cr_expect(result.succeeded(), "%s", result.describe().c_str());
    }
    cr_expect_eq(host().deregister_job("itest-vanish"), PMIX_SUCCESS);
    const JobLayout next = register_local_job("itest-after-vanish", 3);
    cr_assert_eq(host().spawn_job("itest-after-vanish", next, exchange_launch(next, 2 * next.job_size), &pids),
                 PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 3);
}

// Rank 0 of two blocks in a fence that rank 1 never joins; the server goes
// away: the fence must fail and PMIX_ERR_LOST_CONNECTION must be raised.
Test(lifecycle, server_gone_fails_pending_calls)
{
    start_host();
    JobSpec spec;
    spec.nspace = "itest-lost";
    spec.local_procs = 2;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(spec, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    pid_t pid = -1;
    cr_assert_eq(host().spawn("itest-lost", 0, lifecycle({"lost", host().tmpdir()}), &pid), PMIX_SUCCESS);
    JobLayout only_rank0 = layout;
    only_rank0.ranks[only_rank0.local_node] = {0};
    cr_assert(wait_until_ready(host().tmpdir(), only_rank0, kJobTimeoutMs), "rank 0 never became ready");
    cr_expect_eq(host().shutdown_server(), PMIX_SUCCESS, "PMIx_server_finalize");
    const ProcResult result = host().wait({pid}, kJobTimeoutMs).front();
    cr_log_info("%s", result.describe().c_str());
    cr_expect(result.succeeded() && result.output.find("rank 0 ok\n") != std::string::npos, "%s",
              result.describe().c_str());
}

namespace {

// Without reaping it: Host::wait collects it later.
bool still_running(pid_t pid)
{
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
}

// NULL procs mean "the caller's whole namespace"; a library may also spell
// that out as one wildcard proc.
bool means_whole_job(const AbortRecord &record, const char *nspace)
{
    if (record.procs_null || record.procs.empty()) return true;
    return record.procs.size() == 1 && PMIX_CHECK_NSPACE(record.procs[0].nspace, nspace) &&
           record.procs[0].rank == PMIX_RANK_WILDCARD;
}

}  // namespace

// PMIx_Abort of the whole job by rank 1: the host's upcall gets status,
// message and targets; it kills the job, then answers. Rank 1 is among the
// targets, so its PMIx_Abort must not return before that.
Test(lifecycle, abort_of_the_job_is_carried_out_by_the_host)
{
    HostOptions options;
    options.hold_aborts = true;
    start_host(options);
    const JobLayout layout = register_local_job("itest-abort-job", 4);
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-abort-job", layout, lifecycle({"abort-job"}), &pids), PMIX_SUCCESS);
    AbortRecord record;
    const bool aborted = host().wait_for_abort(kJobTimeoutMs, &record);
    if (aborted) {
        cr_expect_eq(record.status, 7, "status given to the host's abort");
        cr_expect_str_eq(record.message.c_str(), "itest abort 7 from rank 1", "abort message");
        cr_expect(PMIX_CHECK_NSPACE(record.caller.nspace, "itest-abort-job") && record.caller.rank == 1, "caller %s:%u",
                  record.caller.nspace, record.caller.rank);
        cr_expect(means_whole_job(record, "itest-abort-job"), "targets: %zu procs, first %s:%u", record.procs.size(),
                  record.procs.empty() ? "-" : record.procs[0].nspace,
                  record.procs.empty() ? 0u : record.procs[0].rank);
        for (std::size_t i = 0; i < pids.size(); ++i) {
            cr_expect(still_running(pids[i]), "rank %zu ended before the host acted on the abort", i);
        }
    }
    // The host carries the abort out: it kills its own children, then answers.
    // All are stopped first: a pending SIGSTOP keeps a process from running
    // any more of its own code, so none sees a peer die (its fence failing)
    // and exits by itself before its SIGKILL arrives.
    for (pid_t pid : pids) kill(pid, SIGSTOP);
    for (pid_t pid : pids) kill(pid, SIGKILL);
    host().release_abort(PMIX_SUCCESS);
    const std::vector<ProcResult> results = host().wait(pids, kJobTimeoutMs);
    cr_assert(aborted, "no abort upcall");
    for (const ProcResult &result : results) {
        cr_expect(!result.timed_out && WIFSIGNALED(result.wait_status) && WTERMSIG(result.wait_status) == SIGKILL,
                  "expected to be killed by the host: %s", result.describe().c_str());
        if (result.rank != 1) continue;
        cr_expect(result.output.find("rank 1 calling abort") != std::string::npos, "%s", result.describe().c_str());
        cr_expect(result.output.find("abort returned") == std::string::npos,
                  "PMIx_Abort returned before the host acted: %s", result.describe().c_str());
    }
    cr_expect_eq(host().counters().aborts.load(), 1, "abort upcalls");
}
