// The monitors the server runs itself, by the connection that asked for
// them (kNoPeer: the host process's own). A connection holds at most
// kMaxMonitorsPerOwner: every queue has a bound. Progress thread only.
#ifndef PMIXPP_SERVER_MONITOR_MONITOR_REGISTRY_H
#define PMIXPP_SERVER_MONITOR_MONITOR_REGISTRY_H

#include "common/runtime/progress_engine.h"
#include "server/monitor/monitor_spec.h"

#include <pmix_common.h>

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace pmixpp::server::monitor {

using OwnerId = uint64_t;  // a server::PeerId
inline constexpr std::size_t kMaxMonitorsPerOwner = 64;

// What a file monitor saw at its last check.
struct FileSnapshot {
    bool exists = false;
    off_t size = 0;
    struct timespec accessed {};
    struct timespec modified {};
};

struct Monitor {
    uint64_t serial = 0;
    OwnerId owner = 0;
    pmix_proc_t proc{};  // the monitored process: the requester
    Spec spec;
    runtime::Timer timer;
    uint32_t quiet_periods = 0;      // periods in a row without a sign of life
    bool alive_since_check = false;  // a heartbeat came during this period
    bool alerted = false;            // this stall was reported already
    FileSnapshot last;
};

class MonitorRegistry {
public:
    MonitorRegistry() = default;
    ~MonitorRegistry();  // cancels every timer
    MonitorRegistry(const MonitorRegistry &) = delete;
    MonitorRegistry &operator=(const MonitorRegistry &) = delete;

    // Takes `monitor` and gives it a serial; PMIX_ERR_OUT_OF_RESOURCE when
    // its owner holds kMaxMonitorsPerOwner already.
    pmix_status_t add(std::unique_ptr<Monitor> monitor, Monitor **added_p);
    Monitor *find(uint64_t serial);
    // Stops the owner's monitors named `id` (every one when all); how many.
    std::size_t cancel(OwnerId owner, const std::string &id, bool all);
    // The owner went away or finalized.
    void stop_owner(OwnerId owner);
    void stop_all();
    // A heartbeat from `owner`: a sign of life for its heartbeat monitors.
    void beat(OwnerId owner);
    std::size_t count(OwnerId owner) const;

private:
    std::map<uint64_t, std::unique_ptr<Monitor>> monitors_;
    uint64_t next_serial_ = 1;
};

}  // namespace pmixpp::server::monitor

#endif
