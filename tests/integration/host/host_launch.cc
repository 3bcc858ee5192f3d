// Starting client processes: the environment from PMIx_server_setup_fork,
// fork + exec with output captured to a file, bounded waits, and killing
// (by pid, only our own children) whatever outlives its deadline.
#include "integration/host/host_internal.h"

#include <pmix.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

extern char **environ;

namespace pmixpp::itest {
namespace {

// A malloc'ed argv copy of our environment: setup_fork may grow it with realloc.
char **copy_environ()
{
    std::size_t count = 0;
    while (environ[count] != nullptr) ++count;
    auto **env = static_cast<char **>(std::calloc(count + 1, sizeof(char *)));
    if (env == nullptr) return nullptr;
    for (std::size_t i = 0; i < count; ++i) env[i] = strdup(environ[i]);
    return env;
}

void free_argv(char **argv)
{
    if (argv == nullptr) return;
    for (char **entry = argv; *entry != nullptr; ++entry) std::free(*entry);
    std::free(argv);
}

void apply_override(std::vector<std::string> *env, const std::string &name, const std::string &value)
{
    const std::string prefix = name + "=";
    std::erase_if(*env, [&](const std::string &entry) { return entry.compare(0, prefix.size(), prefix) == 0; });
    // kUnset removes the variable altogether.
    if (value != kUnset) env->push_back(prefix + value);
}

std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

bool ProcResult::exited_with(int code) const
{
    return !timed_out && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == code;
}

std::string ProcResult::describe() const
{
    std::ostringstream text;
    text << nspace << " rank " << rank << " (pid " << pid << "): ";
    if (timed_out) text << "timed out and was killed";
    else if (WIFEXITED(wait_status)) text << "exit " << WEXITSTATUS(wait_status);
    else if (WIFSIGNALED(wait_status)) text << "killed by signal " << WTERMSIG(wait_status);
    else text << "wait status " << wait_status;
    text << "\n--- output ---\n" << output << "--------------";
    return text.str();
}

pmix_status_t Host::fork_env(const std::string &nspace, pmix_rank_t rank,
                             const std::vector<std::pair<std::string, std::string>> &overrides,
                             std::vector<std::string> *env_p)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace.c_str(), rank);
    char **env = copy_environ();
    if (env == nullptr) return PMIX_ERR_NOMEM;
    const pmix_status_t rc = PMIx_server_setup_fork(&proc, &env);
    if (rc != PMIX_SUCCESS) {
        free_argv(env);
        return rc;
    }
    std::vector<std::string> result;
    for (char **entry = env; *entry != nullptr; ++entry) result.emplace_back(*entry);
    free_argv(env);
    for (const auto &[name, value] : overrides) apply_override(&result, name, value);
    *env_p = std::move(result);
    return PMIX_SUCCESS;
}

// In the forked child, as Slurm's slurmstepd does: PMIx_server_setup_fork
// here (not async-signal-safe, and there is no progress thread: the library
// must answer anyway), then exec. Exits 125 with a line when setup_fork fails.
void Host::exec_after_setup_fork(const std::string &nspace, pmix_rank_t rank, const Launch &launch, char **argv)
{
    std::vector<std::string> env;
    const pmix_status_t rc = fork_env(nspace, rank, launch.env_overrides, &env);
    if (rc != PMIX_SUCCESS) {
        std::fprintf(stderr, "itest host: PMIx_server_setup_fork in the forked child: %s\n", PMIx_Error_string(rc));
        _exit(125);
    }
    std::vector<char *> envp;
    for (std::string &entry : env) envp.push_back(entry.data());
    envp.push_back(nullptr);
    execve(argv[0], argv, envp.data());
    std::fprintf(stderr, "itest host: execve %s failed\n", argv[0]);
    _exit(127);
}

