#include "runtime.h"

#include "job_table.h"
#include "binding.h"
#include "launcher.h"
#include "node_cpuset.h"
#include "output_files.h"
#include "server_setup.h"

#include <pmix.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace pmixrun {
namespace {

constexpr std::chrono::seconds kGrace{3};       // SIGTERM -> SIGKILL
constexpr std::chrono::seconds kDrainLimit{2};  // output left open by a grandchild
// A job that completed on its own leaves its spawned jobs this long to end
// too before they are terminated: MPI_Comm_spawn's children finalize as
// their parents exit, and a SIGTERM then would lose what they still flush.
constexpr std::chrono::seconds kChildrenGrace{3};
// From a rank's failure to the SIGTERM of the rest: time for the failure
// event to reach them and for their handlers to act on it.
constexpr std::chrono::seconds kFailureNotice{1};

void say(const std::string &line)
{
    std::fflush(stdout);
    std::fprintf(stderr, "pmixrun: %s\n", line.c_str());
}

std::string describe(const Job &job, const Proc &proc)
{
    return (job.from_command_line() ? "" : "job " + job.nspace + " ") + "rank " + std::to_string(proc.rank) + " (pid " +
           std::to_string(proc.pid) + ", " + job.apps[proc.app].argv[0] + ")";
}

std::string how_it_ended(int status)
{
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
}

// `code` about proc's end to the rest of its job (range: its namespace),
// naming it and its exit code. `to_default_handlers` false keeps it from
// handlers registered for every code.
void announce_end(const Job &job, const Proc &proc, pmix_status_t code, bool to_default_handlers)
{
    pmix_proc_t gone;
    PMIX_LOAD_PROCID(&gone, job.nspace.c_str(), proc.rank);
    const int exit_code =
        WIFEXITED(proc.wait_status) ? WEXITSTATUS(proc.wait_status) : 128 + WTERMSIG(proc.wait_status);
    const bool non_default = !to_default_handlers;
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &gone, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_EXIT_CODE, &exit_code, PMIX_INT);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_NON_DEFAULT, &non_default, PMIX_BOOL);
    (void)PMIx_Notify_event(code, &gone, PMIX_RANGE_NAMESPACE, info, 3, nullptr, nullptr);
    for (pmix_info_t &item : info) PMIX_INFO_DESTRUCT(&item);
}

// PMIX_EVENT_PROC_TERMINATED to the job's processes that registered for it
// by code, as PRRTE sends it. A normal exit is no fault: Open MPI 4.1's
// default handler aborts the job on any event it gets, and a rank that is
// still finalizing when a faster one exits would abort with -201.
void announce_exit(const Job &job, const Proc &proc)
{
    announce_end(job, proc, PMIX_EVENT_PROC_TERMINATED, false);
}

// PMIX_ERR_PROC_ABORTED to the rest of the job when a rank failed on its
// own and the job is about to be terminated. A job that handles faults
// (OpenPMIx's fault example) hears it before the SIGTERM that follows, and
// default handlers hear it too: for them it is the fault it is.
void announce_failure(const Job &job, const Proc &proc)
{
    announce_end(job, proc, PMIX_ERR_PROC_ABORTED, true);
}

// PMIX_EVENT_JOB_END to the process (or tool) that spawned the job: which
// job (PMIX_EVENT_AFFECTED_PROC, rank wildcard), its status and exit code.
// Like the exit of one rank, it goes to handlers registered for it only: an
// Open MPI parent of MPI_Comm_spawn would abort on it in its default one.
void announce_job_end(const Job &job)
{
    if (job.from_command_line()) return;
    pmix_proc_t affected;
    PMIX_LOAD_PROCID(&affected, job.nspace.c_str(), PMIX_RANK_WILDCARD);
    const int code = job.exit_code();
    const pmix_status_t status = code == 0 ? PMIX_SUCCESS : PMIX_ERR_JOB_TERMINATED;
    const bool non_default = true;
    pmix_info_t info[5];
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &affected, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_JOB_TERM_STATUS, &status, PMIX_STATUS);
    PMIX_INFO_LOAD(&info[2], PMIX_EXIT_CODE, &code, PMIX_INT);
    PMIX_INFO_LOAD(&info[3], PMIX_EVENT_CUSTOM_RANGE, &job.spawned_by, PMIX_PROC);
    PMIX_INFO_LOAD(&info[4], PMIX_EVENT_NON_DEFAULT, &non_default, PMIX_BOOL);
    (void)PMIx_Notify_event(PMIX_EVENT_JOB_END, &affected, PMIX_RANGE_CUSTOM, info, 5, nullptr, nullptr);
    for (pmix_info_t &item : info) PMIX_INFO_DESTRUCT(&item);
}

