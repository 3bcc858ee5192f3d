#include "buffer/samples.h"

#include <hwloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/buffer/codec.h"
#include "common/values/type_ops.h"

namespace samples {

namespace {

char **make_argv(std::initializer_list<const char *> items)
{
    auto **argv = static_cast<char **>(calloc(items.size() + 1, sizeof(char *)));
    size_t i = 0;
    for (const char *s : items) {
        argv[i++] = strdup(s);
    }
    return argv;
}

void fill_bytes(pmix_byte_object_t *bo, const char *text)
{
    bo->size = strlen(text) + 1;
    bo->bytes = static_cast<char *>(malloc(bo->size));
    memcpy(bo->bytes, text, bo->size);
}

void fill_proc(pmix_proc_t *p, const char *ns, pmix_rank_t r)
{
    memset(p, 0, sizeof *p);
    strncpy(p->nspace, ns, PMIX_MAX_NSLEN);
    p->rank = r;
}

pmix_info_t *make_infos(size_t n)
{
    auto *info = static_cast<pmix_info_t *>(pmixpp::values::alloc_elements(PMIX_INFO, n));
    for (size_t i = 0; i < n; ++i) {
        set_key(info[i].key, i % 2 == 0 ? "pmix.test.a" : "pmix.test.b");
        info[i].flags = static_cast<pmix_info_directives_t>(i);
        if (i % 2 == 0) {
            load_u32_value(&info[i].value, static_cast<uint32_t>(100 + i));
        } else {
            load_string_value(&info[i].value, "info-string");
        }
    }
    return info;
}

void fill_coord(pmix_coord_t *c, uint32_t base)
{
    c->view = PMIX_COORD_PHYSICAL_VIEW;
    c->dims = 3;
    c->coord = static_cast<uint32_t *>(calloc(3, sizeof(uint32_t)));
    for (uint32_t i = 0; i < 3; ++i) {
        c->coord[i] = base + i;
    }
}

void fill_disk(pmix_disk_stats_t *d)
{
    d->disk = strdup("sda");
    d->num_reads_completed = 1;
    d->num_writes_completed = 2;
    d->weighted_milliseconds_io = UINT64_MAX;
}

void fill_net(pmix_net_stats_t *n)
{
    n->net_interface = strdup("eth0");
    n->num_bytes_recvd = 123456789012ULL;
    n->num_send_errs = 7;
}

void fill_composite(void *e, pmix_data_type_t type);

bool is_composite(pmix_data_type_t type)
{
    const auto &c = composite_types();
    return std::find(c.begin(), c.end(), type) != c.end();
}

}  // namespace

void set_key(char *key, const char *s)
{
    memset(key, 0, PMIX_MAX_KEYLEN + 1);
    strncpy(key, s, PMIX_MAX_KEYLEN);
}

void load_string_value(pmix_value_t *v, const char *s)
{
    v->type = PMIX_STRING;
    v->data.string = strdup(s);
}

void load_u32_value(pmix_value_t *v, uint32_t x)
{
    v->type = PMIX_UINT32;
    v->data.uint32 = x;
}

const std::vector<pmix_data_type_t> &packable_types()
{
    static const std::vector<pmix_data_type_t> types = [] {
        std::vector<pmix_data_type_t> t;
        for (pmix_data_type_t i = 1; i < 128; ++i) {
            if (pmixpp::buffer::find_codec(i) != nullptr) {
                t.push_back(i);
            }
        }
        return t;
    }();
    return types;
}

const std::vector<pmix_data_type_t> &composite_types()
{
    static const std::vector<pmix_data_type_t> types = {
        PMIX_STRING,     PMIX_BYTE_OBJECT, PMIX_PROC,        PMIX_VALUE,      PMIX_INFO,        PMIX_PDATA,
        PMIX_APP,        PMIX_QUERY,       PMIX_ENVAR,       PMIX_COORD,      PMIX_REGATTR,     PMIX_PROC_INFO,
        PMIX_DATA_ARRAY, PMIX_GEOMETRY,    PMIX_DEVICE_DIST, PMIX_ENDPOINT,   PMIX_TOPO,        PMIX_PROC_CPUSET,
        PMIX_PROC_STATS, PMIX_DISK_STATS,  PMIX_NET_STATS,   PMIX_NODE_STATS, PMIX_DATA_BUFFER, PMIX_PROC_NSPACE,
        PMIX_REGEX,      PMIX_TIMEVAL,
    };
    return types;
}

void *make(pmix_data_type_t type)
{
    void *e = pmixpp::values::alloc_elements(type, 1);
    size_t size = pmixpp::values::element_size(type);
    switch (type) {
    case PMIX_BOOL: *static_cast<bool *>(e) = true; break;
    case PMIX_STRING: *static_cast<char **>(e) = strdup("hello, world"); break;
    case PMIX_PROC_NSPACE: strcpy(static_cast<char *>(e), "sample-nspace"); break;
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
    case PMIX_REGEX: fill_bytes(static_cast<pmix_byte_object_t *>(e), "node[1-4]"); break;
    default:
        if (!is_composite(type) || type == PMIX_TIMEVAL) {
            memset(e, 0x5A, size);  // scalars: a non-trivial bit pattern
        } else {
            fill_composite(e, type);
        }
        break;
    }
    return e;
}

namespace {

void fill_composite(void *e, pmix_data_type_t type)
{
    switch (type) {
    case PMIX_PROC: fill_proc(static_cast<pmix_proc_t *>(e), "job-1", 3); break;
    case PMIX_VALUE: {
        auto *v = static_cast<pmix_value_t *>(e);
        v->type = PMIX_PROC;
        v->data.proc = static_cast<pmix_proc_t *>(calloc(1, sizeof(pmix_proc_t)));
        fill_proc(v->data.proc, "boxed", 9);
        break;
    }
    case PMIX_INFO: {
        auto *info = static_cast<pmix_info_t *>(e);
        set_key(info->key, "pmix.sample");
        info->flags = PMIX_INFO_REQD;
        load_string_value(&info->value, "sample-value");
        break;
    }
    case PMIX_PDATA: {
        auto *pd = static_cast<pmix_pdata_t *>(e);
        fill_proc(&pd->proc, "pub", 0);
        set_key(pd->key, "published");
        load_u32_value(&pd->value, 42);
        break;
    }
    case PMIX_APP: {
        auto *app = static_cast<pmix_app_t *>(e);
        app->cmd = strdup("/bin/true");
        app->argv = make_argv({"true", "--flag", ""});
        app->env = make_argv({"A=1", "B=2"});
        app->cwd = strdup("/tmp");
        app->maxprocs = 4;
        app->ninfo = 2;
        app->info = make_infos(2);
        break;
    }
    case PMIX_QUERY: {
        auto *q = static_cast<pmix_query_t *>(e);
        q->keys = make_argv({"pmix.qry.ns", "pmix.qry.jst"});
        q->nqual = 3;
        q->qualifiers = make_infos(3);
        break;
    }
    case PMIX_ENVAR: {
        auto *ev = static_cast<pmix_envar_t *>(e);
        ev->envar = strdup("PATH");
        ev->value = strdup("/usr/bin");
        ev->separator = ':';
        break;
    }
    case PMIX_COORD: fill_coord(static_cast<pmix_coord_t *>(e), 10); break;
    case PMIX_REGATTR: {
        auto *r = static_cast<pmix_regattr_t *>(e);
        r->name = strdup("PMIX_SAMPLE");
        set_key(r->string, "pmix.sample");
        r->type = PMIX_UINT32;
        r->description = make_argv({"line one", "line two"});
        break;
    }
    case PMIX_PROC_INFO: {
        auto *pi = static_cast<pmix_proc_info_t *>(e);
        fill_proc(&pi->proc, "job-2", 5);
        pi->hostname = strdup("node01");
        pi->executable_name = strdup("a.out");
        pi->pid = 4242;
        pi->exit_code = -3;
        pi->state = PMIX_PROC_STATE_RUNNING;
        break;
    }
    case PMIX_DATA_ARRAY: {
        auto *da = static_cast<pmix_data_array_t *>(e);
        da->type = PMIX_INT32;
        da->size = 3;
        auto *ints = static_cast<int32_t *>(calloc(3, sizeof(int32_t)));
        ints[0] = -1;
        ints[1] = 0;
        ints[2] = INT32_MAX;
        da->array = ints;
        break;
    }
    case PMIX_GEOMETRY: {
        auto *g = static_cast<pmix_geometry_t *>(e);
        g->fabric = 2;
        g->uuid = strdup("uuid-1");
        g->osname = strdup("ib0");
        g->ncoords = 2;
        g->coordinates = static_cast<pmix_coord_t *>(calloc(2, sizeof(pmix_coord_t)));
        fill_coord(&g->coordinates[0], 1);
        fill_coord(&g->coordinates[1], 7);
        break;
    }
    case PMIX_DEVICE_DIST: {
        auto *d = static_cast<pmix_device_distance_t *>(e);
        d->uuid = strdup("dev-uuid");
        d->osname = strdup("mlx5_0");
        d->type = PMIX_DEVTYPE_OPENFABRICS;
        d->mindist = 1;
        d->maxdist = 65535;
        break;
    }
    case PMIX_ENDPOINT: {
        auto *ep = static_cast<pmix_endpoint_t *>(e);
        ep->uuid = strdup("ep-uuid");
        ep->osname = strdup("hfi1_0");
        fill_bytes(&ep->endpt, "endpoint-address");
        break;
    }
    case PMIX_TOPO: {
        auto *t = static_cast<pmix_topology_t *>(e);
        hwloc_topology_t topo;
        hwloc_topology_init(&topo);
        hwloc_topology_set_synthetic(topo, "pack:2 core:2 pu:2");
        hwloc_topology_load(topo);
        t->source = strdup("hwloc");
        t->topology = topo;
        break;
    }
    case PMIX_PROC_CPUSET: {
        auto *cs = static_cast<pmix_cpuset_t *>(e);
        hwloc_bitmap_t bm = hwloc_bitmap_alloc();
        hwloc_bitmap_list_sscanf(bm, "0-3,8");
        cs->source = strdup("hwloc");
        cs->bitmap = bm;
        break;
    }
    case PMIX_PROC_STATS: {
        auto *s = static_cast<pmix_proc_stats_t *>(e);
        s->node = strdup("node02");
        fill_proc(&s->proc, "job-3", 1);
        s->pid = 99;
        s->cmd = strdup("sleep");
        s->state = 'R';
        s->time.tv_sec = 12;
        s->time.tv_usec = 34;
        s->percent_cpu = 55.5f;
        s->priority = -5;
        s->num_threads = 8;
        s->pss = 1.5f;
        s->vsize = 2.5f;
        s->rss = 3.5f;
        s->peak_vsize = 4.5f;
        s->processor = 3;
        s->sample_time.tv_sec = 1700000000;
        break;
    }
    case PMIX_DISK_STATS: fill_disk(static_cast<pmix_disk_stats_t *>(e)); break;
    case PMIX_NET_STATS: fill_net(static_cast<pmix_net_stats_t *>(e)); break;
    case PMIX_NODE_STATS: {
        auto *s = static_cast<pmix_node_stats_t *>(e);
        s->node = strdup("node03");
        s->la = 0.5f;
        s->mapped = 9.25f;
        s->sample_time.tv_usec = 999999;
        s->ndiskstats = 1;
        s->diskstats = static_cast<pmix_disk_stats_t *>(calloc(1, sizeof(pmix_disk_stats_t)));
        fill_disk(s->diskstats);
        s->nnetstats = 2;
        s->netstats = static_cast<pmix_net_stats_t *>(calloc(2, sizeof(pmix_net_stats_t)));
        fill_net(&s->netstats[0]);
        fill_net(&s->netstats[1]);
        break;
    }
    case PMIX_DATA_BUFFER: {
        auto *db = static_cast<pmix_data_buffer_t *>(e);
        uint32_t x = 77;
        pmixpp::buffer::Packer p(db);
        p.put_u32(x);
        p.put_string("inner");
        break;
    }
    default: break;
    }
}

}  // namespace

void release(void *element, pmix_data_type_t type)
{
    pmixpp::values::free_elements(element, 1, type);
}

}  // namespace samples
