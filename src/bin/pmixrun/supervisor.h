// pmixrun's main loop while the job runs: forwards output and stdin, reaps
// processes, passes Ctrl-C / SIGTERM on, acts on aborts and on the
// timeout, and decides the exit code:
//   an abort                 -> its status
//   --timeout                -> 124
//   a process that failed    -> the first one's exit code, or 128+signal
//   interrupted (Ctrl-C ...) -> 128+signal, unless a process failed first
//   otherwise                -> 0
// Once the job must end (a failure, an abort, the timeout, a signal) every
// live process gets SIGTERM, then SIGKILL after a grace period. Each exit is
// announced to the job's other processes that registered for
// PMIX_EVENT_PROC_TERMINATED (with PMIX_EVENT_AFFECTED_PROC and
// PMIX_EXIT_CODE).
#ifndef PMIXPP_BIN_PMIXRUN_SUPERVISOR_H
#define PMIXPP_BIN_PMIXRUN_SUPERVISOR_H

#include "host_module.h"
#include "job.h"

namespace pmixrun {

struct SupervisorSetup {
    Job *job = nullptr;
    HostEvents *events = nullptr;
    int signal_fd = -1;      // signalfd of the blocked signals
    int stdin_fd = -1;       // rank 0's stdin, or -1
    bool tag_output = false;
    double timeout_seconds = 0;
};

// Runs until every process exited and its output is drained; the exit code.
int supervise(const SupervisorSetup &setup);

// Ends whatever was started (a launch that failed half-way): SIGTERM, then
// SIGKILL, and reaps them.
void end_started(Job &job);

} // namespace pmixrun

#endif
