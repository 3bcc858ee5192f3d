#include "launcher.h"

#include "binding.h"
#include "hwloc_plugins.h"
#include "open_mpi_env.h"

#include <pmix.h>
#include <pmix_server.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char **environ;

namespace pmixrun {
namespace {

bool executable(const std::string &path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// A malloc'ed argv-style copy of our environment (setup_fork edits it),
// without what pmixrun set for itself only.
char **copy_environment()
{
    std::size_t n = 0;
    while (environ[n] != nullptr) ++n;
    auto **env = static_cast<char **>(std::calloc(n + 1, sizeof(char *)));
    std::size_t kept = 0;
    for (std::size_t i = 0; env != nullptr && i < n; ++i) {
        if (!own_hwloc_setting(environ[i])) env[kept++] = strdup(environ[i]);
    }
    return env;
}

void free_environment(char **env)
{
    for (char **e = env; e != nullptr && *e != nullptr; ++e) std::free(*e);
    std::free(env);
}

bool set_variable(char ***env_p, const std::string &name, const std::string &value)
{
    const std::string entry = name + "=" + value;
    std::size_t n = 0;
    for (; (*env_p)[n] != nullptr; ++n) {
        if (std::strncmp((*env_p)[n], entry.c_str(), name.size() + 1) == 0) {
            std::free((*env_p)[n]);
            (*env_p)[n] = strdup(entry.c_str());
            return (*env_p)[n] != nullptr;
        }
    }
    auto **grown = static_cast<char **>(std::realloc(*env_p, (n + 2) * sizeof(char *)));
    if (grown == nullptr) return false;
    grown[n] = strdup(entry.c_str());
    grown[n + 1] = nullptr;
    *env_p = grown;
    return grown[n] != nullptr;
}

// Started with posix_spawn, not fork: glibc's posix_spawn clones with
// CLONE_VM | CLONE_VFORK, so the launcher's page tables are not copied (nor
// its pages faulted back in copy-on-write) for each rank: fork did both, and
// that was a third of `pmixrun -n 64`'s time. The child's set-up is what it
// was: its own process group, no blocked signals, the three pipes, cwd.
pid_t spawn_process(const std::string &path, char **argv, char **env, const std::string &cwd, int in_fd, int out_fd,
                    int err_fd, std::string *why_p)
{
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    ::posix_spawnattr_init(&attr);
    ::posix_spawn_file_actions_init(&actions);
    sigset_t none;
    sigemptyset(&none);
    int rc = ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    if (rc == 0) rc = ::posix_spawnattr_setpgroup(&attr, 0);
    if (rc == 0) rc = ::posix_spawnattr_setsigmask(&attr, &none);  // pmixrun blocks the signals it reads
    if (rc == 0) rc = ::posix_spawn_file_actions_adddup2(&actions, in_fd, STDIN_FILENO);
    if (rc == 0) rc = ::posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
    if (rc == 0) rc = ::posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
    if (rc == 0 && !cwd.empty()) rc = ::posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    pid_t pid = -1;
    if (rc == 0) rc = ::posix_spawn(&pid, path.c_str(), &actions, &attr, argv, env);
    ::posix_spawn_file_actions_destroy(&actions);
    ::posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        *why_p = "cannot run " + path + (cwd.empty() ? "" : " in " + cwd) + ": " + std::strerror(rc);
        return -1;
    }
    return pid;
}

// Every rank is registered before the first one starts: each registration
// is a trip to the server's progress thread, quick while nothing runs yet,
// slow once started ranks compete with it for the cores.
bool register_clients(const Job &job, std::string *why_p)
{
    for (const Proc &proc : job.procs) {
        pmix_proc_t id;
        PMIX_LOAD_PROCID(&id, job.nspace.c_str(), proc.rank);
        const pmix_status_t rc = PMIx_server_register_client(&id, ::geteuid(), ::getegid(), nullptr, nullptr, nullptr);
        if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
            *why_p =
                "rank " + std::to_string(proc.rank) + ": PMIx_server_register_client failed: " + PMIx_Error_string(rc);
            return false;
        }
    }
    return true;
}

bool start_one(const Job &job, Proc &proc, const std::string &path, bool reads_stdin, int *stdin_fd_p,
               std::string *why_p)
{
    pmix_proc_t id;
    PMIX_LOAD_PROCID(&id, job.nspace.c_str(), proc.rank);
    const std::string who = "rank " + std::to_string(proc.rank);
    pmix_status_t rc = PMIX_SUCCESS;
    char **env = copy_environment();
    bool ok = env != nullptr;
    // The command line's -x overrides the Open MPI variables; a spawn's own
    // environment (often the spawner's, copied) must not hand the child its
    // parent's rank, so for a spawned job they come last.
    const auto open_mpi = open_mpi_variables(job, proc);
    if (!job.from_command_line()) {
        for (const auto &[name, value] : job.apps[proc.app].env) ok = ok && set_variable(&env, name, value);
    }
    for (const auto &[name, value] : open_mpi) ok = ok && set_variable(&env, name, value);
    if (job.from_command_line()) {
        for (const auto &[name, value] : job.apps[proc.app].env) ok = ok && set_variable(&env, name, value);
    }
    rc = ok ? PMIx_server_setup_fork(&id, &env) : PMIX_ERR_NOMEM;
    int out[2] = {-1, -1}, err[2] = {-1, -1}, in[2] = {-1, -1};
    if (rc == PMIX_SUCCESS && ::pipe2(out, O_CLOEXEC) != 0) rc = PMIX_ERR_OUT_OF_RESOURCE;
    // Merged: fd 2 is the stdout pipe too, so the two keep their order.
    if (rc == PMIX_SUCCESS && !job.merge_stderr && ::pipe2(err, O_CLOEXEC) != 0) rc = PMIX_ERR_OUT_OF_RESOURCE;
    if (rc == PMIX_SUCCESS) {
        if (reads_stdin) {
            if (::pipe2(in, O_CLOEXEC) != 0) rc = PMIX_ERR_OUT_OF_RESOURCE;
        } else {
            in[0] = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        }
    }
    if (rc != PMIX_SUCCESS) {
        free_environment(env);
        for (int fd : {out[0], out[1], err[0], err[1], in[0], in[1]}) {
            if (fd >= 0) ::close(fd);
        }
        *why_p = who + ": cannot prepare its start: " + PMIx_Error_string(rc);
        return false;
    }
    std::vector<char *> argv;
    for (const std::string &arg : job.apps[proc.app].argv) argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    std::string spawn_error;
    pid_t pid = -1;
    {
        const SpawnAffinity bound(proc.binding.get());  // the child inherits this thread's cpus
        if (bound.ok()) {
            pid = spawn_process(path, argv.data(), env, job.apps[proc.app].cwd, in[0], out[1],
                                job.merge_stderr ? out[1] : err[1], &spawn_error);
        } else {
            spawn_error = bound.why();
        }
    }
    free_environment(env);
    for (int fd : {out[1], err[1], in[0]}) {
        if (fd >= 0) ::close(fd);
    }
    if (pid < 0) {
        for (int fd : {out[0], err[0], in[1]}) {
            if (fd >= 0) ::close(fd);
        }
        *why_p = who + ": " + spawn_error;
        return false;
    }
    ::setpgid(pid, pid);  // also here: whichever runs first
    proc.pid = pid;
    if (job.report_bindings) {
        std::fprintf(stderr, "pmixrun: %s\n", binding_report(job.hostname, proc.rank, pid, proc.binding.get()).c_str());
    }
    proc.out_fd = out[0];
    proc.err_fd = err[0];
    if (reads_stdin) *stdin_fd_p = in[1];
    return true;
}

}  // namespace

