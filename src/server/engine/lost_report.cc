#include "server/engine/lost_report.h"

#include "server/events/delivery.h"
#include "common/values/value_ops.h"
#include "server/state/server.h"
#include "server/requests/requests.h"

namespace pmixpp::server {
namespace {

wire::Event lost_event(const std::vector<pmix_proc_t> &procs)
{
    wire::Event event;
    event.status = PMIX_ERR_LOST_CONNECTION;
    event.source = procs.front();
    event.range = PMIX_RANGE_RM;
    if (event.info.allocate(2) != PMIX_SUCCESS) return event;
    values::info_load(&event.info[0], PMIX_EVENT_AFFECTED_PROC, &procs.front(), PMIX_PROC);
    pmix_data_array_t array{};
    array.type = PMIX_PROC;
    array.size = procs.size();
    array.array = const_cast<pmix_proc_t *>(procs.data());  // copied by info_load
    values::info_load(&event.info[1], PMIX_EVENT_AFFECTED_PROCS, &array, PMIX_DATA_ARRAY);
    return event;
}

void deliver(Server &server)
{
    std::vector<pmix_proc_t> procs;
    procs.swap(server.part<LostReport>().procs);
    if (!procs.empty() && !server.finalizing) deliver_to_host_handlers(server, lost_event(procs));
}

}  // namespace

void report_lost_to_host(Server &server, const pmix_proc_t &proc)
{
    LostReport &report = server.part<LostReport>();
    report.procs.push_back(proc);
    if (server.config.event_caching_window.count() == 0 || report.procs.size() >= kMaxProcsPerReport) {
        report.timer.cancel();
        return deliver(server);
    }
    if (report.procs.size() > 1) return;  // the window runs from the first loss
    report.timer = server.engine.add_timer(server.config.event_caching_window, [] {
        if (Server *now = current()) deliver(*now);
    });
}

void drop_lost_report(Server &server)
{
    server.part<LostReport>().timer.cancel();
    server.part<LostReport>().procs.clear();
}

}  // namespace pmixpp::server
