// Codecs of the monitoring statistics: proc, disk, net and node stats.
#include "common/buffer/codec.h"
#include "common/buffer/codec_util.h"

namespace pmixpp::buffer {

namespace {

pmix_status_t pack_proc_stats(Packer &p, const void *element)
{
    const auto *s = static_cast<const pmix_proc_stats_t *>(element);
    return chain([&] { return p.put_string(s->node); }, [&] { return put_proc(p, s->proc); },
                 [&] { return put_integer(p, s->pid); }, [&] { return p.put_string(s->cmd); },
                 [&] { return put_integer(p, s->state); }, [&] { return put_timeval(p, s->time); },
                 [&] { return p.put_float(s->percent_cpu); }, [&] { return put_integer(p, s->priority); },
                 [&] { return put_integer(p, s->num_threads); }, [&] { return p.put_float(s->pss); },
                 [&] { return p.put_float(s->vsize); }, [&] { return p.put_float(s->rss); },
                 [&] { return p.put_float(s->peak_vsize); }, [&] { return put_integer(p, s->processor); },
                 [&] { return put_timeval(p, s->sample_time); });
}

pmix_status_t unpack_proc_stats(Unpacker &u, void *element)
{
    auto *s = static_cast<pmix_proc_stats_t *>(element);
    return chain([&] { return u.get_string(&s->node); }, [&] { return get_proc(u, &s->proc); },
                 [&] { return get_integer(u, &s->pid); }, [&] { return u.get_string(&s->cmd); },
                 [&] { return get_integer(u, &s->state); }, [&] { return get_timeval(u, &s->time); },
                 [&] { return u.get_float(&s->percent_cpu); }, [&] { return get_integer(u, &s->priority); },
                 [&] { return get_integer(u, &s->num_threads); }, [&] { return u.get_float(&s->pss); },
                 [&] { return u.get_float(&s->vsize); }, [&] { return u.get_float(&s->rss); },
                 [&] { return u.get_float(&s->peak_vsize); }, [&] { return get_integer(u, &s->processor); },
                 [&] { return get_timeval(u, &s->sample_time); });
}

// The counters of a disk and a net stats record, in wire order.
template <typename Stats, size_t N> struct Counters {
    uint64_t Stats::*fields[N];
};

constexpr Counters<pmix_disk_stats_t, 11> kDiskCounters = {{
    &pmix_disk_stats_t::num_reads_completed,
    &pmix_disk_stats_t::num_reads_merged,
    &pmix_disk_stats_t::num_sectors_read,
    &pmix_disk_stats_t::milliseconds_reading,
    &pmix_disk_stats_t::num_writes_completed,
    &pmix_disk_stats_t::num_writes_merged,
    &pmix_disk_stats_t::num_sectors_written,
    &pmix_disk_stats_t::milliseconds_writing,
    &pmix_disk_stats_t::num_ios_in_progress,
    &pmix_disk_stats_t::milliseconds_io,
    &pmix_disk_stats_t::weighted_milliseconds_io,
}};

constexpr Counters<pmix_net_stats_t, 6> kNetCounters = {{
    &pmix_net_stats_t::num_bytes_recvd,
    &pmix_net_stats_t::num_packets_recvd,
    &pmix_net_stats_t::num_recv_errs,
    &pmix_net_stats_t::num_bytes_sent,
    &pmix_net_stats_t::num_packets_sent,
    &pmix_net_stats_t::num_send_errs,
}};

template <typename Stats, size_t N> pmix_status_t put_counters(Packer &p, const Stats &s, const Counters<Stats, N> &c)
{
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; rc == PMIX_SUCCESS && i < N; ++i) {
        rc = p.put_u64(s.*c.fields[i]);
    }
    return rc;
}

template <typename Stats, size_t N> pmix_status_t get_counters(Unpacker &u, Stats *s, const Counters<Stats, N> &c)
{
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; rc == PMIX_SUCCESS && i < N; ++i) {
        rc = u.get_u64(&(s->*c.fields[i]));
    }
    return rc;
}