bool resolve_program(const std::string &program, const std::string &cwd, std::string *path_p, std::string *why_p)
{
    // A relative path is the process's, which runs in cwd.
    const std::string in_cwd = cwd.empty() ? program : cwd + "/" + program;
    if (program.find('/') != std::string::npos) {
        const std::string path = program[0] == '/' ? program : in_cwd;
        if (executable(path)) {
            *path_p = path;
            return true;
        }
        *why_p = "cannot run '" + program +
                 "': " + (::access(path.c_str(), F_OK) == 0 ? "not an executable file" : "no such file");
        return false;
    }
    const char *path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        std::size_t colon = dirs.find(':', start);
        if (colon == std::string::npos) colon = dirs.size();
        const std::string dir = dirs.substr(start, colon - start);
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
        if (executable(candidate)) {
            *path_p = candidate;
            return true;
        }
        start = colon + 1;
    }
    // As mpirun does: a spawned program named without a path (OpenPMIx's
    // debugger example spawns "client" with its own cwd) is also looked for
    // in the directory it is to run in.
    if (!cwd.empty() && executable(in_cwd)) {
        *path_p = in_cwd;
        return true;
    }
    *why_p = "cannot find program '" + program + "' on PATH" + (cwd.empty() ? "" : " nor in " + cwd) +
             " (give its path, e.g. ./" + program + ")";
    return false;
}

bool launch_job(Job &job, const StdinTarget &target, std::vector<StdinFeed> *feeds_p, std::string *why_p)
{
    std::vector<std::string> paths;
    for (const AppSpec &app : job.apps) {
        std::string path;
        if (!resolve_program(app.argv[0], app.cwd, &path, why_p)) return false;
        paths.push_back(path);
    }
    if (!register_clients(job, why_p)) return false;
    for (Proc &proc : job.procs) {
        const bool reads_stdin = feeds_p != nullptr && target.reads(proc.rank);
        int stdin_fd = -1;
        if (!start_one(job, proc, paths[proc.app], reads_stdin, &stdin_fd, why_p)) return false;
        if (stdin_fd >= 0) feeds_p->push_back({proc.rank, stdin_fd});
    }
    return true;
}

void end_started(Job &job)
{
    for (const Proc &proc : job.procs) {
        if (proc.pid > 0 && !proc.exited) ::kill(-proc.pid, SIGTERM);
    }
    for (Proc &proc : job.procs) {
        if (proc.pid <= 0 || proc.exited) continue;
        for (int i = 0; i < 60 && ::waitpid(proc.pid, &proc.wait_status, WNOHANG) == 0; ++i) ::usleep(50000);
        if (::waitpid(proc.pid, &proc.wait_status, WNOHANG) == 0) {
            ::kill(-proc.pid, SIGKILL);
            ::waitpid(proc.pid, &proc.wait_status, 0);
        }
        proc.exited = true;
        for (int fd : {proc.out_fd, proc.err_fd}) {
            if (fd >= 0) ::close(fd);
        }
        proc.out_fd = proc.err_fd = -1;
    }
}

}  // namespace pmixrun
