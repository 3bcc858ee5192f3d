// Element operations for PMIX_PROC_CPUSET and PMIX_TOPO, plus the public
// PMIx_Cpuset_destruct and PMIx_Topology_destruct.
#include "common/values/hwloc_ops.h"

#include <hwloc.h>
#include <strings.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include <pmix.h>  // declares PMIx_Cpuset_destruct, defined here

#include "common/values/element_ops.h"
#include "common/values/memory_helpers.h"

namespace pmixpp::values {
namespace {

std::atomic<void *> library_topology{nullptr};

// Two sources must both name hwloc to be comparable (the standard's rule:
// objects from different providers cannot be ordered).
pmix_value_cmp_t compare_sources(const char *a, const char *b)
{
    if (nullptr == a && nullptr == b) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    if (!is_hwloc_source(a) || !is_hwloc_source(b)) {
        return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
    }
    return PMIX_EQUAL;
}

char *export_xml(hwloc_topology_t topology, int *length_p)
{
    char *xml = nullptr;
    if (0 != hwloc_topology_export_xmlbuffer(topology, &xml, length_p, 0)) {
        return nullptr;
    }
    return xml;
}

}  // namespace

void set_library_topology(void *hwloc_topology)
{
    library_topology.store(hwloc_topology);
}

bool is_hwloc_source(const char *source)
{
    return nullptr != source && 0 == strncasecmp(source, "hwloc", 5);
}

}  // namespace pmixpp::values

namespace pmixpp::values::ops {

pmix_status_t copy_cpuset(void *dest, const void *src)
{
    auto to = static_cast<pmix_cpuset_t *>(dest);
    auto from = static_cast<const pmix_cpuset_t *>(src);
    if (nullptr == from->source && nullptr == from->bitmap) {
        return PMIX_SUCCESS;
    }
    if (!is_hwloc_source(from->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS != dup_string(&to->source, from->source)) {
        return PMIX_ERR_NOMEM;
    }
    if (nullptr != from->bitmap) {
        to->bitmap = hwloc_bitmap_dup(static_cast<hwloc_const_bitmap_t>(from->bitmap));
        if (nullptr == to->bitmap) {
            free_and_clear(&to->source);
            return PMIX_ERR_NOMEM;
        }
    }
    return PMIX_SUCCESS;
}

void destruct_cpuset(void *element)
{
    auto cpuset = static_cast<pmix_cpuset_t *>(element);
    // A bitmap of another provider is not ours to free.
    if (nullptr != cpuset->bitmap && is_hwloc_source(cpuset->source)) {
        hwloc_bitmap_free(static_cast<hwloc_bitmap_t>(cpuset->bitmap));
    }
    std::free(cpuset->source);
    std::memset(cpuset, 0, sizeof(*cpuset));
}

pmix_value_cmp_t compare_cpuset(const void *a, const void *b)
{
    auto x = static_cast<const pmix_cpuset_t *>(a);
    auto y = static_cast<const pmix_cpuset_t *>(b);
    pmix_value_cmp_t rc = compare_sources(x->source, y->source);
    if (PMIX_EQUAL != rc) {
        return rc;
    }
    if (nullptr == x->bitmap || nullptr == y->bitmap) {
        return three_way(nullptr != x->bitmap, nullptr != y->bitmap);
    }
    return three_way(hwloc_bitmap_compare(static_cast<hwloc_const_bitmap_t>(x->bitmap),
                                          static_cast<hwloc_const_bitmap_t>(y->bitmap)),
                     0);
}

pmix_status_t copy_topology(void *dest, const void *src)
{
    auto to = static_cast<pmix_topology_t *>(dest);
    auto from = static_cast<const pmix_topology_t *>(src);
    if (nullptr == from->source && nullptr == from->topology) {
        return PMIX_SUCCESS;
    }
    if (!is_hwloc_source(from->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS != dup_string(&to->source, from->source)) {
        return PMIX_ERR_NOMEM;
    }
    if (nullptr != from->topology) {
        hwloc_topology_t copy = nullptr;
        if (0 != hwloc_topology_dup(&copy, static_cast<hwloc_topology_t>(from->topology))) {
            free_and_clear(&to->source);
            return PMIX_ERROR;
        }
        to->topology = copy;
    }
    return PMIX_SUCCESS;
}

void destruct_topology(void *element)
{
    auto topo = static_cast<pmix_topology_t *>(element);
    if (nullptr != topo->topology && is_hwloc_source(topo->source) && topo->topology != library_topology.load()) {
        hwloc_topology_destroy(static_cast<hwloc_topology_t>(topo->topology));
    }
    std::free(topo->source);
    std::memset(topo, 0, sizeof(*topo));
}

pmix_value_cmp_t compare_topology(const void *a, const void *b)
{
    auto x = static_cast<const pmix_topology_t *>(a);
    auto y = static_cast<const pmix_topology_t *>(b);
    pmix_value_cmp_t rc = compare_sources(x->source, y->source);
    if (PMIX_EQUAL != rc) {
        return rc;
    }
    if (nullptr == x->topology || nullptr == y->topology || x->topology == y->topology) {
        return three_way(nullptr != x->topology, nullptr != y->topology);
    }
    int nx = 0;
    int ny = 0;
    char *xml_x = export_xml(static_cast<hwloc_topology_t>(x->topology), &nx);
    char *xml_y = export_xml(static_cast<hwloc_topology_t>(y->topology), &ny);
    rc = PMIX_VALUE_COMPARISON_NOT_AVAIL;
    if (nullptr != xml_x && nullptr != xml_y) {
        rc = three_way(std::strcmp(xml_x, xml_y), 0);
    }
    if (nullptr != xml_x) {
        hwloc_free_xmlbuffer(static_cast<hwloc_topology_t>(x->topology), xml_x);
    }
    if (nullptr != xml_y) {
        hwloc_free_xmlbuffer(static_cast<hwloc_topology_t>(y->topology), xml_y);
    }
    return rc;
}

}  // namespace pmixpp::values::ops

extern "C" {

PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo)
{
    if (nullptr != topo) {
        pmixpp::values::ops::destruct_topology(topo);
    }
}

PMIX_EXPORT void PMIx_Cpuset_destruct(pmix_cpuset_t *cpuset)
{
    if (nullptr != cpuset) {
        pmixpp::values::ops::destruct_cpuset(cpuset);
    }
}

}  // extern "C"
