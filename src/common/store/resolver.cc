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
std::optional<uint32_t> level_id(const Store &store, const GetRequest &request, const Qualified &q, Level level)
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

// One step of the search order before its id is known: the ids of the
// node, app and session levels cost a store lookup each, so they are only
// resolved when the search gets that far (a job key is found at the job
// level without ever looking up the caller's node).
struct Step {
    Level level;
    std::optional<uint32_t> id;  // fixed id, or resolved through level_id
    bool modex = false;
    bool resolve = false;  // id comes from level_id(level)
};

// At most: qualifier, proc, modex, natural, job, node, app, session.
constexpr std::size_t kMaxSteps = 8;

struct Steps {
    std::array<Step, kMaxSteps> items{};
    std::size_t size = 0;
    void fixed(Level level, uint32_t id, bool modex = false) { items[size++] = Step{level, id, modex, false}; }
    void lazy(Level level) { items[size++] = Step{level, std::nullopt, false, true}; }
};

// The search order of resolver.h, without touching the store.
Steps search_order(const GetRequest &request, const Qualified &q, std::optional<Level> natural)
{
    Steps steps;
    const pmix_rank_t rank = request.target->rank;
    if (q.level) {
        if (q.id) steps.fixed(*q.level, *q.id);
        else steps.lazy(*q.level);
    }
    if (PMIX_RANK_IS_VALID(rank)) {
        steps.fixed(PMIXPP_GDS_LEVEL_PROC, rank);
        steps.fixed(PMIXPP_GDS_LEVEL_PROC, rank, true);
    }
    if (natural && *natural != PMIXPP_GDS_LEVEL_PROC) steps.lazy(*natural);
    steps.fixed(PMIXPP_GDS_LEVEL_JOB, 0);
    if (!PMIX_RANK_IS_VALID(rank) && !natural) {
        // A wildcard get of a key of no fixed level: the caller's node and
        // application hold what the host gave per node / per app.
        steps.lazy(PMIXPP_GDS_LEVEL_NODE);
        steps.lazy(PMIXPP_GDS_LEVEL_APP);
    }
    steps.lazy(PMIXPP_GDS_LEVEL_SESSION);
    return steps;
}

// Walks the search order, resolving each level's id at most once and
// skipping addresses already visited. visit(address) returns true to stop.
template <typename Visit>
void walk(const Store &store, const GetRequest &request, const Qualified &q, const Steps &steps, Visit &&visit)
{
    std::array<std::optional<std::optional<uint32_t>>, PMIXPP_GDS_NUM_LEVELS> ids{};
    std::array<Address, kMaxSteps> seen{};
    std::size_t nseen = 0;
    for (std::size_t i = 0; i < steps.size; ++i) {
        const Step &step = steps.items[i];
        std::optional<uint32_t> id = step.id;
        if (step.resolve) {
            auto &memo = ids[step.level];
            if (!memo) memo = level_id(store, request, q, step.level);
            id = *memo;
        }
        if (!id) continue;
        const Address address{step.level, *id, step.modex};
        bool duplicate = false;
        for (std::size_t k = 0; k < nseen && !duplicate; ++k) {
            duplicate = seen[k].level == address.level && seen[k].id == address.id && seen[k].modex == address.modex;
        }
        if (duplicate) continue;
        seen[nseen++] = address;
        if (visit(address)) return;
    }
}

// Checks the request and reads its qualifiers (a PMIX_HOSTNAME qualifier
// becomes a node id).
pmix_status_t prepare(const Store &store, const GetRequest &request, Qualified *q_p)
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
    *q_p = q;
    return PMIX_SUCCESS;
}

}  // namespace

std::optional<Level> natural_level(std::string_view key)
{
    for (const auto &[name, level] : key_levels) {
        if (name == key) return level;
    }
    return std::nullopt;
}

pmix_status_t plan(const Store &store, const GetRequest &request, std::vector<Address> *plan_p)
{
    Qualified q;
    const pmix_status_t rc = prepare(store, request, &q);
    if (rc != PMIX_SUCCESS) return rc;
    std::vector<Address> plan;
    walk(store, request, q, search_order(request, q, natural_level(request.key)), [&](const Address &a) {
        plan.push_back(a);
        return false;
    });
    *plan_p = std::move(plan);
    return PMIX_SUCCESS;
}

pmix_status_t get(const Store &store, const GetRequest &request, ValuePtr *value_p)
{
    Qualified q;
    pmix_status_t rc = prepare(store, request, &q);
    if (rc != PMIX_SUCCESS) return rc;
    const char *nspace = request.target->nspace;
    pmix_status_t found = PMIX_ERR_NOT_FOUND;
    walk(store, request, q, search_order(request, q, natural_level(request.key)), [&](const Address &a) {
        rc = a.modex ? store.fetch_modex(nspace, a.id, request.modex_visibility, request.key, value_p)
                     : store.fetch(nspace, a.level, a.id, request.key, value_p);
        if (rc == PMIX_ERR_NOT_FOUND) return false;
        found = rc;
        return true;
    });
    return found;
}

}  // namespace pmixpp::store
