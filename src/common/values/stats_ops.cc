// Element operations for the resource-usage statistics structs.
#include <cstdlib>
#include <cstring>

#include "common/values/array_ops.h"
#include "common/values/element_ops.h"
#include "common/values/memory_helpers.h"
#include "common/values/type_ops.h"

namespace pmixpp::values::ops {
namespace {

pmix_value_cmp_t compare_timevals(const struct timeval &a, const struct timeval &b)
{
    return compare_timeval(&a, &b);
}

}  // namespace

pmix_status_t copy_proc_stats(void *dest, const void *src)
{
    auto to = static_cast<pmix_proc_stats_t *>(dest);
    auto from = static_cast<const pmix_proc_stats_t *>(src);
    *to = *from;
    to->node = nullptr;
    to->cmd = nullptr;
    if (PMIX_SUCCESS != dup_string(&to->node, from->node) || PMIX_SUCCESS != dup_string(&to->cmd, from->cmd)) {
        destruct_proc_stats(dest);
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

void destruct_proc_stats(void *element)
{
    auto stats = static_cast<pmix_proc_stats_t *>(element);
    std::free(stats->node);
    std::free(stats->cmd);
    std::memset(stats, 0, sizeof(*stats));
}

pmix_value_cmp_t compare_proc_stats(const void *a, const void *b)
{
    auto x = static_cast<const pmix_proc_stats_t *>(a);
    auto y = static_cast<const pmix_proc_stats_t *>(b);
    FieldComparison cmp;
    cmp.string(x->node, y->node)
        .then(compare_proc(&x->proc, &y->proc))
        .number(x->pid, y->pid)
        .string(x->cmd, y->cmd)
        .number(x->state, y->state)
        .then(compare_timevals(x->time, y->time))
        .number(x->percent_cpu, y->percent_cpu)
        .number(x->priority, y->priority)
        .number(x->num_threads, y->num_threads)
        .number(x->pss, y->pss)
        .number(x->vsize, y->vsize)
        .number(x->rss, y->rss)
        .number(x->peak_vsize, y->peak_vsize)
        .number(x->processor, y->processor)
        .then(compare_timevals(x->sample_time, y->sample_time));
    return cmp.result();
}

pmix_status_t copy_disk_stats(void *dest, const void *src)
{
    auto to = static_cast<pmix_disk_stats_t *>(dest);
    auto from = static_cast<const pmix_disk_stats_t *>(src);
    *to = *from;
    to->disk = nullptr;
    return dup_string(&to->disk, from->disk);
}

void destruct_disk_stats(void *element)
{
    auto stats = static_cast<pmix_disk_stats_t *>(element);
    std::free(stats->disk);
    std::memset(stats, 0, sizeof(*stats));
}

pmix_value_cmp_t compare_disk_stats(const void *a, const void *b)
{
    auto x = static_cast<const pmix_disk_stats_t *>(a);
    auto y = static_cast<const pmix_disk_stats_t *>(b);
    FieldComparison cmp;
    cmp.string(x->disk, y->disk)
        .number(x->num_reads_completed, y->num_reads_completed)
        .number(x->num_reads_merged, y->num_reads_merged)
        .number(x->num_sectors_read, y->num_sectors_read)
        .number(x->milliseconds_reading, y->milliseconds_reading)
        .number(x->num_writes_completed, y->num_writes_completed)
        .number(x->num_writes_merged, y->num_writes_merged)
        .number(x->num_sectors_written, y->num_sectors_written)
        .number(x->milliseconds_writing, y->milliseconds_writing)
        .number(x->num_ios_in_progress, y->num_ios_in_progress)
        .number(x->milliseconds_io, y->milliseconds_io)
        .number(x->weighted_milliseconds_io, y->weighted_milliseconds_io);
    return cmp.result();
}

pmix_status_t copy_net_stats(void *dest, const void *src)
{
    auto to = static_cast<pmix_net_stats_t *>(dest);
    auto from = static_cast<const pmix_net_stats_t *>(src);
    *to = *from;
    to->net_interface = nullptr;
    return dup_string(&to->net_interface, from->net_interface);
}

void destruct_net_stats(void *element)
{
    auto stats = static_cast<pmix_net_stats_t *>(element);
    std::free(stats->net_interface);
    std::memset(stats, 0, sizeof(*stats));
}

pmix_value_cmp_t compare_net_stats(const void *a, const void *b)
{
    auto x = static_cast<const pmix_net_stats_t *>(a);
    auto y = static_cast<const pmix_net_stats_t *>(b);
    FieldComparison cmp;
    cmp.string(x->net_interface, y->net_interface)
        .number(x->num_bytes_recvd, y->num_bytes_recvd)
        .number(x->num_packets_recvd, y->num_packets_recvd)
        .number(x->num_recv_errs, y->num_recv_errs)
        .number(x->num_bytes_sent, y->num_bytes_sent)
        .number(x->num_packets_sent, y->num_packets_sent)
        .number(x->num_send_errs, y->num_send_errs);
    return cmp.result();
}

pmix_status_t copy_node_stats(void *dest, const void *src)
{
    auto to = static_cast<pmix_node_stats_t *>(dest);
    auto from = static_cast<const pmix_node_stats_t *>(src);
    *to = *from;
    to->node = nullptr;
    to->diskstats = nullptr;
    to->ndiskstats = 0;
    to->netstats = nullptr;
    to->nnetstats = 0;
    void *disks = nullptr;
    void *nets = nullptr;
    pmix_status_t rc = dup_string(&to->node, from->node);
    if (PMIX_SUCCESS == rc) {
        rc = copy_elements(&disks, from->diskstats, from->ndiskstats, PMIX_DISK_STATS);
    }
    if (PMIX_SUCCESS == rc) {
        to->diskstats = static_cast<pmix_disk_stats_t *>(disks);
        to->ndiskstats = disks ? from->ndiskstats : 0;
        rc = copy_elements(&nets, from->netstats, from->nnetstats, PMIX_NET_STATS);
    }
    if (PMIX_SUCCESS != rc) {
        destruct_node_stats(dest);
        return rc;
    }
    to->netstats = static_cast<pmix_net_stats_t *>(nets);
    to->nnetstats = nets ? from->nnetstats : 0;
    return PMIX_SUCCESS;
}

void destruct_node_stats(void *element)
{
    auto stats = static_cast<pmix_node_stats_t *>(element);
    std::free(stats->node);
    free_elements(stats->diskstats, stats->ndiskstats, PMIX_DISK_STATS);
    free_elements(stats->netstats, stats->nnetstats, PMIX_NET_STATS);
    std::memset(stats, 0, sizeof(*stats));
}

pmix_value_cmp_t compare_node_stats(const void *a, const void *b)
{
    auto x = static_cast<const pmix_node_stats_t *>(a);
    auto y = static_cast<const pmix_node_stats_t *>(b);
    FieldComparison cmp;
    cmp.string(x->node, y->node)
        .number(x->la, y->la)
        .number(x->la5, y->la5)
        .number(x->la15, y->la15)
        .number(x->total_mem, y->total_mem)
        .number(x->free_mem, y->free_mem)
        .number(x->buffers, y->buffers)
        .number(x->cached, y->cached)
        .number(x->swap_cached, y->swap_cached)
        .number(x->swap_total, y->swap_total)
        .number(x->swap_free, y->swap_free)
        .number(x->mapped, y->mapped)
        .then(compare_timevals(x->sample_time, y->sample_time));
    if (cmp.undecided()) {
        cmp.then(compare_elements(x->diskstats, x->ndiskstats, y->diskstats, y->ndiskstats, PMIX_DISK_STATS));
    }
    if (cmp.undecided()) {
        cmp.then(compare_elements(x->netstats, x->nnetstats, y->netstats, y->nnetstats, PMIX_NET_STATS));
    }
    return cmp.result();
}

}  // namespace pmixpp::values::ops
