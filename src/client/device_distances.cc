// PMIx_Compute_distances(_nb): how far each network, OpenFabrics and GPU
// device of the node is from a cpuset, in hops of the hwloc tree (see
// docs/topology.md). Devices are named as OpenPMIx names them, so consumers
// that match PMIX_DEVICE_DISTANCES entries by uuid or osname work alike.
#include <pmix.h>

#include <hwloc.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <strings.h>
#include <vector>

#include "client/device_names.h"
#include "client/no_results.h"
#include "common/runtime/log.h"
#include "common/runtime/progress_engine.h"
#include "common/values/hwloc_bitmap.h"
#include "common/values/hwloc_ops.h"

namespace {

using pmixpp::values::Bitmap;

struct DeviceKind {
    hwloc_obj_osdev_type_t hwloc_type;
    pmix_device_type_t pmix_type;
};

// BLOCK, DMA and COPROC devices are not reported (as in OpenPMIx).
constexpr DeviceKind kKinds[] = {
    {HWLOC_OBJ_OSDEV_NETWORK, PMIX_DEVTYPE_NETWORK},
    {HWLOC_OBJ_OSDEV_OPENFABRICS, PMIX_DEVTYPE_OPENFABRICS},
    {HWLOC_OBJ_OSDEV_GPU, PMIX_DEVTYPE_GPU},
};
constexpr pmix_device_type_t kEveryKind = PMIX_DEVTYPE_NETWORK | PMIX_DEVTYPE_OPENFABRICS | PMIX_DEVTYPE_GPU;

void refuse(const std::string &why)
{
    pmixpp::runtime::log_warning("topology", why);
}

// What the caller asked for: device kinds and, optionally, device names.
struct Filter {
    pmix_device_type_t kinds = 0;
    std::vector<std::string> ids;  // PMIX_DEVICE_ID: osname or uuid
};

pmix_status_t read_filter(const pmix_info_t info[], size_t ninfo, Filter *filter_p)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    for (size_t i = 0; i < ninfo; ++i) {
        const pmix_value_t &value = info[i].value;
        if (PMIX_CHECK_KEY(&info[i], PMIX_DEVICE_TYPE)) {
            if (value.type != PMIX_DEVTYPE) {
                refuse("PMIX_DEVICE_TYPE holds a " + std::string(PMIx_Data_type_string(value.type)) +
                       "; give it a PMIX_DEVTYPE (e.g. PMIX_DEVTYPE_NETWORK | PMIX_DEVTYPE_GPU)");
                return PMIX_ERR_BAD_PARAM;
            }
            filter_p->kinds |= value.data.devtype;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_DEVICE_ID)) {
            if (value.type != PMIX_STRING || value.data.string == nullptr) {
                refuse("PMIX_DEVICE_ID must be a string: a device's osname (eth0) or uuid");
                return PMIX_ERR_BAD_PARAM;
            }
            filter_p->ids.emplace_back(value.data.string);
        }
    }
    if (filter_p->kinds == 0) filter_p->kinds = kEveryKind;
    return PMIX_SUCCESS;
}

bool wanted(const Filter &filter, hwloc_obj_t device, const std::string &uuid)
{
    if (filter.ids.empty()) return true;
    for (const std::string &id : filter.ids) {
        if (strcasecmp(id.c_str(), device->name) == 0 || strcasecmp(id.c_str(), uuid.c_str()) == 0) return true;
    }
    return false;
}

// Hops from a PU up to the lowest object it shares with the device: 1 when
// the device hangs off the PU's core, more as the shared ancestor rises.
struct Span {
    unsigned min = 0;
    unsigned max = 0;
};

