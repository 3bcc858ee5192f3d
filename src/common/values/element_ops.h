// Per-type element operations referenced by the type table (type_table.cc).
// Every copy takes zeroed destination storage and leaves it owning nothing on
// failure; every destruct releases what the element owns and zeroes it.
#ifndef PMIXPP_COMMON_VALUES_ELEMENT_OPS_H
#define PMIXPP_COMMON_VALUES_ELEMENT_OPS_H

#include <cstring>

#include <pmix_common.h>

namespace pmixpp::values::ops {

using CopyFn = pmix_status_t (*)(void *dest, const void *src);
using DestructFn = void (*)(void *element);
using CompareFn = pmix_value_cmp_t (*)(const void *a, const void *b);

#define PMIXPP_ELEMENT_OPS(name)                                                                                       \
    pmix_status_t copy_##name(void *dest, const void *src);                                                            \
    void destruct_##name(void *element);                                                                               \
    pmix_value_cmp_t compare_##name(const void *a, const void *b)

// strings and bytes (basic_ops.cc)
PMIXPP_ELEMENT_OPS(string);
PMIXPP_ELEMENT_OPS(byte_object);
pmix_status_t copy_nspace(void *dest, const void *src);
pmix_value_cmp_t compare_nspace(const void *a, const void *b);
pmix_value_cmp_t compare_proc(const void *a, const void *b);
pmix_value_cmp_t compare_timeval(const void *a, const void *b);
pmix_value_cmp_t compare_pointer(const void *a, const void *b);

// small structs (struct_ops.cc)
PMIXPP_ELEMENT_OPS(proc_info);
PMIXPP_ELEMENT_OPS(envar);
PMIXPP_ELEMENT_OPS(coord);
PMIXPP_ELEMENT_OPS(geometry);
PMIXPP_ELEMENT_OPS(devdist);
PMIXPP_ELEMENT_OPS(endpoint);
PMIXPP_ELEMENT_OPS(regattr);
PMIXPP_ELEMENT_OPS(data_buffer);

// statistics (stats_ops.cc)
PMIXPP_ELEMENT_OPS(proc_stats);
PMIXPP_ELEMENT_OPS(disk_stats);
PMIXPP_ELEMENT_OPS(net_stats);
PMIXPP_ELEMENT_OPS(node_stats);

// containers of other elements (container_ops.cc)
PMIXPP_ELEMENT_OPS(value);
PMIXPP_ELEMENT_OPS(info);
PMIXPP_ELEMENT_OPS(pdata);
PMIXPP_ELEMENT_OPS(app);
PMIXPP_ELEMENT_OPS(query);
PMIXPP_ELEMENT_OPS(data_array);

// hwloc-backed objects (hwloc_ops.cc)
PMIXPP_ELEMENT_OPS(cpuset);
PMIXPP_ELEMENT_OPS(topology);

#undef PMIXPP_ELEMENT_OPS

// Scalars: trivially copyable, compared by value (memcpy because array
// elements of packed buffers need not be aligned).
template <typename T> pmix_value_cmp_t compare_scalar(const void *a, const void *b)
{
    T x;
    T y;
    std::memcpy(&x, a, sizeof(T));
    std::memcpy(&y, b, sizeof(T));
    if (x < y) {
        return PMIX_VALUE2_GREATER;
    }
    if (y < x) {
        return PMIX_VALUE1_GREATER;
    }
    return PMIX_EQUAL;
}

}  // namespace pmixpp::values::ops

#endif