pmix_status_t Host::spawn(const std::string &nspace, pmix_rank_t rank, const Launch &launch, pid_t *pid_p)
{
    std::vector<std::string> env;
    if (!options_.setup_fork_in_child) {
        const pmix_status_t rc = fork_env(nspace, rank, launch.env_overrides, &env);
        if (rc != PMIX_SUCCESS) return rc;
    }
    const std::string output_path = tmpdir_ + "/out." + std::to_string(output_seq_++);
    const int out = open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) return PMIX_ERR_FILE_OPEN_FAILURE;

    // Everything the child touches is built before fork: between fork and
    // exec a threaded process may only make async-signal-safe calls.
    std::vector<char *> argv{const_cast<char *>(launch.program.c_str())};
    for (const std::string &arg : launch.args) argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (std::string &entry : env) envp.push_back(entry.data());
    envp.push_back(nullptr);
    const pid_t parent = getpid();

    const pid_t pid = fork();
    if (pid < 0) {
        close(out);
        return PMIX_ERR_SYS_OTHER;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
        if (getppid() != parent) _exit(126);
        dup2(out, STDOUT_FILENO);
        dup2(out, STDERR_FILENO);
        if (options_.setup_fork_in_child) exec_after_setup_fork(nspace, rank, launch, argv.data());
        execve(argv[0], argv.data(), envp.data());
        static const char message[] = "itest host: execve failed\n";
        (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
        _exit(127);
    }
    close(out);
    children_.push_back(Child{pid, nspace, rank, output_path});
    *pid_p = pid;
    return PMIX_SUCCESS;
}

pmix_status_t Host::spawn_job(const std::string &nspace, const JobLayout &layout, const Launch &launch,
                              std::vector<pid_t> *pids_p)
{
    std::vector<pid_t> pids;
    for (pmix_rank_t rank : layout.local_ranks()) {
        pid_t pid = -1;
        const pmix_status_t rc = spawn(nspace, rank, launch, &pid);
        if (rc != PMIX_SUCCESS) return rc;
        pids.push_back(pid);
    }
    *pids_p = std::move(pids);
    return PMIX_SUCCESS;
}

std::vector<ProcResult> Host::wait(const std::vector<pid_t> &pids, int timeout_ms)
{
    std::vector<ProcResult> results(pids.size());
    std::vector<bool> done(pids.size(), false);
    std::size_t remaining = pids.size();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (remaining > 0) {
        for (std::size_t i = 0; i < pids.size(); ++i) {
            if (done[i]) continue;
            int status = 0;
            const pid_t reaped = waitpid(pids[i], &status, WNOHANG);
            if (reaped == 0) continue;
            results[i].wait_status = reaped == pids[i] ? status : -1;
            done[i] = true;
            --remaining;
        }
        if (remaining == 0) break;
        if (std::chrono::steady_clock::now() >= deadline) {
            for (std::size_t i = 0; i < pids.size(); ++i) {
                if (done[i]) continue;
                kill(pids[i], SIGKILL);
                waitpid(pids[i], &results[i].wait_status, 0);
                results[i].timed_out = true;
            }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (std::size_t i = 0; i < pids.size(); ++i) {
        results[i].pid = pids[i];
        const auto it =
            std::find_if(children_.begin(), children_.end(), [&](const Child &child) { return child.pid == pids[i]; });
        if (it == children_.end()) continue;
        results[i].nspace = it->nspace;
        results[i].rank = it->rank;
        results[i].output = read_file(it->output_path);
        children_.erase(it);
    }
    return results;
}

void Host::kill_children()
{
    for (const Child &child : children_) {
        kill(child.pid, SIGKILL);
        int status = 0;
        waitpid(child.pid, &status, 0);
    }
    children_.clear();
}

pmix_status_t Host::run_job(const JobSpec &spec, const Launch &launch, int timeout_ms,
                            std::vector<ProcResult> *results_p, std::string *error_p)
{
    JobLayout layout;
    pmix_status_t rc = register_job(spec, &layout, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    std::vector<pid_t> pids;
    rc = spawn_job(spec.nspace, layout, launch, &pids);
    if (rc != PMIX_SUCCESS) {
        if (error_p) *error_p = "spawning " + launch.program + ": " + status_name(rc);
        kill_children();
        return rc;
    }
    *results_p = wait(pids, timeout_ms);
    rc = deregister_job(spec.nspace);
    if (rc != PMIX_SUCCESS && error_p) *error_p = "PMIx_server_deregister_nspace: " + status_name(rc);
    return rc;
}

}  // namespace pmixpp::itest