bool all_exited(const Job &job)
{
    for (const Proc &proc : job.procs) {
        if (!proc.exited) return false;
    }
    return true;
}

bool drained(const Job &job)
{
    for (const Proc &proc : job.procs) {
        if (proc.out_fd >= 0 || proc.err_fd >= 0) return false;
    }
    return true;
}

// "3" of "ppx-host-123@3": the job's number in --output-filename's layout.
std::string job_number(const std::string &nspace)
{
    const std::size_t at = nspace.rfind('@');
    return at == std::string::npos ? nspace : nspace.substr(at + 1);
}

void close_outputs(Job &job)
{
    for (Proc &proc : job.procs) {
        for (int *fd : {&proc.out_fd, &proc.err_fd}) {
            if (*fd >= 0) ::close(*fd);
            *fd = -1;
        }
        // A line still held back goes out (the pipes may have been cut at the drain limit).
        if (proc.out) proc.out->finish();
        if (proc.err) proc.err->finish();
    }
}

}  // namespace

void say_refusal(const char *what, const std::string &why)
{
    say(std::string("refused a ") + what + ": " + why);
}

Runtime::Runtime(const Options &options, std::string hostname)
    : options_(options), hostname_(std::move(hostname)),
      nspace_base_(kNamePrefix + hostname_ + "-" + std::to_string(::getpid())),
      sessions_(options.session_id.value_or(1), hostname_)
{}

// Each job is placed and bound as its options say (placement.h): the
// command line's --map-by, --bind-to and --cpus-per-rank, a spawn's
// attributes; on the units the running jobs left free.
bool Runtime::place(Job &job, std::string *why_p)
{
    const auto topology = static_cast<hwloc_topology_t>(node_topology().topology);
    const Bitmap held = held_cpus();
    JobPlacement placement;
    if (!place_job(topology, job.placement, job.size(), held.get(), &placement, why_p)) {
        if (job.from_command_line()) return false;
        // A spawn is not refused for where its ranks would go.
        say("spawned job " + job.nspace + ": " + *why_p + "; its ranks run unbound");
        why_p->clear();
        return true;
    }
    if (!placement.notice.empty()) {
        say(job.from_command_line() ? placement.notice : "spawned job " + job.nspace + ": " + placement.notice);
    }
    if (!placement.cpusets.empty() && !bindings_apply() && !job.placement.report && job.from_command_line()) {
        say("the topology is not this machine's (HWLOC_XMLFILE): bindings are computed and told to the ranks, "
            "not applied");
    }
    job.report_bindings = job.placement.report;
    for (std::size_t rank = 0; rank < placement.cpusets.size(); ++rank) {
        Proc &proc = job.procs[rank];
        proc.binding = std::move(placement.cpusets[rank]);
        proc.mapped = std::move(placement.mapped[rank]);
        pmix_cpuset_t cpuset{const_cast<char *>("hwloc"), proc.binding.get()};
        char *text = nullptr;
        if (PMIx_server_generate_cpuset_string(&cpuset, &text) == PMIX_SUCCESS && text != nullptr) proc.cpuset = text;
        std::free(text);
    }
    return true;
}

std::string Runtime::next_nspace()
{
    return nspace_base_ + "@" + std::to_string(next_job_++);
}

Job *Runtime::find_job(const std::string &nspace)
{
    for (auto &job : jobs_) {
        if (job->nspace == nspace) return job.get();
    }
    return nullptr;
}

Bitmap Runtime::held_cpus() const
{
    Bitmap held(hwloc_bitmap_alloc());
    for (const auto &job : jobs_) {
        for (const Proc &proc : job->procs) {
            if (proc.pid > 0 && !proc.exited && proc.mapped) hwloc_bitmap_or(held.get(), held.get(), proc.mapped.get());
        }
    }
    return held;
}

std::size_t Runtime::running_processes() const
{
    std::size_t running = 0;
    for (const auto &job : jobs_) {
        for (const Proc &proc : job->procs) running += proc.pid > 0 && !proc.exited ? 1 : 0;
    }
    return running;
}