Span span(hwloc_topology_t topology, hwloc_const_bitmap_t cpus, hwloc_obj_t device)
{
    hwloc_obj_t place = hwloc_get_non_io_ancestor_obj(topology, device);
    Span result{~0u, 0};
    hwloc_obj_t pu = nullptr;
    while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topology, cpus, HWLOC_OBJ_PU, pu)) != nullptr) {
        hwloc_obj_t common = hwloc_get_common_ancestor_obj(topology, pu, place);
        const unsigned hops =
            common == nullptr ? static_cast<unsigned>(pu->depth) + 1 : static_cast<unsigned>(pu->depth - common->depth);
        result.min = std::min(result.min, hops);
        result.max = std::max(result.max, hops);
    }
    return result;
}

struct Distance {
    std::string uuid;
    std::string osname;
    pmix_device_type_t type;
    Span hops;
};

std::vector<Distance> distances(hwloc_topology_t topology, hwloc_const_bitmap_t cpus, const Filter &filter)
{
    std::vector<Distance> found;
    for (const DeviceKind &kind : kKinds) {
        if ((filter.kinds & kind.pmix_type) == 0) continue;
        for (hwloc_obj_t device = hwloc_get_next_osdev(topology, nullptr); device != nullptr;
             device = hwloc_get_next_osdev(topology, device)) {
            if (device->attr->osdev.type != kind.hwloc_type || device->name == nullptr) continue;
            std::string uuid = pmixpp::client::device_uuid(device);
            if (uuid.empty() || !wanted(filter, device, uuid)) continue;
            found.push_back({std::move(uuid), device->name, kind.pmix_type, span(topology, cpus, device)});
        }
    }
    return found;
}

// The topology with its I/O devices, discovered once (the library's shared
// topology, from the server's XML, keeps none).
hwloc_topology_t topology_with_devices()
{
    static std::mutex mutex;
    static hwloc_topology_t topology = nullptr;
    const std::lock_guard<std::mutex> lock(mutex);
    if (topology != nullptr) return topology;
    hwloc_topology_t fresh = nullptr;
    if (hwloc_topology_init(&fresh) != 0) return nullptr;
    if (hwloc_topology_set_io_types_filter(fresh, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
        hwloc_topology_load(fresh) != 0) {
        hwloc_topology_destroy(fresh);
        return nullptr;
    }
    topology = fresh;
    return topology;
}

pmix_status_t pick_topology(const pmix_topology_t *topo, hwloc_topology_t *topology_p)
{
    if (topo != nullptr && topo->topology != nullptr) {
        if (!pmixpp::values::is_hwloc_source(topo->source)) return PMIX_ERR_NOT_SUPPORTED;
        *topology_p = static_cast<hwloc_topology_t>(topo->topology);
        return PMIX_SUCCESS;
    }
    *topology_p = topology_with_devices();
    return *topology_p != nullptr ? PMIX_SUCCESS : PMIX_ERR_NOT_AVAILABLE;
}

// The caller's cpuset, or where the process is bound when it gives none.
pmix_status_t pick_cpus(const pmix_cpuset_t *cpuset, Bitmap *cpus_p)
{
    if (cpuset != nullptr && cpuset->bitmap != nullptr) {
        if (!pmixpp::values::is_hwloc_source(cpuset->source)) return PMIX_ERR_NOT_SUPPORTED;
        cpus_p->reset(hwloc_bitmap_dup(static_cast<hwloc_const_bitmap_t>(cpuset->bitmap)));
        return *cpus_p ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
    }
    pmix_cpuset_t bound;
    const pmix_status_t rc = PMIx_Get_cpuset(&bound, PMIX_CPUBIND_PROCESS);
    if (rc != PMIX_SUCCESS) return rc;
    cpus_p->reset(static_cast<hwloc_bitmap_t>(bound.bitmap));
    bound.bitmap = nullptr;
    PMIx_Cpuset_destruct(&bound);
    return PMIX_SUCCESS;
}

pmix_status_t compute(pmix_topology_t *topo, pmix_cpuset_t *cpuset, const pmix_info_t info[], size_t ninfo,
                      std::vector<Distance> *found_p)
{
    Filter filter;
    pmix_status_t rc = read_filter(info, ninfo, &filter);
    if (rc != PMIX_SUCCESS) return rc;
    hwloc_topology_t topology = nullptr;
    rc = pick_topology(topo, &topology);
    if (rc != PMIX_SUCCESS) return rc;
    Bitmap cpus;
    rc = pick_cpus(cpuset, &cpus);
    if (rc != PMIX_SUCCESS) return rc;
    if (!hwloc_bitmap_intersects(cpus.get(), hwloc_topology_get_topology_cpuset(topology))) {
        refuse("the cpuset holds no processor of the topology; pass a cpuset of this node "
               "(PMIx_Get_cpuset, or PMIx_Parse_cpuset_string of its PMIX_CPUSET)");
        return PMIX_ERR_BAD_PARAM;
    }
    *found_p = distances(topology, cpus.get(), filter);
    return found_p->empty() ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
}

uint16_t clamp16(unsigned hops)
{
    return static_cast<uint16_t>(std::min(hops, 65534u));
}

pmix_device_distance_t *to_array(const std::vector<Distance> &found)
{
    pmix_device_distance_t *array = nullptr;
    PMIX_DEVICE_DIST_CREATE(array, found.size());
    if (array == nullptr) return nullptr;
    for (size_t i = 0; i < found.size(); ++i) {
        array[i].uuid = strdup(found[i].uuid.c_str());
        array[i].osname = strdup(found[i].osname.c_str());
        array[i].type = found[i].type;
        array[i].mindist = clamp16(found[i].hops.min);
        array[i].maxdist = clamp16(found[i].hops.max);
        if (array[i].uuid == nullptr || array[i].osname == nullptr) {
            PMIX_DEVICE_DIST_FREE(array, found.size());
            return nullptr;
        }
    }
    return array;
}

}  // namespace

