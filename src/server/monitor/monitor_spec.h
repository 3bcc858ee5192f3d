// What one PMIx_Process_monitor request asks the server to do itself:
// watch heartbeats (PMIX_MONITOR_HEARTBEAT), watch a file
// (PMIX_MONITOR_FILE), or cancel monitors (PMIX_MONITOR_CANCEL, as the
// monitor or as a directive). Pure parsing: no server state.
#ifndef PMIXPP_SERVER_MONITOR_MONITOR_SPEC_H
#define PMIXPP_SERVER_MONITOR_MONITOR_SPEC_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace pmixpp::server::monitor {

enum class Kind { heartbeat, file, cancel };

struct Spec {
    Kind kind = Kind::heartbeat;
    std::string id;                                  // PMIX_MONITOR_ID; for a cancel, the monitor to stop
    bool cancel_all = false;                         // a cancel without an id: every monitor of the requester
    pmix_data_range_t range = PMIX_RANGE_NAMESPACE;  // of the alert
    uint32_t period_s = 0;                           // PMIX_MONITOR_HEARTBEAT_TIME / PMIX_MONITOR_FILE_CHECK_TIME
    uint32_t drops = 1;                              // periods without a sign of life before the alert
    // The file monitor: which of the file's attributes count as a sign of life.
    std::string path;
    bool watch_size = false;
    bool watch_access = false;
    bool watch_modify = false;
};

// Reads `monitor` and the directives into *spec_p. On failure *reason_p says
// what is wrong, for a log line:
//   PMIX_ERR_NOT_SUPPORTED  the monitor key is not one the server runs itself
//   PMIX_ERR_BAD_PARAM      a required directive is missing or has a bad value
pmix_status_t read_spec(const pmix_info_t &monitor, const pmix_info_t directives[], std::size_t ndirs, Spec *spec_p,
                        std::string *reason_p);

}  // namespace pmixpp::server::monitor

#endif
