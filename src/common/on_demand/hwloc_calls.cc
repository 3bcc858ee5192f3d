// The hwloc functions libpmix calls, each loading libhwloc on its first use
// (shared_library.h). hwloc comes into a process with the first topology,
// cpuset or distance call, or with the server's init; a rank that only
// inits, exchanges data and finalizes never maps it (nor libudev and libm,
// which hwloc needs). The version script keeps these definitions inside
// libpmix: an application's own calls go to libhwloc directly.
#include <hwloc.h>

#include <cerrno>

#include "common/on_demand/shared_library.h"

#if HWLOC_API_VERSION < 0x00020000 || HWLOC_API_VERSION >= 0x00030000
#error "the soname below is hwloc 2's: update it with the hwloc major version"
#endif

namespace {

pmixpp::on_demand::SharedLibrary hwloc_library("libhwloc.so.15", "libhwloc15");

// What a call answers when libhwloc cannot be loaded: hwloc's own failure
// values (-1 with errno, NULL).
int unavailable()
{
    errno = ENOSYS;
    return -1;
}

}  // namespace

#define HWLOC_CALL(name) PMIXPP_ON_DEMAND(hwloc_library, name)

extern "C" {

hwloc_bitmap_t hwloc_bitmap_alloc(void)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_alloc);
    return fn != nullptr ? fn() : nullptr;
}

hwloc_bitmap_t hwloc_bitmap_dup(hwloc_const_bitmap_t bitmap)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_dup);
    return fn != nullptr ? fn(bitmap) : nullptr;
}

void hwloc_bitmap_free(hwloc_bitmap_t bitmap)
{
    if (bitmap == nullptr) return;  // nothing to free, nothing to load
    if (auto fn = HWLOC_CALL(hwloc_bitmap_free)) fn(bitmap);
}

void hwloc_bitmap_zero(hwloc_bitmap_t bitmap)
{
    if (auto fn = HWLOC_CALL(hwloc_bitmap_zero)) fn(bitmap);
}

int hwloc_bitmap_set(hwloc_bitmap_t bitmap, unsigned id)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_set);
    return fn != nullptr ? fn(bitmap, id) : unavailable();
}

int hwloc_bitmap_compare(hwloc_const_bitmap_t bitmap1, hwloc_const_bitmap_t bitmap2)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_compare);
    return fn != nullptr ? fn(bitmap1, bitmap2) : 0;
}

int hwloc_bitmap_intersects(hwloc_const_bitmap_t bitmap1, hwloc_const_bitmap_t bitmap2)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_intersects);
    return fn != nullptr ? fn(bitmap1, bitmap2) : 0;
}

int hwloc_bitmap_isincluded(hwloc_const_bitmap_t sub_bitmap, hwloc_const_bitmap_t super_bitmap)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_isincluded);
    return fn != nullptr ? fn(sub_bitmap, super_bitmap) : 0;
}

int hwloc_bitmap_iszero(hwloc_const_bitmap_t bitmap)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_iszero);
    return fn != nullptr ? fn(bitmap) : 1;
}

int hwloc_bitmap_last(hwloc_const_bitmap_t bitmap)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_last);
    return fn != nullptr ? fn(bitmap) : -1;
}

int hwloc_bitmap_list_asprintf(char **strp, hwloc_const_bitmap_t bitmap)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_list_asprintf);
    return fn != nullptr ? fn(strp, bitmap) : unavailable();
}

int hwloc_bitmap_list_sscanf(hwloc_bitmap_t bitmap, const char *string)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_list_sscanf);
    return fn != nullptr ? fn(bitmap, string) : unavailable();
}

int hwloc_bitmap_sscanf(hwloc_bitmap_t bitmap, const char *string)
{
    auto fn = HWLOC_CALL(hwloc_bitmap_sscanf);
    return fn != nullptr ? fn(bitmap, string) : unavailable();
}

int hwloc_topology_init(hwloc_topology_t *topologyp)
{
    auto fn = HWLOC_CALL(hwloc_topology_init);
    return fn != nullptr ? fn(topologyp) : unavailable();
}

