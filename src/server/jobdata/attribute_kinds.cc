// Declared types of the attributes registration reads (see attribute_kinds.h).
#include "server/jobdata/attribute_kinds.h"

#include <pmix.h>

#include "server/jobdata/collect.h"

#include <array>
#include <unordered_map>
#include <utility>

namespace pmixpp::jobdata {
namespace {

enum class Kind { u32, rank, u16, text, map, boolean };

constexpr std::array<std::pair<std::string_view, Kind>, 37> kinds{{
    {PMIX_JOB_SIZE, Kind::u32},
    {PMIX_UNIV_SIZE, Kind::u32},
    {PMIX_MAX_PROCS, Kind::u32},
    {PMIX_JOB_NUM_APPS, Kind::u32},
    {PMIX_LOCAL_SIZE, Kind::u32},
    {PMIX_NODE_SIZE, Kind::u32},
    {PMIX_NUM_NODES, Kind::u32},
    {PMIX_APP_SIZE, Kind::u32},
    {PMIX_APPNUM, Kind::u32},
    {PMIX_NODEID, Kind::u32},
    {PMIX_SESSION_ID, Kind::u32},
    {PMIX_REINCARNATION, Kind::u32},
    {PMIX_RANK, Kind::rank},
    {PMIX_GLOBAL_RANK, Kind::rank},
    {PMIX_APP_RANK, Kind::rank},
    {PMIX_NPROC_OFFSET, Kind::rank},
    {PMIX_LOCALLDR, Kind::rank},
    {PMIX_APPLDR, Kind::rank},
    {PMIX_LOCAL_RANK, Kind::u16},
    {PMIX_NODE_RANK, Kind::u16},
    {PMIX_HOSTNAME, Kind::text},
    {PMIX_NSPACE, Kind::text},
    {PMIX_JOBID, Kind::text},
    {PMIX_LOCAL_PEERS, Kind::text},
    {PMIX_LOCALITY_STRING, Kind::text},
    {PMIX_CPUSET, Kind::text},
    {PMIX_TMPDIR, Kind::text},
    {PMIX_NSDIR, Kind::text},
    {PMIX_PROCDIR, Kind::text},
    {PMIX_WDIR, Kind::text},
    {PMIX_APP_ARGV, Kind::text},
    {PMIX_LOCAL_CPUSETS, Kind::text},
    {PMIX_HOSTNAME_ALIASES, Kind::text},
    {PMIX_NODE_LIST, Kind::text},
    {PMIX_NODE_MAP, Kind::map},
    {PMIX_PROC_MAP, Kind::map},
    {PMIX_REGISTER_NODATA, Kind::boolean},
}};

// Every entry of a registration is looked up here (twice): a hash lookup
// instead of a scan of the whole table. Built on first use.
const Kind *kind_of(std::string_view key)
{
    static const std::unordered_map<std::string_view, Kind> by_name(kinds.begin(), kinds.end());
    const auto it = by_name.find(key);
    return it == by_name.end() ? nullptr : &it->second;
}

const char *describe(Kind kind)
{
    switch (kind) {
    case Kind::u32: return "an unsigned 32-bit integer (PMIX_UINT32)";
    case Kind::rank: return "a rank (PMIX_PROC_RANK)";
    case Kind::u16: return "an unsigned 16-bit integer (PMIX_UINT16)";
    case Kind::text: return "a string (PMIX_STRING)";
    case Kind::map: return "a string or regex (PMIX_STRING / PMIX_REGEX)";
    case Kind::boolean: return "a bool (PMIX_BOOL)";
    }
    return "?";
}

bool matches(Kind kind, const pmix_value_t &value)
{
    uint32_t number = 0;
    switch (kind) {
    case Kind::u32:
    case Kind::rank: return as_uint32(value, &number);
    case Kind::u16: return as_uint32(value, &number) && number <= UINT16_MAX;
    case Kind::text: return value.type == PMIX_STRING && value.data.string != nullptr;
    case Kind::map:
        return (value.type == PMIX_STRING && value.data.string != nullptr) ||
               (value.type == PMIX_REGEX && value.data.bo.bytes != nullptr);
    case Kind::boolean: return value.type == PMIX_BOOL;
    }
    return false;
}

}  // namespace

bool type_ok(std::string_view key, const pmix_value_t &value, std::string *problem_p)
{
    const Kind *kind = kind_of(key);
    if (kind == nullptr || matches(*kind, value)) return true;
    *problem_p = std::string(key) + " must be " + describe(*kind) + ", not " + PMIx_Data_type_string(value.type);
    return false;
}

const pmix_value_t *normalized(std::string_view key, const pmix_value_t &value, pmix_value_t *scratch)
{
    const Kind *kind = kind_of(key);
    uint32_t number = 0;
    if (kind == nullptr || !as_uint32(value, &number)) return &value;
    switch (*kind) {
    case Kind::u32:
        if (value.type == PMIX_UINT32) return &value;
        scratch->type = PMIX_UINT32;
        scratch->data.uint32 = number;
        return scratch;
    case Kind::rank:
        if (value.type == PMIX_PROC_RANK) return &value;
        scratch->type = PMIX_PROC_RANK;
        scratch->data.rank = number;
        return scratch;
    case Kind::u16:
        if (value.type == PMIX_UINT16) return &value;
        scratch->type = PMIX_UINT16;
        scratch->data.uint16 = static_cast<uint16_t>(number);
        return scratch;
    default: return &value;
    }
}

}  // namespace pmixpp::jobdata
