#include "server/monitor/watch.h"

#include "common/runtime/log.h"
#include "server/state/registry.h"
#include "server/monitor/monitor_registry.h"

#include <chrono>
#include <memory>
#include <new>
#include <string>

namespace pmixpp::server::monitor {

namespace {

FileSnapshot snapshot(const std::string &path)
{
    FileSnapshot seen;
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return seen;
    seen.exists = true;
    seen.size = info.st_size;
    seen.accessed = info.st_atim;
    seen.modified = info.st_mtim;
    return seen;
}

bool same_time(const struct timespec &a, const struct timespec &b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

// Did the file change in a way the monitor watches? Appearing or
// vanishing always counts.
bool changed(const Spec &spec, const FileSnapshot &before, const FileSnapshot &now)
{
    if (before.exists != now.exists) return true;
    if (!now.exists) return false;
    return (spec.watch_size && before.size != now.size) ||
           (spec.watch_access && !same_time(before.accessed, now.accessed)) ||
           (spec.watch_modify && !same_time(before.modified, now.modified));
}

// One period is over: was there a sign of life?
bool period_was_alive(Monitor &monitor)
{
    if (monitor.spec.kind == Kind::heartbeat) {
        const bool alive = monitor.alive_since_check;
        monitor.alive_since_check = false;
        return alive;
    }
    const FileSnapshot now = snapshot(monitor.spec.path);
    const bool alive = changed(monitor.spec, monitor.last, now);
    monitor.last = now;
    return alive;
}

void check(Server &server, Monitor &monitor)
{
    if (period_was_alive(monitor)) {
        monitor.quiet_periods = 0;
        monitor.alerted = false;
        return;
    }
    ++monitor.quiet_periods;
    if (monitor.quiet_periods < monitor.spec.drops || monitor.alerted) return;
    monitor.alerted = true;
    raise_alert(server, monitor);
}

// The timer holds the serial, not the monitor: a cancelled or stopped
// monitor is simply not found when a late tick runs.
void arm(Server &server, Monitor &monitor)
{
    const uint64_t serial = monitor.serial;
    monitor.timer = server.engine.add_timer(std::chrono::seconds(monitor.spec.period_s), [serial] {
        Server *now = current();
        if (now == nullptr || now->finalizing) return;
        Monitor *found = now->part<monitor::MonitorRegistry>().find(serial);
        if (found == nullptr) return;
        check(*now, *found);
        arm(*now, *found);
    });
}

pmix_status_t refuse(Server &server, const pmix_proc_t &proc, pmix_status_t rc, const std::string &reason)
{
    // Rate-limited per kind of refusal (a fixed set of causes): a client
    // looping over a bad request must not flood the log.
    server.warnings.note(std::string("monitor ") + PMIx_Error_string(rc), "PMIx_Process_monitor of " + proc_name(proc) +
                                                                              " refused (" + PMIx_Error_string(rc) +
                                                                              "): " + reason);
    return rc;
}

pmix_status_t start(Server &server, OwnerId owner, const pmix_proc_t &proc, Spec spec)
{
    auto monitor = std::make_unique<Monitor>();
    monitor->owner = owner;
    monitor->proc = proc;
    monitor->spec = std::move(spec);
    if (monitor->spec.kind == Kind::file) monitor->last = snapshot(monitor->spec.path);
    Monitor *added = nullptr;
    const pmix_status_t rc = server.part<monitor::MonitorRegistry>().add(std::move(monitor), &added);
    if (rc != PMIX_SUCCESS) {
        return refuse(server, proc, rc,
                      "it holds " + std::to_string(kMaxMonitorsPerOwner) +
                          " monitors already; cancel some with PMIX_MONITOR_CANCEL");
    }
    arm(server, *added);
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t run_local(Server &server, OwnerId owner, const pmix_proc_t &proc, const pmix_info_t &monitor,
                        const pmix_info_t directives[], std::size_t ndirs)
{
    Spec spec;
    std::string reason;
    const pmix_status_t rc = read_spec(monitor, directives, ndirs, &spec, &reason);
    if (rc != PMIX_SUCCESS) return refuse(server, proc, rc, reason);
    if (spec.kind != Kind::cancel) return start(server, owner, proc, std::move(spec));
    const std::size_t stopped = server.part<monitor::MonitorRegistry>().cancel(owner, spec.id, spec.cancel_all);
    return stopped > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
}

}  // namespace pmixpp::server::monitor
