// PMIX_LOCALITY_STRING from a cpuset (see locality.h).
#include "server/jobdata/locality.h"

#include "common/values/cpu_list.h"
#include "common/values/hwloc_bitmap.h"

#include <cstdlib>
#include <cstring>
#include <memory>

namespace pmixpp::jobdata {
namespace {

using pmixpp::values::Bitmap;

const char *tag_of(hwloc_obj_type_t type)
{
    switch (type) {
    case HWLOC_OBJ_NUMANODE: return "NM";
    case HWLOC_OBJ_PACKAGE: return "SK";
    case HWLOC_OBJ_L3CACHE: return "L3";
    case HWLOC_OBJ_L2CACHE: return "L2";
    case HWLOC_OBJ_L1CACHE: return "L1";
    case HWLOC_OBJ_CORE: return "CR";
    case HWLOC_OBJ_PU: return "HT";
    default: return nullptr;
    }
}

// A cpuset as hosts give it: a list ("0-3,8") or mask ("0xff"), possibly
// after its source ("hwloc:0-3", the form PMIx_server_generate_cpuset_string makes).
Bitmap parse(const char *text)
{
    const char *colon = std::strchr(text, ':');
    if (colon != nullptr) text = colon + 1;
    Bitmap bitmap(hwloc_bitmap_alloc());
    if (!bitmap) return nullptr;
    const bool mask = std::strncmp(text, "0x", 2) == 0;
    if (mask ? !values::is_bounded_cpu_mask(text) : !values::is_bounded_cpu_list(text)) return nullptr;
    const int rc = mask ? hwloc_bitmap_sscanf(bitmap.get(), text) : hwloc_bitmap_list_sscanf(bitmap.get(), text);
    if (rc != 0 || hwloc_bitmap_iszero(bitmap.get())) return nullptr;
    // "0xf...f" is an endless mask (no last bit): no cpuset of a real process.
    const int last = hwloc_bitmap_last(bitmap.get());
    if (last < 0 || static_cast<unsigned long>(last) > values::kMaxCpuIndex) return nullptr;
    return bitmap;
}

}  // namespace

std::string locality_string(hwloc_topology_t topology, const char *cpuset)
{
    if (topology == nullptr || cpuset == nullptr) return {};
    const Bitmap wanted = parse(cpuset);
    const Bitmap hits(hwloc_bitmap_alloc());
    if (!wanted || !hits) return {};
    std::string locality;
    const int depth = hwloc_topology_get_depth(topology);
    for (int d = 1; d < depth; ++d) {
        const char *tag = tag_of(hwloc_get_depth_type(topology, d));
        if (tag == nullptr) continue;
        hwloc_bitmap_zero(hits.get());
        const unsigned count = hwloc_get_nbobjs_by_depth(topology, d);
        for (unsigned i = 0; i < count; ++i) {
            const hwloc_obj_t obj = hwloc_get_obj_by_depth(topology, d, i);
            if (obj->cpuset != nullptr && hwloc_bitmap_intersects(obj->cpuset, wanted.get())) {
                hwloc_bitmap_set(hits.get(), i);
            }
        }
        if (hwloc_bitmap_iszero(hits.get())) continue;
        char *list = nullptr;
        if (hwloc_bitmap_list_asprintf(&list, hits.get()) < 0 || list == nullptr) return {};
        if (!locality.empty()) locality += ':';
        locality += tag;
        locality += list;
        std::free(list);
    }
    return locality;
}

}  // namespace pmixpp::jobdata
