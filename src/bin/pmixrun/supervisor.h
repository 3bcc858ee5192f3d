// pmixrun's main loop while jobs run: forwards every job's output and its
// own stdin to the command line job's readers (stdin_forwarder.h), reaps processes, passes Ctrl-C / SIGTERM on,
// runs what the host's upcalls queued (aborts, spawns, session and job
// control), and fires the timers (--timeout, the SIGKILL after SIGTERM's
// grace period, the output drain limit). The Runtime decides what each of
// these means for the jobs and the exit code:
//   an abort of the command line's job      -> its status
//   --timeout                               -> 124
//   a process of that job that failed       -> the first one's exit code, or 128+signal
//   interrupted (Ctrl-C ...)                -> 128+signal, unless a process failed first
//   otherwise                               -> 0
#ifndef PMIXPP_BIN_PMIXRUN_SUPERVISOR_H
#define PMIXPP_BIN_PMIXRUN_SUPERVISOR_H

#include "host_module.h"
#include "runtime.h"
#include "stdin_forwarder.h"

#include <vector>

namespace pmixrun {

struct SupervisorSetup {
    Runtime *runtime = nullptr;
    HostEvents *events = nullptr;
    int signal_fd = -1;                  // signalfd of the blocked signals
    std::vector<StdinFeed> stdin_feeds;  // the command line job's stdin readers
    bool stdin_from_tool = false;        // --stdin-tool: pmixrun's own stdin is not read
    double timeout_seconds = 0;
};

// Runs until every job is done; the exit code.
int supervise(const SupervisorSetup &setup);

}  // namespace pmixrun

#endif