pmix_status_t pack_disk_stats(Packer &p, const void *element)
{
    const auto *s = static_cast<const pmix_disk_stats_t *>(element);
    pmix_status_t rc = p.put_string(s->disk);
    return rc == PMIX_SUCCESS ? put_counters(p, *s, kDiskCounters) : rc;
}

pmix_status_t unpack_disk_stats(Unpacker &u, void *element)
{
    auto *s = static_cast<pmix_disk_stats_t *>(element);
    pmix_status_t rc = u.get_string(&s->disk);
    return rc == PMIX_SUCCESS ? get_counters(u, s, kDiskCounters) : rc;
}

pmix_status_t pack_net_stats(Packer &p, const void *element)
{
    const auto *s = static_cast<const pmix_net_stats_t *>(element);
    pmix_status_t rc = p.put_string(s->net_interface);
    return rc == PMIX_SUCCESS ? put_counters(p, *s, kNetCounters) : rc;
}

pmix_status_t unpack_net_stats(Unpacker &u, void *element)
{
    auto *s = static_cast<pmix_net_stats_t *>(element);
    pmix_status_t rc = u.get_string(&s->net_interface);
    return rc == PMIX_SUCCESS ? get_counters(u, s, kNetCounters) : rc;
}

// The node gauges, in wire order.
constexpr float pmix_node_stats_t::*kNodeGauges[] = {
    &pmix_node_stats_t::la,        &pmix_node_stats_t::la5,         &pmix_node_stats_t::la15,
    &pmix_node_stats_t::total_mem, &pmix_node_stats_t::free_mem,    &pmix_node_stats_t::buffers,
    &pmix_node_stats_t::cached,    &pmix_node_stats_t::swap_cached, &pmix_node_stats_t::swap_total,
    &pmix_node_stats_t::swap_free, &pmix_node_stats_t::mapped,
};

pmix_status_t pack_node_stats(Packer &p, const void *element)
{
    const auto *s = static_cast<const pmix_node_stats_t *>(element);
    pmix_status_t rc = p.put_string(s->node);
    for (auto gauge : kNodeGauges) {
        if (rc == PMIX_SUCCESS) {
            rc = p.put_float(s->*gauge);
        }
    }
    return chain([&] { return rc; }, [&] { return put_timeval(p, s->sample_time); },
                 [&] { return pack_array(p, s->diskstats, s->ndiskstats, PMIX_DISK_STATS); },
                 [&] { return pack_array(p, s->netstats, s->nnetstats, PMIX_NET_STATS); });
}

pmix_status_t unpack_node_stats(Unpacker &u, void *element)
{
    auto *s = static_cast<pmix_node_stats_t *>(element);
    pmix_status_t rc = u.get_string(&s->node);
    for (auto gauge : kNodeGauges) {
        if (rc == PMIX_SUCCESS) {
            rc = u.get_float(&(s->*gauge));
        }
    }
    void *disks = nullptr;
    void *nets = nullptr;
    rc = chain([&] { return rc; }, [&] { return get_timeval(u, &s->sample_time); },
               [&] { return unpack_array(u, &disks, &s->ndiskstats, PMIX_DISK_STATS); },
               [&] { return unpack_array(u, &nets, &s->nnetstats, PMIX_NET_STATS); });
    s->diskstats = static_cast<pmix_disk_stats_t *>(disks);
    s->netstats = static_cast<pmix_net_stats_t *>(nets);
    return rc;
}

constexpr Codec kStatsCodecs[] = {
    {PMIX_PROC_STATS, sizeof(pmix_proc_stats_t), 81, pack_proc_stats, unpack_proc_stats},
    {PMIX_DISK_STATS, sizeof(pmix_disk_stats_t), 92, pack_disk_stats, unpack_disk_stats},
    {PMIX_NET_STATS, sizeof(pmix_net_stats_t), 52, pack_net_stats, unpack_net_stats},
    {PMIX_NODE_STATS, sizeof(pmix_node_stats_t), 72, pack_node_stats, unpack_node_stats},
};

}  // namespace

CodecSpan stats_codecs()
{
    return {kStatsCodecs, sizeof kStatsCodecs / sizeof kStatsCodecs[0]};
}

}  // namespace pmixpp::buffer
