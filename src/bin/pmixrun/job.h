// The jobs pmixrun runs: the one of its command line and those its
// processes (or tools) spawn. Each has its applications, processes, the
// session it runs in and how it relates to the job that spawned it. Owned
// by the Runtime (main thread).
#ifndef PMIXPP_BIN_PMIXRUN_JOB_H
#define PMIXPP_BIN_PMIXRUN_JOB_H

#include "options.h"
#include "output.h"

#include <pmix_common.h>

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pmixrun {

// How pmixrun's namespaces (jobs, its own server, tools) and allocation ids
// begin. Not "pmix": the standard reserves that prefix for its keys, and
// OpenPMIx refuses keys programs build from their namespace's name.
inline constexpr const char *kNamePrefix = "ppx-";

using Clock = std::chrono::steady_clock;

struct Proc {
    pmix_rank_t rank = 0;
    uint32_t app = 0;  // index into Job::apps (its appnum)
    uint32_t app_rank = 0;
    pid_t pid = -1;
    int out_fd = -1;  // its stdout and stderr, read by us
    int err_fd = -1;
    std::shared_ptr<OutputStream> out, err;  // where they go (tagged or not)
    bool exited = false;
    int wait_status = 0;  // waitpid's
    Bitmap binding;       // the cpus it is bound to; null: unbound
    Bitmap mapped;        // the cpus of the units it was mapped to (held from other jobs while it runs)
    std::string cpuset;   // its PMIX_CPUSET ("hwloc:<list>"); empty: the node's
};

enum class JobPhase {
    starting,  // being prepared and launched
    running,
    ending,  // told to stop: SIGTERM sent (at term_at), SIGKILL at kill_at
    done,    // every process exited and its output drained; deregistered
};

struct Job {
    std::string nspace;
    uint32_t session_id = 1;
    std::string hostname;
    std::vector<AppSpec> apps;
    std::vector<Proc> procs;  // by rank

    // Who spawned it (empty nspace: pmixrun's command line), and whether it
    // outlives that job (PMIX_SPAWN_CHILD_SEP or PMIX_JOB_CTRL_SEP).
    pmix_proc_t spawned_by{};
    bool separated = false;
    bool notify_spawner = false;  // PMIX_NOTIFY_COMPLETION
    bool merge_stderr = false;    // --merge-stderr-to-stdout: fd 2 is the stdout pipe
    // Where its ranks go: the command line's options, or a spawn's
    // PMIX_MAPBY, PMIX_BINDTO, PMIX_CPUS_PER_PROC, PMIX_REPORT_BINDINGS.
    PlacementOptions placement;
    bool report_bindings = false;  // --report-bindings: a line per rank once started
    // More processes run on the node with this job than pmixrun has cpus:
    // Open MPI is told to yield when idle (open_mpi_env.h).
    bool oversubscribed = false;

    JobPhase phase = JobPhase::starting;
    Clock::time_point term_at = Clock::time_point::max();  // a SIGTERM held back (see Runtime::on_exit)
    Clock::time_point kill_at = Clock::time_point::max();
    Clock::time_point all_exited_at{};
    bool all_exited = false;
    // What ended it, for its exit status and the line pmixrun prints.
    int first_failure = -1;          // waitpid status of the first failed process
    bool failed_on_its_own = false;  // that failure came before anyone asked the job to end
    bool aborted = false;
    int abort_status = 0;

    uint32_t size() const { return static_cast<uint32_t>(procs.size()); }
    bool from_command_line() const { return spawned_by.nspace[0] == '\0'; }
    // 0 when every process succeeded; else the abort status, or the first
    // failure's exit code (128+signal when killed).
    int exit_code() const;
};

// Ranks are given application after application: app 0 holds 0..n0-1.
Job make_job(const std::vector<AppSpec> &apps, std::string nspace, std::string hostname, uint32_t session_id);

// The info of PMIx_server_register_nspace: session, job, node and proc maps,
// one PMIX_APP_INFO_ARRAY per application, one PMIX_PROC_DATA per process,
// PMIX_PARENT_ID of a spawned job, then `extra` (what setup_application
// returned). Released with PMIX_INFO_FREE. PMIX_SUCCESS or the failing
// call's status.
pmix_status_t job_info(const Job &job, const pmix_info_t extra[], size_t nextra, pmix_info_t **info_p, size_t *ninfo_p);

// PMIX_SESSION_ID, PMIX_JOB_SIZE, node/proc maps: what setup_application's
// components need to know of the job.
pmix_status_t setup_info(const Job &job, pmix_info_t **info_p, size_t *ninfo_p);

}  // namespace pmixrun

#endif
