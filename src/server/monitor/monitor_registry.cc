#include "server/monitor/monitor_registry.h"

namespace pmixpp::server::monitor {

MonitorRegistry::~MonitorRegistry()
{
    stop_all();
}

pmix_status_t MonitorRegistry::add(std::unique_ptr<Monitor> monitor, Monitor **added_p)
{
    if (count(monitor->owner) >= kMaxMonitorsPerOwner) return PMIX_ERR_OUT_OF_RESOURCE;
    monitor->serial = next_serial_++;
    Monitor *raw = monitor.get();
    monitors_.emplace(raw->serial, std::move(monitor));
    *added_p = raw;
    return PMIX_SUCCESS;
}

Monitor *MonitorRegistry::find(uint64_t serial)
{
    auto found = monitors_.find(serial);
    return found == monitors_.end() ? nullptr : found->second.get();
}

std::size_t MonitorRegistry::cancel(OwnerId owner, const std::string &id, bool all)
{
    std::size_t stopped = 0;
    for (auto it = monitors_.begin(); it != monitors_.end();) {
        Monitor &monitor = *it->second;
        if (monitor.owner != owner || (!all && monitor.spec.id != id)) {
            ++it;
            continue;
        }
        monitor.timer.cancel();
        it = monitors_.erase(it);
        ++stopped;
    }
    return stopped;
}

void MonitorRegistry::stop_owner(OwnerId owner)
{
    cancel(owner, std::string(), true);
}

void MonitorRegistry::stop_all()
{
    for (auto &[serial, monitor] : monitors_) monitor->timer.cancel();
    monitors_.clear();
}

void MonitorRegistry::beat(OwnerId owner)
{
    for (auto &[serial, monitor] : monitors_) {
        if (monitor->owner != owner || monitor->spec.kind != Kind::heartbeat) continue;
        monitor->alive_since_check = true;
        monitor->quiet_periods = 0;
        monitor->alerted = false;  // the stall, if any, is over
    }
}

std::size_t MonitorRegistry::count(OwnerId owner) const
{
    std::size_t n = 0;
    for (const auto &[serial, monitor] : monitors_) n += monitor->owner == owner ? 1 : 0;
    return n;
}

}  // namespace pmixpp::server::monitor
