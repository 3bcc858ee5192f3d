// The alert of a monitor goes where PMIx_Notify_event of the server would
// send it: to the connected processes in its range that registered for the
// code (the monitored one above all) and to the host's own handlers.
#include "common/values/value_ops.h"
#include "server/events/delivery.h"
#include "server/monitor/watch.h"

namespace pmixpp::server::monitor {

namespace {

pmix_status_t alert_code(Kind kind)
{
    return kind == Kind::file ? PMIX_MONITOR_FILE_ALERT : PMIX_MONITOR_HEARTBEAT_ALERT;
}

pmix_status_t describe_alert(const Monitor &monitor, wire::InfoArray *info_p)
{
    const Spec &spec = monitor.spec;
    const std::size_t n = 1 + (spec.id.empty() ? 0 : 1) + (spec.kind == Kind::file ? 1 : 0);
    pmix_status_t rc = info_p->allocate(n);
    if (rc != PMIX_SUCCESS) return rc;
    std::size_t next = 0;
    rc = values::info_load(&(*info_p)[next++], PMIX_EVENT_AFFECTED_PROC, &monitor.proc, PMIX_PROC);
    if (rc == PMIX_SUCCESS && !spec.id.empty()) {
        rc = values::info_load(&(*info_p)[next++], PMIX_MONITOR_ID, spec.id.c_str(), PMIX_STRING);
    }
    if (rc == PMIX_SUCCESS && spec.kind == Kind::file) {
        rc = values::info_load(&(*info_p)[next++], PMIX_MONITOR_FILE, spec.path.c_str(), PMIX_STRING);
    }
    return rc;
}

}  // namespace

void raise_alert(Server &server, const Monitor &monitor)
{
    wire::Event event;
    event.status = alert_code(monitor.spec.kind);
    event.source = monitor.proc;
    event.range = monitor.spec.range;
    const pmix_status_t rc = describe_alert(monitor, &event.info);
    if (rc != PMIX_SUCCESS) {
        server.warnings.note("monitor", std::string("cannot describe a monitor alert of ") + proc_name(monitor.proc) +
                                            ": " + PMIx_Error_string(rc) + " (raised without details)");
        event.info = wire::InfoArray{};
    }
    deliver_local_event(server, event, kNoPeer);
}

}  // namespace pmixpp::server::monitor
