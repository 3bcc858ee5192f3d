#include "supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace pmixrun {
namespace {

class Supervisor {
public:
    explicit Supervisor(const SupervisorSetup &setup)
        : s_(setup), rt_(*setup.runtime), stdin_(setup.stdin_feeds, !setup.stdin_from_tool)
    {
        rt_.set_stdin(&stdin_);
        if (setup.timeout_seconds > 0) {
            deadline_ = Clock::now() + std::chrono::milliseconds(static_cast<long long>(setup.timeout_seconds * 1000));
        }
    }

    int run();

private:
    struct Source {
        Proc *proc;
        bool error_stream;
    };

    int poll_timeout_ms() const;
    Clock::time_point next_partial_line() const;
    void flush_due_partial_lines();
    void on_signals();
    void on_host_events();
    void reap();
    void on_output(Proc &proc, bool error_stream);

    const SupervisorSetup &s_;
    Runtime &rt_;
    StdinForwarder stdin_;
    Clock::time_point deadline_ = Clock::time_point::max();
};

int Supervisor::poll_timeout_ms() const
{
    const auto next = std::min({deadline_, rt_.next_timer(), next_partial_line()});
    if (next == Clock::time_point::max()) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(std::min<long long>(left + 1, 60000));
}

Clock::time_point Supervisor::next_partial_line() const
{
    auto next = Clock::time_point::max();
    for (const auto &job : rt_.jobs()) {
        for (const Proc &proc : job->procs) {
            if (proc.out) next = std::min(next, proc.out->partial_due());
            if (proc.err) next = std::min(next, proc.err->partial_due());
        }
    }
    return next;
}

void Supervisor::flush_due_partial_lines()
{
    const auto now = Clock::now();
    for (auto &job : rt_.jobs()) {
        for (Proc &proc : job->procs) {
            if (proc.out) proc.out->flush_partial_if_due(now);
            if (proc.err) proc.err->flush_partial_if_due(now);
        }
    }
}

void Supervisor::reap()
{
    int status = 0;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
        for (auto &job : rt_.jobs()) {
            for (Proc &proc : job->procs) {
                if (proc.pid != pid || proc.exited) continue;
                rt_.on_exit(*job, proc, status);
                if (job.get() == &rt_.main_job()) stdin_.reader_exited(proc.rank);
            }
        }
    }
}

void Supervisor::on_signals()
{
    signalfd_siginfo info;
    while (::read(s_.signal_fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
        const int sig = static_cast<int>(info.ssi_signo);
        if (sig != SIGCHLD) rt_.interrupt(sig);  // SIGCHLD: reaped below
    }
    reap();
}

void Supervisor::on_host_events()
{
    for (HostTask &task : s_.events->take()) task(rt_);
}

void Supervisor::on_output(Proc &proc, bool error_stream)
{
    int &fd = error_stream ? proc.err_fd : proc.out_fd;
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    OutputStream &stream = error_stream ? *proc.err : *proc.out;
    if (n > 0) {
        stream.feed(buffer, static_cast<std::size_t>(n));
        return;
    }
    stream.finish();
    ::close(fd);
    fd = -1;
}

int Supervisor::run()
{
    reap();  // a process may have ended before we looked
    while (!rt_.finished()) {
        std::vector<pollfd> fds;
        std::vector<Source> sources;  // for the process fds, from first_source on
        fds.push_back({s_.signal_fd, POLLIN, 0});
        fds.push_back({s_.events->wake_fd(), POLLIN, 0});
        stdin_.add_poll_entries(&fds);
        const std::size_t first_source = fds.size();
        for (auto &job : rt_.jobs()) {
            for (Proc &proc : job->procs) {
                if (proc.out_fd >= 0) {
                    fds.push_back({proc.out_fd, POLLIN, 0});
                    sources.push_back({&proc, false});
                }
                if (proc.err_fd >= 0) {
                    fds.push_back({proc.err_fd, POLLIN, 0});
                    sources.push_back({&proc, true});
                }
            }
        }
        const int ready = ::poll(fds.data(), fds.size(), poll_timeout_ms());
        if (ready < 0 && errno != EINTR) {
            std::fprintf(stderr, "pmixrun: poll failed: %s; ending the jobs\n", std::strerror(errno));
            for (auto &job : rt_.jobs()) rt_.end_job(*job, "");
        }
        if (ready > 0) {
            if (fds[0].revents != 0) on_signals();
            stdin_.on_poll(fds);
            for (std::size_t i = 0; i < sources.size(); ++i) {
                if (fds[first_source + i].revents != 0) on_output(*sources[i].proc, sources[i].error_stream);
            }
            // Last: a spawn adds jobs and processes, which moves what `sources` points into.
            if (fds[1].revents != 0) on_host_events();
        }
        flush_due_partial_lines();
        reap();
        if (Clock::now() >= deadline_) {
            rt_.on_timeout(s_.timeout_seconds);
            deadline_ = Clock::time_point::max();
        }
        rt_.on_timers();
    }
    stdin_.close_all();
    rt_.set_stdin(nullptr);
    return rt_.exit_code();
}

}  // namespace

int supervise(const SupervisorSetup &setup)
{
    return Supervisor(setup).run();
}

}  // namespace pmixrun
