// Monitors the server runs itself, on its progress base: a heartbeat
// monitor counts the periods without a PMIx_Heartbeat of its process, a
// file monitor the checks that found the file unchanged; when the count
// reaches the monitor's drops the alert is raised, once per stall.
// Progress thread only.
#ifndef PMIXPP_SERVER_MONITOR_WATCH_H
#define PMIXPP_SERVER_MONITOR_WATCH_H

#include "server/monitor/monitor_registry.h"
#include "server/state/server.h"

#include <pmix_common.h>

#include <cstddef>

namespace pmixpp::server::monitor {

// Starts, or cancels, what `monitor` and the directives ask for, for the
// process `proc` on connection `owner` (kNoPeer: the host process itself).
// PMIX_ERR_NOT_SUPPORTED for a monitor type the server does not run, and
// PMIX_ERR_BAD_PARAM for a bad directive, each with one log line that says
// why; PMIX_ERR_NOT_FOUND for a cancel that matched nothing;
// PMIX_ERR_OUT_OF_RESOURCE when the owner holds kMaxMonitorsPerOwner.
pmix_status_t run_local(Server &server, OwnerId owner, const pmix_proc_t &proc, const pmix_info_t &monitor,
                        const pmix_info_t directives[], std::size_t ndirs);

// alerts.cc: raises the alert of `monitor` (PMIX_MONITOR_HEARTBEAT_ALERT or
// PMIX_MONITOR_FILE_ALERT) to the monitored process and to the host's own
// handlers, with the monitored proc as source and PMIX_EVENT_AFFECTED_PROC.
void raise_alert(Server &server, const Monitor &monitor);

}  // namespace pmixpp::server::monitor

#endif
