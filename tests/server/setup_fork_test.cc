// PMIx_server_setup_fork called in the child the host has just forked, as
// Slurm's slurmstepd does: the child has no progress thread, and
// the call must answer there exactly as in the parent.
#include "server/server_fixture.h"

#include "common/values/value_ops.h"

#include <criterion/criterion.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>

using namespace server_test;

namespace {

using Env = std::map<std::string, std::string>;

void skip_under_sanitizers()
{
#if defined(PMIXPP_UNDER_TSAN) || defined(PMIXPP_UNDER_ASAN)
    // The child of a fork without exec allocates. glibc's malloc is
    // fork-safe; GCC 12's ASan allocator has no fork handler (a child may
    // hang on a lock a parent thread held), and TSan reports the child's
    // use of memory the parent's threads wrote before the fork. The normal
    // build runs these cases; tests/integration's slurm_host runs the
    // same path under TSan with a child that execs.
    cr_skip_test("a sanitizer's runtime cannot follow a child of a multithreaded fork that allocates");
#endif
}

// Reads all of fd, waiting at most `ms` for each piece; "" on timeout.
std::string read_all(int fd, int ms)
{
    std::string text;
    char buffer[4096];
    pollfd wait_for{fd, POLLIN, 0};
    while (poll(&wait_for, 1, ms) == 1) {
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got <= 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
    }
    return text;
}

// Exit status of `pid`, killing it after `ms` (then -1).
int reap(pid_t pid, int ms)
{
    for (int waited = 0; waited < ms; waited += 5) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        usleep(5000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return -1;
}

// In a child forked now: setup_fork of (nspace, rank), its entries written
// to a pipe, one per line. The status goes in the exit code.
Env env_from_forked_child(const char *nspace, pmix_rank_t rank, int *exit_p)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    const pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        pmix_proc_t proc{};
        std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
        proc.rank = rank;
        char **env = nullptr;
        const pmix_status_t rc = PMIx_server_setup_fork(&proc, &env);
        std::string text;
        for (char **entry = env; entry != nullptr && *entry != nullptr; ++entry) text += std::string(*entry) + "\n";
        (void)!write(fds[1], text.data(), text.size());
        _exit(rc == PMIX_SUCCESS ? 0 : 100 - rc);
    }
    close(fds[1]);
    const std::string text = read_all(fds[0], kTimeoutMs);
    close(fds[0]);
    *exit_p = reap(pid, kTimeoutMs);
    Env vars;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = text.find('\n', at);
        const std::string line = text.substr(at, end - at);
        vars[line.substr(0, line.find('='))] = line.substr(line.find('=') + 1);
        at = end + 1;
    }
    return vars;
}

}  // namespace

Test(server_setup_fork, a_forked_child_gets_what_the_parent_gets)
{
    skip_under_sanitizers();
    start_server(make_tmpdir());
    register_job(kJob, 2);
    const Env parent = fork_env(kJob, 1);
    int exit_code = -1;
    const Env child = env_from_forked_child(kJob, 1, &exit_code);
    cr_assert_eq(exit_code, 0, "setup_fork in the forked child failed (exit %d: 100 - status)", exit_code);
    cr_expect_eq(child, parent, "the child's environment differs from the parent's");
    cr_expect_eq(child.count("PMIXPP_SERVER_URIS"), 1u);
    cr_expect_eq(child.at("PMIX_RANK"), "1");
    PMIx_server_finalize();
}

// The atfork handlers keep the published copy whole: a child forked while
// the progress thread replaces it (a registration per iteration here) reads
// one copy or the other, never a half-written one, and never blocks.
Test(server_setup_fork, children_forked_during_registrations_answer)
{
    skip_under_sanitizers();
    start_server(make_tmpdir());
    register_job(kJob, 1);
    std::atomic<bool> stop{false};
    std::thread registrar([&stop] {
        for (int i = 0; i < 2000 && !stop.load(); ++i) {
            const std::string name = "churn" + std::to_string(i % 4);
            (void)PMIx_server_register_nspace(name.c_str(), 0, nullptr, 0, nullptr, nullptr);
            PMIx_server_deregister_nspace(name.c_str(), nullptr, nullptr);
        }
    });
    int failures = 0;
    for (int i = 0; i < 40; ++i) {
        int exit_code = -1;
        const Env child = env_from_forked_child(kJob, 0, &exit_code);
        if (exit_code != 0 || child.count("PMIXPP_SERVER_URIS") != 1) ++failures;
    }
    stop = true;
    registrar.join();
    cr_expect_eq(failures, 0, "%d of 40 forked children got no environment (or hung and were killed)", failures);
    PMIx_server_finalize();
}

Test(server_setup_fork, a_forked_child_after_finalize_reports_init)
{
    skip_under_sanitizers();
    start_server(make_tmpdir());
    register_job(kJob, 1);
    PMIx_server_finalize();
    int exit_code = -1;
    (void)env_from_forked_child(kJob, 0, &exit_code);
    cr_expect_eq(exit_code, 100 - PMIX_ERR_INIT, "setup_fork after finalize: exit %d", exit_code);
}

// PMIX_HOSTNAME of the child is this node's name in its job (Slurm's
// NodeName), found from the job's flat node id.
Test(server_setup_fork, hostname_is_this_nodes_name_in_the_job)
{
    start_server(make_tmpdir());
    pmix_info_t info[4];
    const uint32_t size = 3;
    const uint32_t nodeid = 1;
    pmixpp::values::info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    pmixpp::values::info_load(&info[1], PMIX_NODE_MAP, "slurm-a,slurm-b", PMIX_STRING);
    pmixpp::values::info_load(&info[2], PMIX_PROC_MAP, "0;1,2", PMIX_STRING);
    pmixpp::values::info_load(&info[3], PMIX_NODEID, &nodeid, PMIX_UINT32);
    const pmix_status_t rc = PMIx_server_register_nspace("slurmjob", 2, info, 4, nullptr, nullptr);
    for (auto &item : info) pmixpp::values::info_destruct(&item);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED);
    cr_expect_eq(fork_env("slurmjob", 2)["PMIX_HOSTNAME"], "slurm-b");
    cr_expect_eq(fork_env("unknownjob", 0)["PMIX_HOSTNAME"], kHost, "a job the server does not know: its own name");
    PMIx_server_finalize();
}