pmix_status_t PMIx_Compute_distances(pmix_topology_t *topo, pmix_cpuset_t *cpuset, pmix_info_t info[], size_t ninfo,
                                     pmix_device_distance_t *distances[], size_t *ndist)
{
    pmixpp::client::no_results(distances, ndist);
    if (distances == nullptr || ndist == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        std::vector<Distance> found;
        const pmix_status_t rc = compute(topo, cpuset, info, ninfo, &found);
        if (rc != PMIX_SUCCESS) return rc;
        *distances = to_array(found);
        if (*distances == nullptr) return PMIX_ERR_NOMEM;
        *ndist = found.size();
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// Computed now; the answer reaches cbfunc on the progress thread, after this
// returns, and release_fn frees the array.
pmix_status_t PMIx_Compute_distances_nb(pmix_topology_t *topo, pmix_cpuset_t *cpuset, pmix_info_t info[], size_t ninfo,
                                        pmix_device_dist_cbfunc_t cbfunc, void *cbdata)
{
    if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    auto &engine = pmixpp::runtime::ProgressEngine::process();
    if (!engine.running()) return PMIX_ERR_INIT;
    try {
        std::vector<Distance> found;
        const pmix_status_t status = compute(topo, cpuset, info, ninfo, &found);
        pmix_device_distance_t *array = status == PMIX_SUCCESS ? to_array(found) : nullptr;
        if (status == PMIX_SUCCESS && array == nullptr) return PMIX_ERR_NOMEM;
        const size_t count = array != nullptr ? found.size() : 0;
        struct Held {
            pmix_device_distance_t *array;
            size_t count;
        };
        auto *held = new Held{array, count};
        const pmix_status_t posted = engine.post([status, held, cbfunc, cbdata] {
            cbfunc(
                status, held->array, held->count, cbdata,
                [](void *p) {
                    auto *h = static_cast<Held *>(p);
                    if (h->array != nullptr) PMIX_DEVICE_DIST_FREE(h->array, h->count);
                    delete h;
                },
                held);
        });
        if (posted != PMIX_SUCCESS) {
            if (array != nullptr) PMIX_DEVICE_DIST_FREE(array, count);
            delete held;
        }
        return posted;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