bool Runtime::launch(Job &job, std::vector<StdinFeed> *feeds_p, std::string *why_p)
{
    job.merge_stderr = options_.merge_stderr;
    for (Proc &proc : job.procs) {
        LineFormat format;
        if (options_.tag_output) format.tag = "[" + job.nspace + ":" + std::to_string(proc.rank) + "] ";
        format.timestamp = options_.timestamp_output;
        format.line_wait = std::chrono::milliseconds(options_.output_line_wait_ms);
        RankFiles files{STDOUT_FILENO, options_.merge_stderr ? STDOUT_FILENO : STDERR_FILENO};
        if (!options_.output_dir.empty() && !open_rank_files(options_.output_dir, job_number(job.nspace), proc.rank,
                                                             !options_.merge_stderr, &files, why_p)) {
            job.phase = JobPhase::done;
            return false;
        }
        proc.out = std::make_shared<OutputStream>(files.out, format);
        proc.err = std::make_shared<OutputStream>(files.err, format);
        pmix_proc_t source;
        PMIX_LOAD_PROCID(&source, job.nspace.c_str(), proc.rank);
        proc.out->set_source(source, PMIX_FWD_STDOUT_CHANNEL);
        proc.err->set_source(source, PMIX_FWD_STDERR_CHANNEL);
    }
    if (Session *session = sessions_.find(job.session_id)) session->jobs.push_back(job.nspace);
    if (!place(job, why_p)) {
        job.phase = JobPhase::done;
        return false;
    }
    if (!prepare_job(job, why_p)) {
        job.phase = JobPhase::done;
        return false;
    }
    job.oversubscribed = running_processes() + job.size() > usable_cores();
    if (!launch_job(job, options_.stdin_target, feeds_p, why_p)) {
        end_started(job);
        release_job(job);
        job.phase = JobPhase::done;
        return false;
    }
    job.phase = JobPhase::running;
    publish_state();
    return true;
}

bool Runtime::start_main_job(std::vector<StdinFeed> *feeds_p, std::string *why_p)
{
    jobs_.push_back(std::make_unique<Job>(make_job(options_.apps, next_nspace(), hostname_, sessions_.default_id())));
    jobs_.back()->placement = options_.placement;
    return launch(*jobs_.back(), feeds_p, why_p);
}

void Runtime::signal_job(Job &job, int sig)
{
    for (const Proc &proc : job.procs) {
        if (!proc.exited && proc.pid > 0) ::kill(-proc.pid, sig);  // its process group
    }
}

void Runtime::end_job(Job &job, const std::string &why, std::chrono::seconds notice)
{
    if (job.phase != JobPhase::running) return;
    job.phase = JobPhase::ending;
    if (!why.empty()) say(why);
    job.term_at = Clock::now() + notice;
    job.kill_at = job.term_at + kGrace;
    if (notice.count() == 0) terminate(job);
}

void Runtime::terminate(Job &job)
{
    job.term_at = Clock::time_point::max();
    signal_job(job, SIGCONT);  // a paused job must be able to act on SIGTERM
    signal_job(job, SIGTERM);
}

void Runtime::on_exit(Job &job, Proc &proc, int status)
{
    proc.exited = true;
    proc.wait_status = status;
    announce_exit(job, proc);
    const bool failed = (WIFEXITED(status) && WEXITSTATUS(status) != 0) || WIFSIGNALED(status);
    if (failed && job.first_failure < 0) {
        // Also while the job ends on request: its spawner hears how it ended.
        job.first_failure = status;
        if (job.phase == JobPhase::running) {
            job.failed_on_its_own = true;
            announce_failure(job, proc);
            end_job(job, describe(job, proc) + " " + how_it_ended(status) + "; terminating the job", kFailureNotice);
        }
    }
    if (all_exited(job) && !job.all_exited) {
        job.all_exited = true;
        job.all_exited_at = Clock::now();
    }
    publish_state();
}

