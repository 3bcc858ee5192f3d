#include "values/samples.h"

#include <hwloc.h>

#include "common/values/type_ops.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace samples {
namespace {

char *text(const char *prefix, int variant)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%s-%d", prefix, variant);
    return strdup(buf);
}

char **argv2(const char *prefix, int variant)
{
    auto argv = static_cast<char **>(std::calloc(3, sizeof(char *)));
    argv[0] = text(prefix, variant);
    argv[1] = text(prefix, variant + 10);
    return argv;
}

void fill_proc(pmix_proc_t *proc, int variant)
{
    std::snprintf(proc->nspace, sizeof(proc->nspace), "ns-%d", variant);
    proc->rank = static_cast<pmix_rank_t>(variant);
}

void fill_bo(pmix_byte_object_t *bo, int variant, bool terminated)
{
    bo->bytes = text("bytes", variant);
    bo->size = std::strlen(bo->bytes) + (terminated ? 1 : 0);
}

void fill_info(pmix_info_t *info, int variant)
{
    std::snprintf(info->key, sizeof(info->key), "test.key.%d", variant);
    info->value.type = PMIX_STRING;
    info->value.data.string = text("info", variant);
}

pmix_info_t *info_array(int variant, size_t n)
{
    auto infos = static_cast<pmix_info_t *>(std::calloc(n, sizeof(pmix_info_t)));
    for (size_t i = 0; i < n; ++i) {
        fill_info(&infos[i], variant + static_cast<int>(i));
    }
    return infos;
}

void fill_coord(pmix_coord_t *coord, int variant)
{
    coord->view = PMIX_COORD_LOGICAL_VIEW;
    coord->dims = 3;
    coord->coord = static_cast<uint32_t *>(std::calloc(3, sizeof(uint32_t)));
    for (uint32_t i = 0; i < 3; ++i) {
        coord->coord[i] = static_cast<uint32_t>(variant) * 10 + i;
    }
}

void fill_disk(pmix_disk_stats_t *d, int variant)
{
    d->disk = text("sda", variant);
    d->num_reads_completed = static_cast<uint64_t>(variant) + 100;
    d->weighted_milliseconds_io = 7;
}

void fill_net(pmix_net_stats_t *n, int variant)
{
    n->net_interface = text("eth", variant);
    n->num_bytes_sent = static_cast<uint64_t>(variant) + 5;
}

void fill_topology(pmix_topology_t *topo, int variant)
{
    hwloc_topology_t t = nullptr;
    hwloc_topology_init(&t);
    hwloc_topology_set_synthetic(t, 0 == variant ? "pack:1 core:2 pu:1" : "pack:1 core:4 pu:2");
    hwloc_topology_load(t);
    topo->source = strdup("hwloc");
    topo->topology = t;
}

void fill_cpuset(pmix_cpuset_t *cpuset, int variant)
{
    hwloc_bitmap_t map = hwloc_bitmap_alloc();
    hwloc_bitmap_set_range(map, 0, 1 + variant);
    cpuset->source = strdup("hwloc");
    cpuset->bitmap = map;
}

void fill_data_buffer(pmix_data_buffer_t *buf, int variant)
{
    buf->base_ptr = static_cast<char *>(std::malloc(16));
    std::memset(buf->base_ptr, 'a' + variant, 16);
    buf->bytes_allocated = 16;
    buf->bytes_used = 16;
    buf->pack_ptr = buf->base_ptr + 16;
    buf->unpack_ptr = buf->base_ptr + 4;
}

void fill_structured(pmix_data_type_t type, int v, void *e);

}  // namespace

