// The table of every PMIx data type of the 4.2 headers. Adding a type means
// adding one line here (plus its element functions if it owns memory).
#include "common/values/type_table.h"

#include <array>
#include <sys/time.h>
#include <sys/types.h>
#include <ctime>

namespace pmixpp::values {
namespace {

using H = ValueHolding;

// A scalar: no owned memory, compared by value.
#define PMIXPP_SCALAR(type, ctype)                                                                                     \
    {                                                                                                                  \
        type, #type, sizeof(ctype), H::kInline, nullptr, nullptr, ops::compare_scalar<ctype>                           \
    }
// A type with its own copy/destruct/compare functions.
#define PMIXPP_OWNING(type, ctype, holding, fn)                                                                        \
    {                                                                                                                  \
        type, #type, sizeof(ctype), holding, ops::copy_##fn, ops::destruct_##fn, ops::compare_##fn                     \
    }
// A type the headers name but that has no element representation here.
#define PMIXPP_NAME_ONLY(type, name)                                                                                   \
    {                                                                                                                  \
        type, name, 0, H::kNotHeld, nullptr, nullptr, nullptr                                                          \
    }

constexpr TypeTraits kTypes[] = {
    PMIXPP_NAME_ONLY(PMIX_UNDEF, "PMIX_UNDEF"),
    PMIXPP_SCALAR(PMIX_BOOL, bool),
    PMIXPP_SCALAR(PMIX_BYTE, uint8_t),
    PMIXPP_OWNING(PMIX_STRING, char *, H::kInline, string),
    PMIXPP_SCALAR(PMIX_SIZE, size_t),
    PMIXPP_SCALAR(PMIX_PID, pid_t),
    PMIXPP_SCALAR(PMIX_INT, int),
    PMIXPP_SCALAR(PMIX_INT8, int8_t),
    PMIXPP_SCALAR(PMIX_INT16, int16_t),
    PMIXPP_SCALAR(PMIX_INT32, int32_t),
    PMIXPP_SCALAR(PMIX_INT64, int64_t),
    PMIXPP_SCALAR(PMIX_UINT, unsigned int),
    PMIXPP_SCALAR(PMIX_UINT8, uint8_t),
    PMIXPP_SCALAR(PMIX_UINT16, uint16_t),
    PMIXPP_SCALAR(PMIX_UINT32, uint32_t),
    PMIXPP_SCALAR(PMIX_UINT64, uint64_t),
    PMIXPP_SCALAR(PMIX_FLOAT, float),
    PMIXPP_SCALAR(PMIX_DOUBLE, double),
    {PMIX_TIMEVAL, "PMIX_TIMEVAL", sizeof(struct timeval), H::kInline, nullptr, nullptr, ops::compare_timeval},
    PMIXPP_SCALAR(PMIX_TIME, time_t),
    PMIXPP_SCALAR(PMIX_STATUS, pmix_status_t),
    PMIXPP_OWNING(PMIX_VALUE, pmix_value_t, H::kNotHeld, value),
    {PMIX_PROC, "PMIX_PROC", sizeof(pmix_proc_t), H::kBoxed, nullptr, nullptr, ops::compare_proc},
    PMIXPP_OWNING(PMIX_APP, pmix_app_t, H::kNotHeld, app),
    PMIXPP_OWNING(PMIX_INFO, pmix_info_t, H::kNotHeld, info),
    PMIXPP_OWNING(PMIX_PDATA, pmix_pdata_t, H::kNotHeld, pdata),
    PMIXPP_NAME_ONLY(PMIX_BUFFER, "PMIX_BUFFER"),  // deprecated
    PMIXPP_OWNING(PMIX_BYTE_OBJECT, pmix_byte_object_t, H::kInline, byte_object),
    PMIXPP_NAME_ONLY(PMIX_KVAL, "PMIX_KVAL"),
    PMIXPP_SCALAR(PMIX_PERSIST, pmix_persistence_t),
    {PMIX_POINTER, "PMIX_POINTER", sizeof(void *), H::kRawPointer, nullptr, nullptr, ops::compare_pointer},
    PMIXPP_SCALAR(PMIX_SCOPE, pmix_scope_t),
    PMIXPP_SCALAR(PMIX_DATA_RANGE, pmix_data_range_t),
    PMIXPP_SCALAR(PMIX_COMMAND, uint8_t),
    PMIXPP_SCALAR(PMIX_INFO_DIRECTIVES, pmix_info_directives_t),
    PMIXPP_SCALAR(PMIX_DATA_TYPE, pmix_data_type_t),
    PMIXPP_SCALAR(PMIX_PROC_STATE, pmix_proc_state_t),
    PMIXPP_OWNING(PMIX_PROC_INFO, pmix_proc_info_t, H::kBoxed, proc_info),
    PMIXPP_OWNING(PMIX_DATA_ARRAY, pmix_data_array_t, H::kBoxed, data_array),
    PMIXPP_SCALAR(PMIX_PROC_RANK, pmix_rank_t),
    PMIXPP_OWNING(PMIX_QUERY, pmix_query_t, H::kNotHeld, query),
    PMIXPP_OWNING(PMIX_COMPRESSED_STRING, pmix_byte_object_t, H::kInline, byte_object),
    PMIXPP_SCALAR(PMIX_ALLOC_DIRECTIVE, pmix_alloc_directive_t),
    PMIXPP_SCALAR(PMIX_IOF_CHANNEL, pmix_iof_channel_t),
    PMIXPP_OWNING(PMIX_ENVAR, pmix_envar_t, H::kInline, envar),
    PMIXPP_OWNING(PMIX_COORD, pmix_coord_t, H::kBoxed, coord),
    PMIXPP_OWNING(PMIX_REGATTR, pmix_regattr_t, H::kBoxed, regattr),
    PMIXPP_OWNING(PMIX_REGEX, pmix_byte_object_t, H::kInline, byte_object),
    PMIXPP_SCALAR(PMIX_JOB_STATE, pmix_job_state_t),
    PMIXPP_SCALAR(PMIX_LINK_STATE, pmix_link_state_t),
    PMIXPP_OWNING(PMIX_PROC_CPUSET, pmix_cpuset_t, H::kBoxed, cpuset),
    PMIXPP_OWNING(PMIX_GEOMETRY, pmix_geometry_t, H::kBoxed, geometry),
    PMIXPP_OWNING(PMIX_DEVICE_DIST, pmix_device_distance_t, H::kBoxed, devdist),
    PMIXPP_OWNING(PMIX_ENDPOINT, pmix_endpoint_t, H::kBoxed, endpoint),
    PMIXPP_OWNING(PMIX_TOPO, pmix_topology_t, H::kBoxed, topology),
    PMIXPP_SCALAR(PMIX_DEVTYPE, pmix_device_type_t),
    PMIXPP_SCALAR(PMIX_LOCTYPE, pmix_locality_t),
    PMIXPP_OWNING(PMIX_COMPRESSED_BYTE_OBJECT, pmix_byte_object_t, H::kInline, byte_object),
    {PMIX_PROC_NSPACE, "PMIX_PROC_NSPACE", sizeof(pmix_nspace_t), H::kBoxed, ops::copy_nspace, nullptr,
     ops::compare_nspace},
    PMIXPP_OWNING(PMIX_PROC_STATS, pmix_proc_stats_t, H::kBoxed, proc_stats),
    PMIXPP_OWNING(PMIX_DISK_STATS, pmix_disk_stats_t, H::kBoxed, disk_stats),
    PMIXPP_OWNING(PMIX_NET_STATS, pmix_net_stats_t, H::kBoxed, net_stats),
    PMIXPP_OWNING(PMIX_NODE_STATS, pmix_node_stats_t, H::kBoxed, node_stats),
    PMIXPP_OWNING(PMIX_DATA_BUFFER, pmix_data_buffer_t, H::kBoxed, data_buffer),
    PMIXPP_SCALAR(PMIX_STOR_MEDIUM, pmix_storage_medium_t),
    PMIXPP_SCALAR(PMIX_STOR_ACCESS, pmix_storage_accessibility_t),
    PMIXPP_SCALAR(PMIX_STOR_PERSIST, pmix_storage_persistence_t),
    PMIXPP_SCALAR(PMIX_STOR_ACCESS_TYPE, pmix_storage_access_type_t),
};

#undef PMIXPP_SCALAR
#undef PMIXPP_OWNING
#undef PMIXPP_NAME_ONLY

constexpr size_t kIndexSize = PMIX_STOR_ACCESS_TYPE + 1;

constexpr std::array<const TypeTraits *, kIndexSize> build_index()
{
    std::array<const TypeTraits *, kIndexSize> index{};
    for (const TypeTraits &traits : kTypes) {
        index[traits.type] = &traits;
    }
    return index;
}

// Built by the compiler: no static constructor runs in the library.
constexpr auto kIndex = build_index();

}  // namespace

const TypeTraits *find_type(pmix_data_type_t type)
{
    return type < kIndexSize ? kIndex[type] : nullptr;
}

}  // namespace pmixpp::values
