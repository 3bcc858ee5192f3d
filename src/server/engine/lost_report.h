// How the host hears of clients lost without PMIx_Finalize: as OpenPMIx 4.2
// tells it, in one PMIX_ERR_LOST_CONNECTION event for every loss within a
// caching window (PMIX_MCA_pmix_event_caching_window, seconds, default 1).
// Unlike OpenPMIx's, the window runs from the first loss and is not
// restarted by the next, and a report names at most kMaxProcsPerReport
// procs: a stream of clients dying (or a flood of peers that connect and
// hang up) is told in bounded time and memory. A job that dies takes all its ranks
// within moments, and hosts act on each event: Slurm's handler prints an
// error line and cancels the step every time, so one event per rank put
// one line per rank on srun's output where OpenPMIx puts one. The event's
// source is the first proc lost; PMIX_EVENT_AFFECTED_PROCS lists them all.
// A report still waiting when the server finalizes is dropped, as
// OpenPMIx drops its cached events. Progress thread only.
#ifndef PMIXPP_SERVER_ENGINE_LOST_REPORT_H
#define PMIXPP_SERVER_ENGINE_LOST_REPORT_H

#include "common/runtime/progress_engine.h"

#include <pmix_common.h>

#include <cstddef>
#include <vector>

namespace pmixpp::server {

class Server;

inline constexpr std::size_t kMaxProcsPerReport = 1024;

struct LostReport {
    std::vector<pmix_proc_t> procs;  // lost in the current window, first first
    runtime::Timer timer;
};

void report_lost_to_host(Server &server, const pmix_proc_t &proc);
void drop_lost_report(Server &server);

}  // namespace pmixpp::server

#endif