void Runtime::on_abort(const pmix_proc_t &proc, int status, const std::string &message)
{
    Job *job = find_job(proc.nspace);
    if (job == nullptr || job->aborted || job->phase == JobPhase::done) return;
    job->aborted = true;
    job->abort_status = status;
    job->phase = JobPhase::running;  // an abort while ending still names its status
    end_job(*job, (job->from_command_line() ? "" : "job " + job->nspace + " ") + "rank " + std::to_string(proc.rank) +
                      " called PMIx_Abort with status " + std::to_string(status) +
                      (message.empty() ? "" : ": " + message) + "; terminating the job");
}

void Runtime::interrupt(int sig)
{
    if (interrupted_by_ != 0 && sig == SIGINT) {
        say("second interrupt: killing every job");
        for (auto &job : jobs_) signal_job(*job, SIGKILL);
        return;
    }
    if (interrupted_by_ != 0) return;
    interrupted_by_ = sig;
    say(std::string("got SIG") + sigabbrev_np(sig) + ": passing it to the job");
    for (auto &job : jobs_) {
        if (job->phase != JobPhase::running) continue;
        job->phase = JobPhase::ending;
        signal_job(*job, sig);
        job->kill_at = Clock::now() + kGrace;
    }
}

void Runtime::on_timeout(double seconds)
{
    if (timed_out_) return;
    timed_out_ = true;
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    const std::string why = std::string("the job did not finish within --timeout ") + text + " s: terminating it";
    say(why);
    for (auto &job : jobs_) end_job(*job, "");
}

Clock::time_point Runtime::next_timer() const
{
    auto next = Clock::time_point::max();
    for (const auto &job : jobs_) {
        if (job->phase == JobPhase::ending) next = std::min({next, job->term_at, job->kill_at});
        if (job->phase != JobPhase::done && job->all_exited) next = std::min(next, job->all_exited_at + kDrainLimit);
    }
    return next;
}

void Runtime::on_timers()
{
    const auto now = Clock::now();
    for (std::size_t i = 0; i < jobs_.size(); ++i) {  // finish_job may add nothing, but may end others
        Job &job = *jobs_[i];
        if (job.phase == JobPhase::ending && now >= job.term_at) terminate(job);
        if (job.phase == JobPhase::ending && now >= job.kill_at) {
            signal_job(job, SIGKILL);
            job.kill_at = Clock::time_point::max();
        }
        if (job.phase != JobPhase::done && job.phase != JobPhase::starting && job.all_exited &&
            (drained(job) || now - job.all_exited_at >= kDrainLimit)) {
            finish_job(job);
        }
    }
}

void Runtime::finish_job(Job &job)
{
    // Completed on its own: every process exited 0 (a job ended on request
    // that still finished cleanly counts too: its children get the grace).
    const bool completed = job.exit_code() == 0;
    job.phase = JobPhase::done;
    close_outputs(job);
    announce_job_end(job);
    release_job(job);
    // Jobs it spawned into its own session end with it, unless separated
    // from it (after kChildrenGrace when it completed on its own); a job
    // spawned into another session lives as long as that.
    const auto notice = completed ? kChildrenGrace : std::chrono::seconds{0};
    for (auto &other : jobs_) {
        if (other->from_command_line() || other->separated || other->phase != JobPhase::running) continue;
        if (job.nspace == other->spawned_by.nspace && other->session_id == job.session_id) end_job(*other, "", notice);
    }
    // The command line's job holds the default session: its end is the
    // session's, with the same grace for the session's other jobs.
    if (&job == jobs_.front().get()) end_session(sessions_.default_id(), "", notice);
    publish_state();
}

void Runtime::end_session(uint32_t id, const std::string &why, std::chrono::seconds notice)
{
    if (!why.empty()) say(why);
    for (uint32_t ended : sessions_.end(id)) {
        const Session *session = sessions_.find(ended);
        for (const std::string &nspace : session->jobs) {
            Job *job = find_job(nspace);
            if (job != nullptr) end_job(*job, "", notice);
        }
    }
    publish_state();
}

bool Runtime::finished() const
{
    for (const auto &job : jobs_) {
        if (job->phase != JobPhase::done) return false;
    }
    return true;
}

int Runtime::exit_code() const
{
    const Job &main = *jobs_.front();
    if (main.aborted) return main.abort_status;
    if (timed_out_) return 124;
    if (main.failed_on_its_own) return main.exit_code();
    if (interrupted_by_ != 0) return 128 + interrupted_by_;
    return 0;
}

void Runtime::publish_state()
{
    update_job_table(jobs_, sessions_);
}

}  // namespace pmixrun