int hwloc_topology_load(hwloc_topology_t topology)
{
    auto fn = HWLOC_CALL(hwloc_topology_load);
    return fn != nullptr ? fn(topology) : unavailable();
}

void hwloc_topology_destroy(hwloc_topology_t topology)
{
    if (auto fn = HWLOC_CALL(hwloc_topology_destroy)) fn(topology);
}

int hwloc_topology_dup(hwloc_topology_t *newtopology, hwloc_topology_t oldtopology)
{
    auto fn = HWLOC_CALL(hwloc_topology_dup);
    return fn != nullptr ? fn(newtopology, oldtopology) : unavailable();
}

int hwloc_topology_set_flags(hwloc_topology_t topology, unsigned long flags)
{
    auto fn = HWLOC_CALL(hwloc_topology_set_flags);
    return fn != nullptr ? fn(topology, flags) : unavailable();
}

int hwloc_topology_set_all_types_filter(hwloc_topology_t topology, enum hwloc_type_filter_e filter)
{
    auto fn = HWLOC_CALL(hwloc_topology_set_all_types_filter);
    return fn != nullptr ? fn(topology, filter) : unavailable();
}

int hwloc_topology_set_io_types_filter(hwloc_topology_t topology, enum hwloc_type_filter_e filter)
{
    auto fn = HWLOC_CALL(hwloc_topology_set_io_types_filter);
    return fn != nullptr ? fn(topology, filter) : unavailable();
}

int hwloc_topology_set_xmlbuffer(hwloc_topology_t topology, const char *buffer, int size)
{
    auto fn = HWLOC_CALL(hwloc_topology_set_xmlbuffer);
    return fn != nullptr ? fn(topology, buffer, size) : unavailable();
}

int hwloc_topology_export_xmlbuffer(hwloc_topology_t topology, char **xmlbuffer, int *buflen, unsigned long flags)
{
    auto fn = HWLOC_CALL(hwloc_topology_export_xmlbuffer);
    return fn != nullptr ? fn(topology, xmlbuffer, buflen, flags) : unavailable();
}

void hwloc_free_xmlbuffer(hwloc_topology_t topology, char *xmlbuffer)
{
    if (auto fn = HWLOC_CALL(hwloc_free_xmlbuffer)) fn(topology, xmlbuffer);
}

int hwloc_topology_get_depth(hwloc_topology_t topology)
{
    auto fn = HWLOC_CALL(hwloc_topology_get_depth);
    return fn != nullptr ? fn(topology) : 0;
}

hwloc_const_cpuset_t hwloc_topology_get_topology_cpuset(hwloc_topology_t topology)
{
    auto fn = HWLOC_CALL(hwloc_topology_get_topology_cpuset);
    return fn != nullptr ? fn(topology) : nullptr;
}

int hwloc_get_type_depth(hwloc_topology_t topology, hwloc_obj_type_t type)
{
    auto fn = HWLOC_CALL(hwloc_get_type_depth);
    return fn != nullptr ? fn(topology, type) : HWLOC_TYPE_DEPTH_UNKNOWN;
}

hwloc_obj_type_t hwloc_get_depth_type(hwloc_topology_t topology, int depth)
{
    auto fn = HWLOC_CALL(hwloc_get_depth_type);
    return fn != nullptr ? fn(topology, depth) : static_cast<hwloc_obj_type_t>(-1);
}

unsigned hwloc_get_nbobjs_by_depth(hwloc_topology_t topology, int depth)
{
    auto fn = HWLOC_CALL(hwloc_get_nbobjs_by_depth);
    return fn != nullptr ? fn(topology, depth) : 0;
}

hwloc_obj_t hwloc_get_obj_by_depth(hwloc_topology_t topology, int depth, unsigned idx)
{
    auto fn = HWLOC_CALL(hwloc_get_obj_by_depth);
    return fn != nullptr ? fn(topology, depth, idx) : nullptr;
}

int hwloc_get_cpubind(hwloc_topology_t topology, hwloc_cpuset_t set, int flags)
{
    auto fn = HWLOC_CALL(hwloc_get_cpubind);
    return fn != nullptr ? fn(topology, set, flags) : unavailable();
}

}  // extern "C"
