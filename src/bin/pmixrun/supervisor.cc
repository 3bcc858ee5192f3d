#include "supervisor.h"

#include "job_table.h"
#include "output.h"

#include <pmix.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace pmixrun {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kGrace{3};       // SIGTERM -> SIGKILL
constexpr std::chrono::seconds kDrainLimit{2};  // output left open by a grandchild

void say(const std::string &line)
{
    std::fflush(stdout);
    std::fprintf(stderr, "pmixrun: %s\n", line.c_str());
}

// PMIX_EVENT_PROC_TERMINATED to the job's processes that registered for it:
// which process (PMIX_EVENT_AFFECTED_PROC) and its exit code.
void announce_exit(const Job &job, const Proc &proc)
{
    pmix_proc_t gone;
    PMIX_LOAD_PROCID(&gone, job.nspace.c_str(), proc.rank);
    const int code = WIFEXITED(proc.wait_status) ? WEXITSTATUS(proc.wait_status) : 128 + WTERMSIG(proc.wait_status);
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &gone, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_EXIT_CODE, &code, PMIX_INT);
    (void)PMIx_Notify_event(PMIX_EVENT_PROC_TERMINATED, &gone, PMIX_RANGE_NAMESPACE, info, 2, nullptr, nullptr);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}

std::string describe(const Proc &proc, const Job &job)
{
    return "rank " + std::to_string(proc.rank) + " (pid " + std::to_string(proc.pid) + ", " +
           job.apps[proc.app].argv[0] + ")";
}

class Supervisor {
public:
    explicit Supervisor(const SupervisorSetup &setup) : s_(setup), job_(*setup.job)
    {
        const bool tag = setup.tag_output;
        for (const Proc &proc : job_.procs) {
            const std::string prefix = tag ? "[" + job_.nspace + ":" + std::to_string(proc.rank) + "] " : "";
            out_.push_back(std::make_unique<OutputStream>(STDOUT_FILENO, prefix));
            err_.push_back(std::make_unique<OutputStream>(STDERR_FILENO, prefix));
        }
        stdin_fd_ = setup.stdin_fd;
        if (stdin_fd_ >= 0) (void)::fcntl(stdin_fd_, F_SETFL, ::fcntl(stdin_fd_, F_GETFL) | O_NONBLOCK);
        if (setup.timeout_seconds > 0) {
            deadline_ = Clock::now() + std::chrono::milliseconds(static_cast<long long>(setup.timeout_seconds * 1000));
            has_deadline_ = true;
        }
    }

    int run();

private:
    bool finished() const;
    int poll_timeout_ms() const;
    void on_signals();
    void on_host_events();
    void reap();
    void on_output(Proc &proc, bool error_stream);
    void on_stdin();
    void flush_stdin();
    void close_stdin();
    void end_job(const std::string &why);
    void signal_all(int sig);
    void on_timers();
    int exit_code() const;

    const SupervisorSetup &s_;
    Job &job_;
    std::vector<std::unique_ptr<OutputStream>> out_, err_;
    int stdin_fd_ = -1;
    bool stdin_open_ = true;
    std::string stdin_pending_;
    bool ending_ = false;
    Clock::time_point kill_at_{};
    bool has_deadline_ = false;
    Clock::time_point deadline_{};
    Clock::time_point all_exited_at_{};
    bool all_exited_seen_ = false;
    // What decides the exit code (exit_code()).
    bool aborted_ = false;
    int abort_status_ = 0;
    bool timed_out_ = false;
    int first_failure_ = -1;   // waitpid status of the first failed process
    int interrupted_by_ = 0;   // a signal passed to the job
};

bool Supervisor::finished() const
{
    for (const Proc &proc : job_.procs) {
        if (!proc.exited) return false;
    }
    bool drained = true;
    for (const Proc &proc : job_.procs) drained = drained && proc.out_fd < 0 && proc.err_fd < 0;
    return drained || (all_exited_seen_ && Clock::now() - all_exited_at_ >= kDrainLimit);
}

int Supervisor::poll_timeout_ms() const
{
    auto next = Clock::time_point::max();
    if (has_deadline_ && !timed_out_) next = std::min(next, deadline_);
    if (ending_) next = std::min(next, kill_at_);
    if (all_exited_seen_) next = std::min(next, all_exited_at_ + kDrainLimit);
    if (next == Clock::time_point::max()) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(std::min<long long>(left + 1, 60000));
}

void Supervisor::signal_all(int sig)
{
    for (const Proc &proc : job_.procs) {
        if (!proc.exited && proc.pid > 0) ::kill(-proc.pid, sig);  // its process group
    }
}

void Supervisor::end_job(const std::string &why)
{
    if (ending_) return;
    ending_ = true;
    if (!why.empty()) say(why);
    signal_all(SIGTERM);
    kill_at_ = Clock::now() + kGrace;
}

void Supervisor::on_timers()
{
    const auto now = Clock::now();
    if (has_deadline_ && !timed_out_ && now >= deadline_ && !ending_) {
        timed_out_ = true;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", s_.timeout_seconds);
        end_job(std::string("the job did not finish within --timeout ") + seconds + " s: terminating it");
    }
    if (ending_ && now >= kill_at_) {
        signal_all(SIGKILL);
        kill_at_ = Clock::time_point::max();
    }
}

