// register_nspace: collect -> layout -> derive and store (see registration.h).
#include "server/jobdata/registration.h"

#include "common/store/derived_keys.h"
#include "server/jobdata/collect.h"
#include "server/jobdata/info_batch.h"
#include "server/jobdata/layout.h"
#include "server/jobdata/locality.h"

#include <cstring>
#include <new>

namespace pmixpp::jobdata {
namespace {

std::string join_ranks(const std::vector<pmix_rank_t> &ranks)
{
    std::string text;
    text.reserve(ranks.size() * 6);
    for (pmix_rank_t r : ranks) {
        if (!text.empty()) text += ',';
        text += std::to_string(r);
    }
    return text;
}

// Whether the store can derive every proc's PMIX_APPNUM and PMIX_APP_RANK:
// one application, number 0, holding ranks 0, 1, ... in order.
bool app_keys_derived(const Collected &given, const Layout &layout)
{
    if (given.num_apps && *given.num_apps != 1) return false;
    if (layout.num_apps != 1 || layout.apps.size() != 1 || layout.apps[0].appnum != 0) return false;
    for (pmix_rank_t r = 0; r < layout.known_ranks; ++r) {
        if (layout.app_of_rank[r] != kUnplaced && layout.app_rank_of[r] != r) return false;
    }
    return true;
}

class Registrar {
public:
    Registrar(const char *nspace, const Collected &given, const Layout &layout, const Options &options,
              const store::Store &store)
        : nspace_(nspace), given_(given), layout_(layout), options_(options), store_(store),
          app_keys_derived_(app_keys_derived(given, layout))
    {}

    pmix_status_t run();

private:
    uint32_t session_id() const { return given_.session_id.value_or(0); }
    uint32_t max_procs() const
    {
        if (given_.max_procs) return *given_.max_procs;
        if (given_.univ_size) return *given_.univ_size;
        return layout_.job_size;
    }
    pmix_status_t store_session();
    pmix_status_t store_job();
    pmix_status_t store_apps();
    pmix_status_t store_nodes();
    pmix_status_t store_procs();
    pmix_status_t store_proc(pmix_rank_t rank);
    std::string local_cpusets(const Node &node) const;

