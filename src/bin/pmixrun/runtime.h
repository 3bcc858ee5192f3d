// What pmixrun runs, on its main thread: every job (the command line's and
// the spawned ones), the sessions they run in, and the decisions about
// their lives:
//   - a job ends when all its processes exited (it is then deregistered,
//     and whoever spawned it hears PMIX_EVENT_JOB_END);
//   - a job that must stop (a failure, an abort, a job-control terminate,
//     its session's end, its spawner's end unless separated) gets SIGTERM,
//     then SIGKILL after a grace period;
//   - a spawned job in its spawner's session ends with the spawner unless
//     separated (PMIX_SPAWN_CHILD_SEP, PMIX_JOB_CTRL_SEP); one spawned into
//     another session lives as long as that session;
//   - when the command line's job ends, the default session ends with it,
//     and with it every child session and spawned job not separated from it;
//     pmixrun runs until no job is left.
// Upcalls (progress thread) reach it through HostEvents closures.
#ifndef PMIXPP_BIN_PMIXRUN_RUNTIME_H
#define PMIXPP_BIN_PMIXRUN_RUNTIME_H

#include "job.h"
#include "options.h"
#include "sessions.h"
#include "stdin_forwarder.h"

#include <pmix_server.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace pmixrun {

// A PMIx_Spawn the host was asked for, with its own copies of the request.
struct SpawnCall {
    pmix_proc_t requester{};
    pmix_info_t *job_info = nullptr;
    size_t ninfo = 0;
    pmix_app_t *apps = nullptr;
    size_t napps = 0;
    pmix_spawn_cbfunc_t cbfunc = nullptr;
    void *cbdata = nullptr;
    ~SpawnCall();
};

// An allocation request, a session-control or a job-control request.
struct InfoCall {
    pmix_proc_t requester{};
    uint32_t number = 0;               // allocation directive, or session id
    std::vector<pmix_proc_t> targets;  // job control
    pmix_info_t *info = nullptr;
    size_t ninfo = 0;
    pmix_info_cbfunc_t cbfunc = nullptr;
    void *cbdata = nullptr;
    ~InfoCall();
    // Answers the requester with status and `results` (copied).
    void answer(pmix_status_t status, const std::vector<pmix_info_t> &results = {});
};

// "pmixrun: refused a <what>: <why>" on stderr.
void say_refusal(const char *what, const std::string &why);

class Runtime {
public:
    Runtime(const Options &options, std::string hostname);

    // The command line's job: prepare, register, launch. False with *why_p
    // (what was started is ended again).
    bool start_main_job(std::vector<StdinFeed> *feeds_p, std::string *why_p);

    std::vector<std::unique_ptr<Job>> &jobs() { return jobs_; }
    Job *find_job(const std::string &nspace);
    Job &main_job() { return *jobs_.front(); }
    SessionTable &sessions() { return sessions_; }

    // Asks a job to stop (no-op once it is ending); `why` is printed when
    // not empty. SIGTERM goes after `notice` (0: at once), SIGKILL a grace later.
    void end_job(Job &job, const std::string &why, std::chrono::seconds notice = std::chrono::seconds{0});
    void terminate(Job &job);  // the SIGTERM of end_job
    void signal_job(Job &job, int sig);
    // A reaped process.
    void on_exit(Job &job, Proc &proc, int status);
    void on_abort(const pmix_proc_t &proc, int status, const std::string &message);
    // Ctrl-C / SIGTERM: passed to every job, which then ends.
    void interrupt(int sig);
    void on_timeout(double seconds);
    // SIGKILL for jobs past their grace period; jobs whose processes are
    // gone and whose output is drained (or stuck past the drain limit) end.
    void on_timers();
    // The earliest time on_timers has work.
    Clock::time_point next_timer() const;
    bool finished() const;
    int exit_code() const;

    // The command line job's stdin (the supervisor's), for tools' pushes;
    // nullptr before the supervisor runs.
    void set_stdin(StdinForwarder *forwarder) { stdin_ = forwarder; }
    StdinForwarder *stdin_forwarder() { return stdin_; }

    // The host's requests (host_requests.cc).
    void spawn(SpawnCall &call);
    void allocate(InfoCall &call);
    void session_control(InfoCall &call);
    void job_control(InfoCall &call);

private:
    bool launch(Job &job, std::vector<StdinFeed> *feeds_p, std::string *why_p);
    bool place(Job &job, std::string *why_p);
    // The cpus the running processes were mapped to.
    Bitmap held_cpus() const;
    // Processes started and not yet exited, over all jobs.
    std::size_t running_processes() const;
    std::string next_nspace();
    void finish_job(Job &job);
    void end_session(uint32_t id, const std::string &why, std::chrono::seconds notice = std::chrono::seconds{0});
    void publish_state();

    const Options &options_;
    std::string hostname_;
    std::string nspace_base_;
    unsigned next_job_ = 1;
    SessionTable sessions_;
    std::vector<std::unique_ptr<Job>> jobs_;
    bool timed_out_ = false;
    int interrupted_by_ = 0;
    StdinForwarder *stdin_ = nullptr;
};

}  // namespace pmixrun

#endif
