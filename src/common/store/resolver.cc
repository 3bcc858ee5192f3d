// PMIx_Get's choice of level (see resolver.h for the rules).
#include "common/store/resolver.h"

#include <array>
#include <cstring>
#include <string_view>
#include <utility>

namespace pmixpp::store {
namespace {

using namespace std::string_view_literals;

constexpr std::array<std::pair<std::string_view, Level>, 22> key_levels{{
    {PMIX_LOCAL_PEERS, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_LOCAL_SIZE, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_NODE_SIZE, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_LOCALLDR, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_LOCAL_CPUSETS, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_LOCAL_PROCS, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_AVAIL_PHYS_MEMORY, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_HOSTNAME_ALIASES, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_NODE_OVERSUBSCRIBED, PMIXPP_GDS_LEVEL_NODE},
    {PMIX_APP_SIZE, PMIXPP_GDS_LEVEL_APP},
    {PMIX_APPLDR, PMIXPP_GDS_LEVEL_APP},
    {PMIX_APP_ARGV, PMIXPP_GDS_LEVEL_APP},
    {PMIX_WDIR, PMIXPP_GDS_LEVEL_APP},
    {PMIX_APP_MAP_TYPE, PMIXPP_GDS_LEVEL_APP},
    {PMIX_APP_MAP_REGEX, PMIXPP_GDS_LEVEL_APP},
    {PMIX_UNIV_SIZE, PMIXPP_GDS_LEVEL_SESSION},
    {PMIX_CLUSTER_ID, PMIXPP_GDS_LEVEL_SESSION},
    {PMIX_ALLOCATED_NODELIST, PMIXPP_GDS_LEVEL_SESSION},
    {PMIX_LOCAL_RANK, PMIXPP_GDS_LEVEL_PROC},
    {PMIX_NODE_RANK, PMIXPP_GDS_LEVEL_PROC},
    {PMIX_LOCALITY_STRING, PMIXPP_GDS_LEVEL_PROC},
    {PMIX_PROCDIR, PMIXPP_GDS_LEVEL_PROC},
}};

// What the qualifiers ask for.
struct Qualified {
    std::optional<Level> level;
    std::optional<uint32_t> id;
    const char *hostname = nullptr;
};

pmix_status_t uint32_qualifier(const pmix_info_t &q, std::optional<uint32_t> *id_p)
{
    if (q.value.type != PMIX_UINT32) return PMIX_ERR_BAD_PARAM;
    *id_p = q.value.data.uint32;
    return PMIX_SUCCESS;
}

pmix_status_t read_qualifiers(const GetRequest &request, Qualified *out_p)
{
    if (request.nqualifiers > 0 && request.qualifiers == nullptr) return PMIX_ERR_BAD_PARAM;
    Qualified out;
    pmix_status_t rc = PMIX_SUCCESS;
    for (std::size_t i = 0; i < request.nqualifiers && rc == PMIX_SUCCESS; ++i) {
        const pmix_info_t &q = request.qualifiers[i];
        const std::string_view key(q.key, strnlen(q.key, sizeof q.key));
        if (key == PMIX_SESSION_INFO) {
            out.level = PMIXPP_GDS_LEVEL_SESSION;
        } else if (key == PMIX_SESSION_ID) {
            out.level = PMIXPP_GDS_LEVEL_SESSION;
            rc = uint32_qualifier(q, &out.id);
        } else if (key == PMIX_APP_INFO) {
            out.level = PMIXPP_GDS_LEVEL_APP;
        } else if (key == PMIX_APPNUM) {
            out.level = PMIXPP_GDS_LEVEL_APP;
            rc = uint32_qualifier(q, &out.id);
        } else if (key == PMIX_NODE_INFO) {
            out.level = PMIXPP_GDS_LEVEL_NODE;
        } else if (key == PMIX_NODEID) {
            out.level = PMIXPP_GDS_LEVEL_NODE;
            rc = uint32_qualifier(q, &out.id);
        } else if (key == PMIX_HOSTNAME) {
            out.level = PMIXPP_GDS_LEVEL_NODE;
            if (q.value.type != PMIX_STRING || q.value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
            out.hostname = q.value.data.string;
        }
    }
    if (rc == PMIX_SUCCESS) *out_p = out;
    return rc;
}

// A uint32 the store holds for a proc (its node id, its app number).
std::optional<uint32_t> proc_uint32(const Store &store, const pmix_proc_t *proc, const char *key)
{
    if (proc == nullptr || !PMIX_RANK_IS_VALID(proc->rank)) return std::nullopt;
    ValuePtr value;
    if (store.fetch(proc->nspace, PMIXPP_GDS_LEVEL_PROC, proc->rank, key, &value) != PMIX_SUCCESS) {
        return std::nullopt;
    }
    if (value->type != PMIX_UINT32) return std::nullopt;
    return value->data.uint32;
}

uint32_t session_of(const Store &store, const char *nspace)
{
    ValuePtr value;
    if (store.fetch(nspace, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_SESSION_ID, &value) == PMIX_SUCCESS &&
        value->type == PMIX_UINT32) {
        return value->data.uint32;
    }
    return 0;
}

// The id of `level` for this request: the qualifier's, else that of the
// target proc (a real rank) or of the asking proc (a wildcard).
std::optional<uint32_t> level_id(const Store &store, const GetRequest &request, const Qualified &q,
                                 Level level)
{
    if (q.level == level && q.id) return q.id;
    const pmix_proc_t *owner = PMIX_RANK_IS_VALID(request.target->rank) ? request.target : request.self;
    switch (level) {
    case PMIXPP_GDS_LEVEL_NODE: return proc_uint32(store, owner, PMIX_NODEID);
    case PMIXPP_GDS_LEVEL_APP: {
        const auto appnum = proc_uint32(store, owner, PMIX_APPNUM);
        // A job without PMIX_APPNUM has one application, number 0.
        return appnum ? appnum : std::optional<uint32_t>(0);
    }
    case PMIXPP_GDS_LEVEL_SESSION: return session_of(store, request.target->nspace);
    default: return 0;
    }
}

void add(std::vector<Address> &plan, Level level, std::optional<uint32_t> id, bool modex = false)
{
    if (!id) return;
    for (const Address &a : plan) {
        if (a.level == level && a.id == *id && a.modex == modex) return;
    }
    plan.push_back(Address{level, *id, modex});
}

} // namespace

std::optional<Level> natural_level(std::string_view key)
{
    for (const auto &[name, level] : key_levels) {
        if (name == key) return level;
    }
    return std::nullopt;
}

pmix_status_t plan(const Store &store, const GetRequest &request, std::vector<Address> *plan_p)
{
    if (request.target == nullptr || request.key == nullptr || request.key[0] == '\0') return PMIX_ERR_BAD_PARAM;
    Qualified q;
    pmix_status_t rc = read_qualifiers(request, &q);
    if (rc != PMIX_SUCCESS) return rc;
    if (q.hostname != nullptr) {
        uint32_t nodeid = 0;
        rc = store.lookup_node(request.target->nspace, q.hostname, &nodeid);
        if (rc != PMIX_SUCCESS) return rc;
        q.id = nodeid;
    }
    const auto id_of = [&](Level level) { return level_id(store, request, q, level); };
    std::vector<Address> plan;
    const pmix_rank_t rank = request.target->rank;
    if (q.level) add(plan, *q.level, id_of(*q.level));
    if (PMIX_RANK_IS_VALID(rank)) {
        add(plan, PMIXPP_GDS_LEVEL_PROC, rank);
        add(plan, PMIXPP_GDS_LEVEL_PROC, rank, true);
    }
    const std::optional<Level> natural = natural_level(request.key);
    if (natural && *natural != PMIXPP_GDS_LEVEL_PROC) add(plan, *natural, id_of(*natural));
    add(plan, PMIXPP_GDS_LEVEL_JOB, 0);
    if (!PMIX_RANK_IS_VALID(rank) && !natural) {
        // A wildcard get of a key of no fixed level: the caller's node and
        // application hold what the host gave per node / per app.
        add(plan, PMIXPP_GDS_LEVEL_NODE, id_of(PMIXPP_GDS_LEVEL_NODE));
        add(plan, PMIXPP_GDS_LEVEL_APP, id_of(PMIXPP_GDS_LEVEL_APP));
    }
    add(plan, PMIXPP_GDS_LEVEL_SESSION, id_of(PMIXPP_GDS_LEVEL_SESSION));
    *plan_p = std::move(plan);
    return PMIX_SUCCESS;
}

pmix_status_t get(const Store &store, const GetRequest &request, ValuePtr *value_p)
{
    std::vector<Address> addresses;
    pmix_status_t rc = plan(store, request, &addresses);
    if (rc != PMIX_SUCCESS) return rc;
    const char *nspace = request.target->nspace;
    for (const Address &a : addresses) {
        rc = a.modex ? store.fetch_modex(nspace, a.id, request.modex_visibility, request.key, value_p)
                     : store.fetch(nspace, a.level, a.id, request.key, value_p);
        if (rc != PMIX_ERR_NOT_FOUND) return rc;
    }
    return PMIX_ERR_NOT_FOUND;
}

} // namespace pmixpp::store