    const char *nspace_;
    const Collected &given_;
    const Layout &layout_;
    const Options &options_;
    const store::Store &store_;
    const bool app_keys_derived_;
    InfoBatch batch_;
};

pmix_status_t Registrar::store_session()
{
    batch_.add_u32(PMIX_SESSION_ID, session_id());
    const uint32_t univ = given_.univ_size.value_or(given_.session_max_procs.value_or(max_procs()));
    batch_.add_u32(PMIX_UNIV_SIZE, univ);
    batch_.add_u32(PMIX_MAX_PROCS, given_.session_max_procs.value_or(univ));
    batch_.add_given(given_.session);
    return batch_.put(store_, nspace_, PMIXPP_GDS_LEVEL_SESSION, session_id());
}

pmix_status_t Registrar::store_job()
{
    batch_.add_string(PMIX_NSPACE, nspace_);
    batch_.add_string(PMIX_JOBID, nspace_);
    batch_.add_u32(PMIX_JOB_SIZE, layout_.job_size);
    batch_.add_u32(PMIX_MAX_PROCS, max_procs());
    batch_.add_u32(PMIX_NUM_NODES, static_cast<uint32_t>(layout_.nodes.size()));
    batch_.add_u32(PMIX_JOB_NUM_APPS, layout_.num_apps);
    batch_.add_rank(PMIX_NPROC_OFFSET, given_.nproc_offset.value_or(0));
    if (given_.session_id) batch_.add_u32(PMIX_SESSION_ID, *given_.session_id);
    std::string node_list;
    bool all_named = !layout_.nodes.empty();
    for (const Node &node : layout_.nodes) {
        if (!node.hostname) all_named = false;
        if (!all_named) break;
        if (!node_list.empty()) node_list += ',';
        node_list += *node.hostname;
    }
    if (all_named) batch_.add_string(PMIX_NODE_LIST, node_list);
    batch_.add_given(given_.job);
    // Without a node to hold them, this node's flat keys stay job-wide.
    if (!layout_.local_node) batch_.add_given(given_.local_node);
    return batch_.put(store_, nspace_, PMIXPP_GDS_LEVEL_JOB, 0);
}

pmix_status_t Registrar::store_apps()
{
    for (const App &app : layout_.apps) {
        batch_.add_u32(PMIX_APPNUM, app.appnum);
        batch_.add_u32(PMIX_APP_SIZE, static_cast<uint32_t>(app.ranks.size()));
        if (!app.ranks.empty()) batch_.add_rank(PMIX_APPLDR, app.ranks.front());
        if (app.given != nullptr) batch_.add_given(app.given->infos);
        const pmix_status_t rc = batch_.put(store_, nspace_, PMIXPP_GDS_LEVEL_APP, app.appnum);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

std::string Registrar::local_cpusets(const Node &node) const
{
    std::string sets;
    for (pmix_rank_t r : node.ranks) {
        const GivenProc *proc = given_.procs.find(r);
        if (proc == nullptr || proc->cpuset == nullptr) return {};
        if (!sets.empty()) sets += ':';
        sets += proc->cpuset;
    }
    return sets;
}

pmix_status_t Registrar::store_nodes()
{
    for (std::size_t n = 0; n < layout_.nodes.size(); ++n) {
        const Node &node = layout_.nodes[n];
        const bool local = layout_.local_node == n;
        batch_.add_u32(PMIX_NODEID, node.nodeid);
        if (node.hostname) batch_.add_string(PMIX_HOSTNAME, *node.hostname);
        batch_.add_u32(PMIX_LOCAL_SIZE, static_cast<uint32_t>(node.ranks.size()));
        // Only this job's processes are known here; a host that knows more
        // gives PMIX_NODE_SIZE itself.
        batch_.add_u32(PMIX_NODE_SIZE, static_cast<uint32_t>(node.ranks.size()));
        if (!node.ranks.empty()) {
            batch_.add_string(PMIX_LOCAL_PEERS, join_ranks(node.ranks));
            batch_.add_rank(PMIX_LOCALLDR, node.ranks.front());
        }
        if (local) {
            const std::string cpusets = local_cpusets(node);
            if (!cpusets.empty()) batch_.add_string(PMIX_LOCAL_CPUSETS, cpusets);
            batch_.add_given(given_.local_node);
        }
        if (node.given != nullptr) batch_.add_given(node.given->infos);
        const pmix_status_t rc = batch_.put(store_, nspace_, PMIXPP_GDS_LEVEL_NODE, node.nodeid);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

pmix_status_t Registrar::store_proc(pmix_rank_t rank)
{
    const Node *node = layout_.node_of(rank);
    const GivenProc *given = given_.procs.find(rank);
    if (node == nullptr && given == nullptr) return PMIX_SUCCESS;  // nothing known
    // A key the host gave is not derived: its value wins, and a batch with
    // unique keys is taken whole by the store.
    const GivenProc none;
    const GivenProc &host = given != nullptr ? *given : none;
    // PMIX_RANK, PMIX_GLOBAL_RANK, the node's PMIX_HOSTNAME and, in a job of
    // one application, PMIX_APPNUM and PMIX_APP_RANK are not stored for a
    // proc of the job: the store derives them (common/store/derived_keys.h).
    const bool derivable = rank < layout_.job_size;
    if (!derivable) {
        if (!host.gave(kGivenRank)) batch_.add_rank(PMIX_RANK, rank);
        if (!host.gave(kGivenGlobalRank)) batch_.add_rank(PMIX_GLOBAL_RANK, given_.nproc_offset.value_or(0) + rank);
    }
    const int32_t app = layout_.app_of_rank[rank];
    if (app != kUnplaced && !(derivable && app_keys_derived_)) {
        if (!host.gave(kGivenAppnum)) {
            batch_.add_u32(PMIX_APPNUM, layout_.apps[static_cast<std::size_t>(app)].appnum);
        }
        if (!host.gave(kGivenAppRank)) batch_.add_rank(PMIX_APP_RANK, layout_.app_rank_of[rank]);
    }
    if (node != nullptr) {
        const auto local_rank = static_cast<uint16_t>(layout_.local_rank_of[rank]);
        if (!host.gave(kGivenLocalRank)) batch_.add_u16(PMIX_LOCAL_RANK, local_rank);
        if (!host.gave(kGivenNodeRank)) batch_.add_u16(PMIX_NODE_RANK, local_rank);
        if (!host.gave(kGivenNodeid)) batch_.add_u32(PMIX_NODEID, node->nodeid);
        if (!derivable && node->hostname && !host.gave(kGivenHostname)) {
            batch_.add_borrowed_string(PMIX_HOSTNAME, node->hostname->c_str());
        }
        const bool local = layout_.local_node && &layout_.nodes[*layout_.local_node] == node;
        if (local && host.cpuset != nullptr && !host.gave(kGivenLocality)) {
            const std::string locality =
                locality_string(options_.topology ? options_.topology() : nullptr, host.cpuset);
            if (!locality.empty()) batch_.add_string(PMIX_LOCALITY_STRING, locality);
        }
    }
    batch_.add_given(host, derivable ? PMIX_RANK : nullptr);
    return batch_.put(store_, nspace_, PMIXPP_GDS_LEVEL_PROC, rank);
}

pmix_status_t Registrar::store_procs()
{
    for (pmix_rank_t r = 0; r < layout_.known_ranks; ++r) {
        const pmix_status_t rc = store_proc(r);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

pmix_status_t Registrar::run()
{
    pmix_status_t rc = store_session();
    if (rc == PMIX_SUCCESS) rc = store_job();
    if (rc == PMIX_SUCCESS) rc = store_apps();
    if (rc == PMIX_SUCCESS) rc = store_nodes();
    if (rc == PMIX_SUCCESS) rc = store_procs();
    return rc;
}

void summarize(const Collected &given, const Layout &layout, JobSummary *summary_p)
{
    JobSummary summary;
    summary.job_size = layout.job_size;
    summary.num_nodes = static_cast<uint32_t>(layout.nodes.size());
    summary.num_apps = layout.num_apps;
    summary.nodata = given.nodata;
    if (layout.local_node) {
        const Node &node = layout.nodes[*layout.local_node];
        summary.local_node_known = true;
        summary.local_nodeid = node.nodeid;
        summary.local_hostname = node.hostname.value_or("");
        summary.local_ranks = node.ranks;
    }
    *summary_p = std::move(summary);
}

pmix_status_t register_checked(const char *nspace, const pmix_info_t info[], std::size_t ninfo, const Options &options,
                               const store::Store &store, JobSummary *summary_p, std::string &error)
{
    Collected given;
    pmix_status_t rc = collect(nspace, info, ninfo, &given, &error);
    if (rc != PMIX_SUCCESS) return rc;
    if (given.nodata) {
        // The namespace exists (for collectives) but carries no job data.
        JobSummary summary;
        summary.nodata = true;
        if (summary_p != nullptr) *summary_p = std::move(summary);
        InfoBatch batch;
        batch.add_string(PMIX_NSPACE, nspace);
        rc = batch.put(store, nspace, PMIXPP_GDS_LEVEL_JOB, 0);
        return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
    }
    Layout layout;
    rc = build_layout(given, ServerHost{options.local_hostname, options.local_hostname_given}, &layout, &error);
    if (rc != PMIX_SUCCESS) return rc;
    const bool existed = store.has_nspace(nspace);
    rc = Registrar(nspace, given, layout, options, store).run();
    if (rc != PMIX_SUCCESS) {
        if (!existed) store.remove_nspace(nspace);
        error = "storing the job data failed";
        return rc;
    }
    if (summary_p != nullptr) summarize(given, layout, summary_p);
    return PMIX_OPERATION_SUCCEEDED;
}

}  // namespace

pmix_status_t register_nspace(const char *nspace, int nlocalprocs, const pmix_info_t info[], std::size_t ninfo,
                              const Options &options, const store::Store &store, JobSummary *summary_p,
                              std::string *error_p)
{
    std::string error;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;
    if (nspace == nullptr || nspace[0] == '\0' || strnlen(nspace, PMIX_MAX_NSLEN + 1) > PMIX_MAX_NSLEN) {
        error = "the namespace must be 1 to 255 characters";
    } else if (nlocalprocs < 0) {
        error = "nlocalprocs must not be negative";
    } else {
        try {
            rc = register_checked(nspace, info, ninfo, options, store, summary_p, error);
        } catch (const std::bad_alloc &) {
            store.remove_nspace(nspace);
            rc = PMIX_ERR_NOMEM;
            error = "out of memory";
        }
    }
    if (rc != PMIX_OPERATION_SUCCEEDED && error_p != nullptr) {
        *error_p = "register_nspace " + std::string(nspace != nullptr ? nspace : "(null)") + ": " + error;
    }
    return rc;
}

pmix_status_t deregister_nspace(const char *nspace, const store::Store &store)
{
    return store.remove_nspace(nspace);
}

}  // namespace pmixpp::jobdata