const std::vector<pmix_data_type_t> &element_types()
{
    static const std::vector<pmix_data_type_t> types = {
        PMIX_BOOL,
        PMIX_BYTE,
        PMIX_STRING,
        PMIX_SIZE,
        PMIX_PID,
        PMIX_INT,
        PMIX_INT8,
        PMIX_INT16,
        PMIX_INT32,
        PMIX_INT64,
        PMIX_UINT,
        PMIX_UINT8,
        PMIX_UINT16,
        PMIX_UINT32,
        PMIX_UINT64,
        PMIX_FLOAT,
        PMIX_DOUBLE,
        PMIX_TIMEVAL,
        PMIX_TIME,
        PMIX_STATUS,
        PMIX_VALUE,
        PMIX_PROC,
        PMIX_APP,
        PMIX_INFO,
        PMIX_PDATA,
        PMIX_BYTE_OBJECT,
        PMIX_PERSIST,
        PMIX_POINTER,
        PMIX_SCOPE,
        PMIX_DATA_RANGE,
        PMIX_COMMAND,
        PMIX_INFO_DIRECTIVES,
        PMIX_DATA_TYPE,
        PMIX_PROC_STATE,
        PMIX_PROC_INFO,
        PMIX_DATA_ARRAY,
        PMIX_PROC_RANK,
        PMIX_QUERY,
        PMIX_COMPRESSED_STRING,
        PMIX_ALLOC_DIRECTIVE,
        PMIX_IOF_CHANNEL,
        PMIX_ENVAR,
        PMIX_COORD,
        PMIX_REGATTR,
        PMIX_REGEX,
        PMIX_JOB_STATE,
        PMIX_LINK_STATE,
        PMIX_PROC_CPUSET,
        PMIX_GEOMETRY,
        PMIX_DEVICE_DIST,
        PMIX_ENDPOINT,
        PMIX_TOPO,
        PMIX_DEVTYPE,
        PMIX_LOCTYPE,
        PMIX_COMPRESSED_BYTE_OBJECT,
        PMIX_PROC_NSPACE,
        PMIX_PROC_STATS,
        PMIX_DISK_STATS,
        PMIX_NET_STATS,
        PMIX_NODE_STATS,
        PMIX_DATA_BUFFER,
        PMIX_STOR_MEDIUM,
        PMIX_STOR_ACCESS,
        PMIX_STOR_PERSIST,
        PMIX_STOR_ACCESS_TYPE,
    };
    return types;
}

bool value_holds(pmix_data_type_t type)
{
    return PMIX_INFO != type && PMIX_VALUE != type && PMIX_PDATA != type && PMIX_APP != type && PMIX_QUERY != type;
}

const void *load_argument(pmix_data_type_t type, const void *element)
{
    if (PMIX_STRING == type || PMIX_POINTER == type) {
        return *static_cast<void *const *>(element);
    }
    if (PMIX_REGEX == type) {
        return static_cast<const pmix_byte_object_t *>(element)->bytes;
    }
    return element;
}

void make(pmix_data_type_t type, int v, void *e)
{
    switch (type) {
    case PMIX_BOOL: *static_cast<bool *>(e) = (0 != v); return;
    case PMIX_STRING: *static_cast<char **>(e) = text("string", v); return;
    case PMIX_PROC: fill_proc(static_cast<pmix_proc_t *>(e), v); return;
    case PMIX_PROC_NSPACE: std::snprintf(static_cast<char *>(e), PMIX_MAX_NSLEN, "nspace-%d", v); return;
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT: fill_bo(static_cast<pmix_byte_object_t *>(e), v, false); return;
    case PMIX_REGEX: fill_bo(static_cast<pmix_byte_object_t *>(e), v, true); return;
    default: break;
    }
    fill_structured(type, v, e);
}

