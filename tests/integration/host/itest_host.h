// A small PMIx host for integration tests, written only against the public
// server API (pmix_server.h), the way a resource manager uses the library:
// it starts a server in the calling process, registers jobs, forks and execs
// real client programs with the environment PMIx_server_setup_fork gives,
// and collects each process's exit status and output.
//
// One Host per process (the PMIx server is a process-wide singleton). Every
// wait is bounded; processes that outlive their deadline are killed, and
// children die with the host (PR_SET_PDEATHSIG), so no test leaves any behind.
// Nothing here uses Criterion: the tests assert on what it returns.
#ifndef PMIXPP_TESTS_INTEGRATION_HOST_H
#define PMIXPP_TESTS_INTEGRATION_HOST_H

#include <pmix_server.h>

struct event_base;

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pmixpp::itest {

struct OpWait;  // host_internal.h

// How a host reaches the host of the job's other node: a real RM forwards
// fence contributions and direct-modex requests over its own network. Both
// calls come from the library's progress thread and answer later through the
// callback (see NodeLink in node_link.h).
class CrossNode {
public:
    virtual ~CrossNode() = default;
    // `data` is this node's contribution, valid only during the call.
    virtual pmix_status_t fence(const char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata) = 0;
    virtual pmix_status_t direct_modex(const pmix_proc_t &proc, pmix_modex_cbfunc_t cbfunc, void *cbdata) = 0;
};

inline constexpr const char *kUnset = "\x01unset";

struct HostOptions {
    std::string hostname;                               // this node's name (PMIX_HOSTNAME); empty: gethostname()
    bool async_upcalls = false;                         // answer connected/finalized/fence from a host thread, later
    bool world_reachable = false;                       // tmpdir 0755 and socket mode 0777: lets another uid reach
                                                        // the server so that psec, not the file system, refuses it
    int op_timeout_ms = 20000;                          // bound for every callback the host waits for
    pmix_rank_t server_rank = 0;                        // PMIX_SERVER_RANK: each node's host has its own
    CrossNode *cross_node = nullptr;                    // the other node(s); null: every process is local
    struct event_base *event_base = nullptr;            // PMIX_EVENT_BASE: the host runs the loop
    bool hold_aborts = false;                           // keep abort upcalls unanswered until release_abort()
    bool share_topology = false;                        // PMIX_SERVER_SHARE_TOPOLOGY
    bool credential_upcalls = false;                    // get_credential / validate_credential of the host's own
    pmix_server_monitor_fn_t monitor_upcall = nullptr;  // the module's monitor slot (a test's own)
    pmix_server_grp_fn_t group_upcall = nullptr;        // the module's group slot (a test's own)
    // As Slurm's slurmstepd: PMIx_server_setup_fork in the forked child
    // (no progress thread there), no PMIX_HOSTNAME at init, and this node
    // named `node_name` in the job's maps (a Slurm NodeName, which need not
    // be gethostname()).
    bool setup_fork_in_child = false;
    bool omit_hostname_at_init = false;
    std::string node_name;  // empty: the hostname
};

// What the registration info describes and how much of it the host gives.
enum class InfoStyle {
    full,     // session/job/node/proc data, per-proc PMIX_PROC_DATA arrays
    minimal,  // PMIX_JOB_SIZE + PMIX_NODE_MAP + PMIX_PROC_MAP only: the rest is derived
    slurm     // what Slurm 22.05's mpi/pmix registers: maps, flat PMIX_NODEID and
              // PMIX_LOCAL_PEERS, per-proc data with PMIX_INT appnums and every
              // proc's PMIX_NODEID set to this node's
};

struct JobSpec {
    std::string nspace;
    int local_procs = 4;  // processes of the job on this node
    InfoStyle style = InfoStyle::full;
    // Other nodes of the job (a bigger cluster); each runs one process.
    // The local node sits at position local_node_index among them.
    std::vector<std::string> remote_nodes;
    int remote_procs = 1;  // processes on each remote node
    std::size_t local_node_index = 0;
    uint32_t univ_size = 0;  // 0: twice the job size (full) / not given (minimal)
};

// Ranks are assigned node by node in map order; these describe the result.
struct JobLayout {
    std::vector<std::string> nodes;               // in map order
    std::vector<std::vector<pmix_rank_t>> ranks;  // per node
    std::size_t local_node = 0;
    uint32_t job_size = 0;
    std::vector<pmix_rank_t> local_ranks() const { return ranks[local_node]; }
};

struct Launch {
    std::string program;            // absolute path
    std::vector<std::string> args;  // argv[1..]
    // Applied after PMIx_server_setup_fork: NAME -> value (kUnset removes NAME).
    std::vector<std::pair<std::string, std::string>> env_overrides;
};

struct ProcResult {
    std::string nspace;
    pmix_rank_t rank = 0;
    pid_t pid = -1;
    int wait_status = 0;
    bool timed_out = false;
    std::string output;  // stdout and stderr, interleaved

    bool exited_with(int code) const;
    bool succeeded() const { return exited_with(0); }
    std::string describe() const;  // one line + the output, for failure messages
};

struct Counters {
    std::atomic<int> connected{0};
    std::atomic<int> finalized{0};
    std::atomic<int> aborts{0};
    std::atomic<int> fences{0};
    std::atomic<int> direct_modex{0};
    std::atomic<int> last_abort_status{0};
    std::atomic<int> queries{0};
    std::atomic<int> connects{0};
    std::atomic<int> disconnects{0};
    std::atomic<int> last_connect_nprocs{0};  // procs the last connect upcall got
    std::atomic<int> credentials_made{0};     // get_credential upcalls
    std::atomic<int> credentials_checked{0};  // validate_credential upcalls
    std::atomic<int> group_exchanges{0};      // two nodes: constructs sent over the link
    std::atomic<int> endpoint_data_given{0};  // ... with this server's PMIX_GROUP_ENDPT_DATA
    // Upcalls that ran on another thread than the one driving the host's
    // PMIX_EVENT_BASE (set through Host::expect_upcalls_on).
    std::atomic<int> upcalls_off_loop{0};
};

// What the abort upcall received.
struct AbortRecord {
    pmix_proc_t caller{};
    int status = 0;
    std::string message;
    bool procs_null = true;  // the library passed procs == NULL
    std::vector<pmix_proc_t> procs;
};

class Host {
public:
    Host() = default;
    Host(const Host &) = delete;
    Host &operator=(const Host &) = delete;
    ~Host();

    // PMIx_server_init with a fresh temp dir. error_p says what failed.
    pmix_status_t start(const HostOptions &options, std::string *error_p);
    // Kills what is still running, then shutdown_server(), then removes the temp dir.
    pmix_status_t stop();
    // Deregisters every job and PMIx_server_finalize (bounded), leaving the
    // children running: they must notice that their server is gone.
    pmix_status_t shutdown_server();
    bool running() const { return started_; }

    // register_nspace + register_client (getuid/getgid) for every local rank.
    pmix_status_t register_job(const JobSpec &spec, JobLayout *layout_p, std::string *error_p);
    pmix_status_t deregister_job(const std::string &nspace);

    // Env for one process of a registered job (environ + setup_fork + overrides).
    pmix_status_t fork_env(const std::string &nspace, pmix_rank_t rank,
                           const std::vector<std::pair<std::string, std::string>> &overrides,
                           std::vector<std::string> *env_p);
    // Forks and execs one process as (nspace, rank); returns its pid.
    pmix_status_t spawn(const std::string &nspace, pmix_rank_t rank, const Launch &launch, pid_t *pid_p);
    // Spawns every local rank of a registered job.
    pmix_status_t spawn_job(const std::string &nspace, const JobLayout &layout, const Launch &launch,
                            std::vector<pid_t> *pids_p);
    // Waits for the given children (bounded); kills the ones still running at the deadline.
    std::vector<ProcResult> wait(const std::vector<pid_t> &pids, int timeout_ms);

    // register_job + spawn_job + wait + deregister_job.
    pmix_status_t run_job(const JobSpec &spec, const Launch &launch, int timeout_ms, std::vector<ProcResult> *results_p,
                          std::string *error_p);

    const std::string &tmpdir() const { return tmpdir_; }
    const std::string &hostname() const { return hostname_; }
    Counters &counters() { return counters_; }
    const HostOptions &options() const { return options_; }

    // Waits (bounded) for the first abort upcall; false when none came.
    bool wait_for_abort(int timeout_ms, AbortRecord *record_p);
    // Answers a held abort upcall (HostOptions::hold_aborts) with status.
    void release_abort(pmix_status_t status);
    // Called by the abort upcall.
    pmix_status_t record_abort(AbortRecord record, pmix_op_cbfunc_t cbfunc, void *cbdata);
    // Every upcall from now on must run on `loop` (the PMIX_EVENT_BASE thread).
    void expect_upcalls_on(std::thread::id loop);
    void note_upcall_thread();

    // Used by the module callbacks (a C table cannot carry `this`).
    static Host *current();
    void run_later(void (*fn)(void *), void *arg);

private:
    struct Child {
        pid_t pid;
        std::string nspace;
        pmix_rank_t rank;
        std::string output_path;
    };

    pmix_status_t make_tmpdir(std::string *error_p);
    [[noreturn]] void exec_after_setup_fork(const std::string &nspace, pmix_rank_t rank, const Launch &launch,
                                            char **argv);
    void kill_children();
    void join_workers();
    pmix_status_t wait_op(pmix_status_t rc, OpWait *op, const char *what);

    HostOptions options_;
    std::string tmpdir_;
    std::string hostname_;
    bool started_ = false;
    Counters counters_;
    std::vector<Child> children_;
    std::vector<std::string> nspaces_;
    std::mutex workers_lock_;
    std::vector<std::thread> workers_;
    unsigned output_seq_ = 0;

    std::mutex abort_lock_;
    std::condition_variable abort_changed_;
    bool abort_seen_ = false;
    AbortRecord abort_;
    pmix_op_cbfunc_t held_abort_cbfunc_ = nullptr;
    void *held_abort_cbdata_ = nullptr;
    std::atomic<bool> loop_thread_set_{false};
    std::thread::id loop_thread_;
};

// "PMIX_ERR_..." for a status, through PMIx_Error_string.
std::string status_name(pmix_status_t rc);

}  // namespace pmixpp::itest

#endif