void Supervisor::reap()
{
    int status = 0;
    pid_t pid;
    bool reaped_any = false;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
        reaped_any = true;
        for (Proc &proc : job_.procs) {
            if (proc.pid != pid) continue;
            proc.exited = true;
            proc.wait_status = status;
            announce_exit(job_, proc);
            const bool failed = (WIFEXITED(status) && WEXITSTATUS(status) != 0) || WIFSIGNALED(status);
            if (!failed || ending_ || first_failure_ >= 0) continue;
            first_failure_ = status;
            const std::string how = WIFEXITED(status)
                                        ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                        : "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                                              strsignal(WTERMSIG(status)) + ")";
            end_job(describe(proc, job_) + " " + how + "; terminating the job");
        }
        if (pid > 0 && job_.procs[0].pid == pid) close_stdin();
    }
    if (reaped_any) update_job_table(job_);
    bool all = true;
    for (const Proc &proc : job_.procs) all = all && proc.exited;
    if (all && !all_exited_seen_) {
        all_exited_seen_ = true;
        all_exited_at_ = Clock::now();
    }
}

void Supervisor::on_signals()
{
    signalfd_siginfo info;
    while (::read(s_.signal_fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
        const int sig = static_cast<int>(info.ssi_signo);
        if (sig == SIGCHLD) continue;  // reaped below
        if (interrupted_by_ != 0 && sig == SIGINT) {
            say("second interrupt: killing the job");
            signal_all(SIGKILL);
            continue;
        }
        interrupted_by_ = sig;
        if (!ending_) {
            ending_ = true;
            say(std::string("got SIG") + sigabbrev_np(sig) + ": passing it to the job");
            signal_all(sig);
            kill_at_ = Clock::now() + kGrace;
        }
    }
    reap();
}

void Supervisor::on_host_events()
{
    for (const HostEvent &event : s_.events->take()) {
        if (event.kind != HostEvent::Kind::abort || aborted_) continue;
        aborted_ = true;
        abort_status_ = event.status;
        end_job("rank " + std::to_string(event.proc.rank) + " called PMIx_Abort with status " +
                std::to_string(event.status) + (event.message.empty() ? "" : ": " + event.message) +
                "; terminating the job");
    }
}

void Supervisor::on_output(Proc &proc, bool error_stream)
{
    int &fd = error_stream ? proc.err_fd : proc.out_fd;
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    OutputStream &stream = error_stream ? *err_[proc.rank] : *out_[proc.rank];
    if (n > 0) {
        stream.feed(buffer, static_cast<std::size_t>(n));
        return;
    }
    stream.finish();
    ::close(fd);
    fd = -1;
}

void Supervisor::close_stdin()
{
    if (stdin_fd_ >= 0) ::close(stdin_fd_);
    stdin_fd_ = -1;
    stdin_pending_.clear();
}

void Supervisor::flush_stdin()
{
    while (!stdin_pending_.empty() && stdin_fd_ >= 0) {
        const ssize_t n = ::write(stdin_fd_, stdin_pending_.data(), stdin_pending_.size());
        if (n < 0 && errno == EAGAIN) return;
        if (n <= 0) return close_stdin();  // rank 0 closed its stdin
        stdin_pending_.erase(0, static_cast<std::size_t>(n));
    }
    if (!stdin_open_ && stdin_pending_.empty()) close_stdin();
}

void Supervisor::on_stdin()
{
    char buffer[65536];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {
        stdin_open_ = false;
    } else {
        stdin_pending_.append(buffer, static_cast<std::size_t>(n));
    }
    flush_stdin();
}

int Supervisor::exit_code() const
{
    if (aborted_) return abort_status_;
    if (timed_out_) return 124;
    if (first_failure_ >= 0) {
        return WIFEXITED(first_failure_) ? WEXITSTATUS(first_failure_) : 128 + WTERMSIG(first_failure_);
    }
    if (interrupted_by_ != 0) return 128 + interrupted_by_;
    return 0;
}

int Supervisor::run()
{
    reap();  // a process may have ended before we looked
    while (!finished()) {
        std::vector<pollfd> fds;
        std::vector<std::pair<Proc *, bool>> owners;  // for the process fds, after the first entries
        fds.push_back({s_.signal_fd, POLLIN, 0});
        fds.push_back({s_.events->wake_fd(), POLLIN, 0});
        const bool read_stdin = stdin_fd_ >= 0 && stdin_open_ && stdin_pending_.empty();
        fds.push_back({read_stdin ? STDIN_FILENO : -1, POLLIN, 0});
        fds.push_back({stdin_fd_ >= 0 && !stdin_pending_.empty() ? stdin_fd_ : -1, POLLOUT, 0});
        for (Proc &proc : job_.procs) {
            if (proc.out_fd >= 0) {
                fds.push_back({proc.out_fd, POLLIN, 0});
                owners.emplace_back(&proc, false);
            }
            if (proc.err_fd >= 0) {
                fds.push_back({proc.err_fd, POLLIN, 0});
                owners.emplace_back(&proc, true);
            }
        }
        const int ready = ::poll(fds.data(), fds.size(), poll_timeout_ms());
        if (ready < 0 && errno != EINTR) {
            say(std::string("poll failed: ") + std::strerror(errno) + "; ending the job");
            end_job("");
        }
        if (ready > 0) {
            if (fds[0].revents != 0) on_signals();
            if (fds[1].revents != 0) on_host_events();
            if (fds[2].revents != 0) on_stdin();
            if (fds[3].revents != 0) flush_stdin();
            for (std::size_t i = 0; i < owners.size(); ++i) {
                if (fds[4 + i].revents != 0) on_output(*owners[i].first, owners[i].second);
            }
        }
        reap();
        on_timers();
    }
    for (Proc &proc : job_.procs) {
        for (int *fd : {&proc.out_fd, &proc.err_fd}) {
            if (*fd >= 0) ::close(*fd);
            *fd = -1;
        }
    }
    close_stdin();
    return exit_code();
}

} // namespace

int supervise(const SupervisorSetup &setup) { return Supervisor(setup).run(); }

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

} // namespace pmixrun