namespace {

// Scalars get a byte pattern; everything else its own filler.
void fill_structured(pmix_data_type_t type, int v, void *e)
{
    switch (type) {
    case PMIX_VALUE: {
        auto val = static_cast<pmix_value_t *>(e);
        val->type = PMIX_UINT32;
        val->data.uint32 = static_cast<uint32_t>(v) + 40;
        return;
    }
    case PMIX_INFO: fill_info(static_cast<pmix_info_t *>(e), v); return;
    case PMIX_PDATA: {
        auto pd = static_cast<pmix_pdata_t *>(e);
        fill_proc(&pd->proc, v);
        std::snprintf(pd->key, sizeof(pd->key), "pdata.%d", v);
        pd->value.type = PMIX_INT;
        pd->value.data.integer = v;
        return;
    }
    case PMIX_APP: {
        auto app = static_cast<pmix_app_t *>(e);
        app->cmd = text("cmd", v);
        app->argv = argv2("arg", v);
        app->env = argv2("ENV=x", v);
        app->cwd = text("/tmp", v);
        app->maxprocs = v + 1;
        app->info = info_array(v, 2);
        app->ninfo = 2;
        return;
    }
    case PMIX_QUERY: {
        auto q = static_cast<pmix_query_t *>(e);
        q->keys = argv2("pmix.qkey", v);
        q->qualifiers = info_array(v, 1);
        q->nqual = 1;
        return;
    }
    case PMIX_PROC_INFO: {
        auto pi = static_cast<pmix_proc_info_t *>(e);
        fill_proc(&pi->proc, v);
        pi->hostname = text("host", v);
        pi->executable_name = text("exe", v);
        pi->pid = 1000 + v;
        pi->exit_code = v;
        pi->state = PMIX_PROC_STATE_RUNNING;
        return;
    }
    case PMIX_DATA_ARRAY: {
        auto da = static_cast<pmix_data_array_t *>(e);
        da->type = PMIX_STRING;
        da->size = 2;
        auto strs = static_cast<char **>(std::calloc(2, sizeof(char *)));
        strs[0] = text("elem", v);
        strs[1] = text("elem", v + 1);
        da->array = strs;
        return;
    }
    case PMIX_ENVAR: {
        auto env = static_cast<pmix_envar_t *>(e);
        env->envar = text("PATH", v);
        env->value = text("/bin", v);
        env->separator = ':';
        return;
    }
    case PMIX_COORD: fill_coord(static_cast<pmix_coord_t *>(e), v); return;
    case PMIX_REGATTR: {
        auto ra = static_cast<pmix_regattr_t *>(e);
        ra->name = text("PMIX_ATTR", v);
        std::snprintf(ra->string, sizeof(ra->string), "pmix.attr.%d", v);
        ra->type = PMIX_BOOL;
        ra->description = argv2("desc", v);
        return;
    }
    case PMIX_PROC_CPUSET: fill_cpuset(static_cast<pmix_cpuset_t *>(e), v); return;
    case PMIX_TOPO: fill_topology(static_cast<pmix_topology_t *>(e), v); return;
    case PMIX_GEOMETRY: {
        auto g = static_cast<pmix_geometry_t *>(e);
        g->fabric = 1;
        g->uuid = text("uuid", v);
        g->osname = text("ib", v);
        g->coordinates = static_cast<pmix_coord_t *>(std::calloc(2, sizeof(pmix_coord_t)));
        fill_coord(&g->coordinates[0], v);
        fill_coord(&g->coordinates[1], v + 1);
        g->ncoords = 2;
        return;
    }
    case PMIX_DEVICE_DIST: {
        auto d = static_cast<pmix_device_distance_t *>(e);
        d->uuid = text("gpu-uuid", v);
        d->osname = text("gpu", v);
        d->type = PMIX_DEVTYPE_GPU;
        d->mindist = static_cast<uint16_t>(v);
        d->maxdist = 9;
        return;
    }
    case PMIX_ENDPOINT: {
        auto ep = static_cast<pmix_endpoint_t *>(e);
        ep->uuid = text("ep-uuid", v);
        ep->osname = text("mlx", v);
        fill_bo(&ep->endpt, v, false);
        return;
    }
    case PMIX_PROC_STATS: {
        auto ps = static_cast<pmix_proc_stats_t *>(e);
        ps->node = text("node", v);
        fill_proc(&ps->proc, v);
        ps->pid = 77;
        ps->cmd = text("a.out", v);
        ps->state = 'R';
        ps->percent_cpu = 12.5f;
        ps->num_threads = 4;
        return;
    }
    case PMIX_DISK_STATS: fill_disk(static_cast<pmix_disk_stats_t *>(e), v); return;
    case PMIX_NET_STATS: fill_net(static_cast<pmix_net_stats_t *>(e), v); return;
    case PMIX_NODE_STATS: {
        auto nd = static_cast<pmix_node_stats_t *>(e);
        nd->node = text("node", v);
        nd->la = 0.5f;
        nd->diskstats = static_cast<pmix_disk_stats_t *>(std::calloc(1, sizeof(pmix_disk_stats_t)));
        fill_disk(nd->diskstats, v);
        nd->ndiskstats = 1;
        nd->netstats = static_cast<pmix_net_stats_t *>(std::calloc(2, sizeof(pmix_net_stats_t)));
        fill_net(&nd->netstats[0], v);
        fill_net(&nd->netstats[1], v + 1);
        nd->nnetstats = 2;
        return;
    }
    case PMIX_DATA_BUFFER: fill_data_buffer(static_cast<pmix_data_buffer_t *>(e), v); return;
    default: break;
    }
    // Remaining types are scalars: a distinct byte pattern per variant.
    std::memset(e, 1 + v, pmixpp::values::element_size(type));
}

}  // namespace
}  // namespace samples
