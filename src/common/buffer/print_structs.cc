// Formatters of the descriptive structs, statistics and hwloc objects.
#include <hwloc.h>

#include <cinttypes>
#include <cstdlib>
#include <cstring>

#include <pmix.h>

#include "common/buffer/print_format.h"

namespace pmixpp::buffer {

namespace {

const char *or_null(const char *s)
{
    return s == nullptr ? "NULL" : s;
}

void put_proc(Printer &pr, const pmix_proc_t &proc)
{
    pr.out.append(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN + 1));
    pr.out += ':';
    format_element(pr, &proc.rank, PMIX_PROC_RANK);
}

void format_proc(Printer &pr, const void *element)
{
    put_proc(pr, *static_cast<const pmix_proc_t *>(element));
}

void format_proc_info(Printer &pr, const void *element)
{
    const auto *pi = static_cast<const pmix_proc_info_t *>(element);
    pr.out += "Proc: ";
    put_proc(pr, pi->proc);
    pr.out += format_text(" Host: %s Exec: %s Pid: %d Exit code: %d State: %s", or_null(pi->hostname),
                          or_null(pi->executable_name), static_cast<int>(pi->pid), pi->exit_code,
                          PMIx_Proc_state_string(pi->state));
}

void format_envar(Printer &pr, const void *element)
{
    const auto *ev = static_cast<const pmix_envar_t *>(element);
    pr.out += format_text("%s=%s (separator '%c')", or_null(ev->envar), or_null(ev->value),
                          ev->separator == '\0' ? ' ' : ev->separator);
}

void put_coord(Printer &pr, const pmix_coord_t &c)
{
    pr.out += c.view == PMIX_COORD_PHYSICAL_VIEW ? "physical (" : "logical (";
    for (size_t i = 0; c.coord != nullptr && i < c.dims; ++i) {
        pr.out += format_text(i == 0 ? "%u" : ",%u", c.coord[i]);
    }
    pr.out += ')';
}

void format_coord(Printer &pr, const void *element)
{
    put_coord(pr, *static_cast<const pmix_coord_t *>(element));
}

void format_geometry(Printer &pr, const void *element)
{
    const auto *g = static_cast<const pmix_geometry_t *>(element);
    pr.out +=
        format_text("Fabric: %zu UUID: %s OS name: %s Coordinates:", g->fabric, or_null(g->uuid), or_null(g->osname));
    for (size_t i = 0; g->coordinates != nullptr && i < g->ncoords; ++i) {
        pr.out += ' ';
        put_coord(pr, g->coordinates[i]);
    }
}

void format_devdist(Printer &pr, const void *element)
{
    const auto *d = static_cast<const pmix_device_distance_t *>(element);
    pr.out += format_text("UUID: %s OS name: %s Type: %s Distance: %u-%u", or_null(d->uuid), or_null(d->osname),
                          PMIx_Device_type_string(d->type), d->mindist, d->maxdist);
}

void format_endpoint(Printer &pr, const void *element)
{
    const auto *e = static_cast<const pmix_endpoint_t *>(element);
    pr.out +=
        format_text("UUID: %s OS name: %s Endpoint: %zu bytes", or_null(e->uuid), or_null(e->osname), e->endpt.size);
}

void format_regattr(Printer &pr, const void *element)
{
    const auto *r = static_cast<const pmix_regattr_t *>(element);
    pr.out += format_text("Name: %s Key: %.*s Type: %s", or_null(r->name), PMIX_MAX_KEYLEN, r->string,
                          PMIx_Data_type_string(r->type));
    for (char **d = r->description; d != nullptr && *d != nullptr; ++d) {
        pr.out += format_text(" \"%s\"", *d);
    }
}

void format_cpuset(Printer &pr, const void *element)
{
    const auto *cs = static_cast<const pmix_cpuset_t *>(element);
    pr.out += format_text("Source: %s Cpus: ", or_null(cs->source));
    char *list = nullptr;
    bool is_hwloc = cs->source == nullptr || std::strcmp(cs->source, "hwloc") == 0;
    if (cs->bitmap != nullptr && is_hwloc &&
        hwloc_bitmap_list_asprintf(&list, static_cast<hwloc_const_bitmap_t>(cs->bitmap)) >= 0) {
        pr.out += list;
    } else {
        pr.out += cs->bitmap == nullptr ? "NONE" : "unknown";
    }
    std::free(list);
}

void format_topology(Printer &pr, const void *element)
{
    const auto *t = static_cast<const pmix_topology_t *>(element);
    pr.out += format_text("Source: %s Topology: %s", or_null(t->source), t->topology == nullptr ? "NONE" : "loaded");
}

void format_data_buffer(Printer &pr, const void *element)
{
    const auto *db = static_cast<const pmix_data_buffer_t *>(element);
    size_t consumed = db->base_ptr == nullptr ? 0 : db->unpack_ptr - db->base_ptr;
    pr.out += format_text("%zu bytes used, %zu unread", db->bytes_used,
                          db->bytes_used >= consumed ? db->bytes_used - consumed : 0);
}

void format_proc_stats(Printer &pr, const void *element)
{
    const auto *s = static_cast<const pmix_proc_stats_t *>(element);
    pr.out += format_text("Node: %s Proc: ", or_null(s->node));
    put_proc(pr, s->proc);
    pr.out += format_text(" Pid: %d Cmd: %s State: %c CPU: %g%% Priority: %d Threads: %u "
                          "PSS: %g VSize: %g RSS: %g Peak VSize: %g Processor: %u",
                          static_cast<int>(s->pid), or_null(s->cmd), s->state == '\0' ? '-' : s->state,
                          static_cast<double>(s->percent_cpu), s->priority, s->num_threads, static_cast<double>(s->pss),
                          static_cast<double>(s->vsize), static_cast<double>(s->rss),
                          static_cast<double>(s->peak_vsize), s->processor);
}

void put_disk_stats(Printer &pr, const pmix_disk_stats_t &d)
{
    pr.out += format_text("Disk: %s Reads: %" PRIu64 " Writes: %" PRIu64 " IO ms: %" PRIu64, or_null(d.disk),
                          d.num_reads_completed, d.num_writes_completed, d.milliseconds_io);
}

void format_disk_stats(Printer &pr, const void *element)
{
    put_disk_stats(pr, *static_cast<const pmix_disk_stats_t *>(element));
}

void put_net_stats(Printer &pr, const pmix_net_stats_t &n)
{
    pr.out +=
        format_text("Interface: %s Bytes in: %" PRIu64 " Bytes out: %" PRIu64 " Errors in/out: %" PRIu64 "/%" PRIu64,
                    or_null(n.net_interface), n.num_bytes_recvd, n.num_bytes_sent, n.num_recv_errs, n.num_send_errs);
}

void format_net_stats(Printer &pr, const void *element)
{
    put_net_stats(pr, *static_cast<const pmix_net_stats_t *>(element));
}

void format_node_stats(Printer &pr, const void *element)
{
    const auto *s = static_cast<const pmix_node_stats_t *>(element);
    pr.out += format_text("Node: %s Load: %g %g %g Memory total/free: %g/%g MB", or_null(s->node),
                          static_cast<double>(s->la), static_cast<double>(s->la5), static_cast<double>(s->la15),
                          static_cast<double>(s->total_mem), static_cast<double>(s->free_mem));
    std::string outer = pr.indent;
    pr.indent += "  ";
    for (size_t i = 0; s->diskstats != nullptr && i < s->ndiskstats; ++i) {
        pr.line_break();
        put_disk_stats(pr, s->diskstats[i]);
    }
    for (size_t i = 0; s->netstats != nullptr && i < s->nnetstats; ++i) {
        pr.line_break();
        put_net_stats(pr, s->netstats[i]);
    }
    pr.indent = outer;
}

constexpr Formatter kStructFormatters[] = {
    {PMIX_PROC, format_proc},
    {PMIX_PROC_INFO, format_proc_info},
    {PMIX_ENVAR, format_envar},
    {PMIX_COORD, format_coord},
    {PMIX_GEOMETRY, format_geometry},
    {PMIX_DEVICE_DIST, format_devdist},
    {PMIX_ENDPOINT, format_endpoint},
    {PMIX_REGATTR, format_regattr},
    {PMIX_PROC_CPUSET, format_cpuset},
    {PMIX_TOPO, format_topology},
    {PMIX_DATA_BUFFER, format_data_buffer},
    {PMIX_PROC_STATS, format_proc_stats},
    {PMIX_DISK_STATS, format_disk_stats},
    {PMIX_NET_STATS, format_net_stats},
    {PMIX_NODE_STATS, format_node_stats},
};

}  // namespace

FormatterSpan struct_formatters()
{
    return {kStructFormatters, sizeof kStructFormatters / sizeof kStructFormatters[0]};
}

}  // namespace pmixpp::buffer
