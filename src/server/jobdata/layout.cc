// Building the job's layout (see layout.h).
#include "server/jobdata/layout.h"

#include "common/regex/regex.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace pmixpp::jobdata {
namespace {

class Builder {
public:
    Builder(const Collected &given, Layout &layout, std::string &error) : given_(given), layout_(layout), error_(error)
    {}

    pmix_status_t run(ServerHost server_host);

private:
    pmix_status_t fail(pmix_status_t rc, std::string message)
    {
        error_ = std::move(message);
        return rc;
    }
    pmix_status_t add_mapped_nodes(std::vector<std::vector<pmix_rank_t>> *ranks_p);
    pmix_status_t add_given_nodes();
    std::size_t node_named(const std::string &hostname);
    std::size_t node_numbered(uint32_t nodeid);
    uint32_t next_free_nodeid() const;
    pmix_status_t place(pmix_rank_t rank, std::size_t node);
    pmix_status_t place_ranks(const std::vector<std::vector<pmix_rank_t>> &ranks);
    void assign_apps();
    void split_ranks_by_app_size();
    void fill_per_node_and_app();
    std::optional<std::size_t> find_local_node(ServerHost server_host) const;
    std::optional<std::size_t> node_by_short_name(std::string_view hostname) const;
    pmix_status_t settle_local_node(ServerHost server_host);

    const Collected &given_;
    Layout &layout_;
    std::string &error_;
    std::unordered_map<std::string, std::size_t> by_name_;
    std::unordered_map<uint32_t, std::size_t> by_id_;
};

pmix_status_t Builder::add_mapped_nodes(std::vector<std::vector<pmix_rank_t>> *ranks_p)
{
    if (given_.node_map.empty()) {
        if (!given_.proc_map.empty()) return fail(PMIX_ERR_BAD_PARAM, "PMIX_PROC_MAP given without PMIX_NODE_MAP");
        return PMIX_SUCCESS;
    }
    std::vector<std::string> names;
    if (regex::parse_node_map(given_.node_map, &names) != PMIX_SUCCESS) {
        return fail(PMIX_ERR_BAD_PARAM, "PMIX_NODE_MAP (pmix.nmap) does not parse");
    }
    if (!given_.proc_map.empty()) {
        if (regex::parse_proc_map(given_.proc_map, ranks_p) != PMIX_SUCCESS) {
            return fail(PMIX_ERR_BAD_PARAM, "PMIX_PROC_MAP (pmix.pmap) does not parse");
        }
        if (ranks_p->size() != names.size()) {
            return fail(PMIX_ERR_BAD_PARAM, "PMIX_PROC_MAP lists " + std::to_string(ranks_p->size()) +
                                                " nodes but PMIX_NODE_MAP " + std::to_string(names.size()));
        }
    }
    for (std::string &name : names) {
        if (by_name_.count(name) != 0) return fail(PMIX_ERR_BAD_PARAM, "PMIX_NODE_MAP names node " + name + " twice");
        const auto id = static_cast<uint32_t>(layout_.nodes.size());
        by_name_.emplace(name, layout_.nodes.size());
        by_id_.emplace(id, layout_.nodes.size());
        layout_.nodes.push_back(Node{std::move(name), id, {}, nullptr});
    }
    return PMIX_SUCCESS;
}

uint32_t Builder::next_free_nodeid() const
{
    uint32_t next = 0;
    for (const Node &node : layout_.nodes) next = std::max(next, node.nodeid + 1);
    return next;
}

std::size_t Builder::node_named(const std::string &hostname)
{
    const auto it = by_name_.find(hostname);
    if (it != by_name_.end()) return it->second;
    const uint32_t id = next_free_nodeid();
    by_name_.emplace(hostname, layout_.nodes.size());
    by_id_.emplace(id, layout_.nodes.size());
    layout_.nodes.push_back(Node{hostname, id, {}, nullptr});
    return layout_.nodes.size() - 1;
}

std::size_t Builder::node_numbered(uint32_t nodeid)
{
    const auto it = by_id_.find(nodeid);
    if (it != by_id_.end()) return it->second;
    by_id_.emplace(nodeid, layout_.nodes.size());
    layout_.nodes.push_back(Node{std::nullopt, nodeid, {}, nullptr});
    return layout_.nodes.size() - 1;
}

pmix_status_t Builder::add_given_nodes()
{
    for (const GivenNode &given : given_.nodes) {
        std::size_t index = 0;
        if (given.hostname) {
            index = node_named(*given.hostname);
            if (given.nodeid && layout_.nodes[index].nodeid != *given.nodeid) {
                // The host numbers its nodes itself: its id wins over the map order.
                const auto clash = by_id_.find(*given.nodeid);
                if (clash != by_id_.end() && clash->second != index) {
                    return fail(PMIX_ERR_BAD_PARAM, "PMIX_NODEID " + std::to_string(*given.nodeid) +
                                                        " given to two nodes (" + *given.hostname + ")");
                }
                by_id_.erase(layout_.nodes[index].nodeid);
                layout_.nodes[index].nodeid = *given.nodeid;
                by_id_.emplace(*given.nodeid, index);
            }
        } else {
            index = node_numbered(*given.nodeid);
        }
        layout_.nodes[index].given = &given;
    }
    return PMIX_SUCCESS;
}

pmix_status_t Builder::place(pmix_rank_t rank, std::size_t node)
{
    if (rank >= layout_.known_ranks) return PMIX_SUCCESS;
    int32_t &slot = layout_.node_of_rank[rank];
    if (slot != kUnplaced && slot != static_cast<int32_t>(node)) {
        return fail(PMIX_ERR_BAD_PARAM, "PMIX_PROC_MAP places rank " + std::to_string(rank) + " on two nodes");
    }
    slot = static_cast<int32_t>(node);
    return PMIX_SUCCESS;
}

pmix_status_t Builder::place_ranks(const std::vector<std::vector<pmix_rank_t>> &ranks)
{
    // Ranks the job can hold: what the maps and arrays mention, never more
    // than that (a huge PMIX_JOB_SIZE alone must not allocate). One slot per
    // rank up to the highest: a single huge rank (in PMIX_PROC_DATA, or alone
    // in a proc map) must not allocate either, so ranks stop at the bound the
    // proc map has (regex::kMaxRanks).
    uint64_t known = 0;
    for (const auto &list : ranks) {
        for (pmix_rank_t r : list) known = std::max<uint64_t>(known, uint64_t{r} + 1);
    }
    if (!given_.procs.empty()) known = std::max<uint64_t>(known, uint64_t{given_.procs.last_rank()} + 1);
    for (pmix_rank_t r : given_.local_peers) known = std::max<uint64_t>(known, uint64_t{r} + 1);
    if (known > regex::kMaxRanks) {
        return fail(PMIX_ERR_BAD_PARAM, "rank " + std::to_string(known - 1) + " (PMIX_PROC_DATA or PMIX_PROC_MAP) is " +
                                            "beyond the " + std::to_string(regex::kMaxRanks) +
                                            " ranks a registered job may have");
    }
    if (given_.job_size && known > *given_.job_size) {
        return fail(PMIX_ERR_BAD_PARAM, "rank " + std::to_string(known - 1) + " is outside PMIX_JOB_SIZE " +
                                            std::to_string(*given_.job_size));
    }
    layout_.known_ranks = static_cast<uint32_t>(known);
    layout_.node_of_rank.assign(known, kUnplaced);
    for (std::size_t n = 0; n < ranks.size(); ++n) {
        for (pmix_rank_t r : ranks[n]) {
            const pmix_status_t rc = place(r, n);
            if (rc != PMIX_SUCCESS) return rc;
        }
    }
    given_.procs.for_each([this](pmix_rank_t rank, const GivenProc &proc) {
        if (layout_.node_of_rank[rank] != kUnplaced) return;
        if (proc.hostname) layout_.node_of_rank[rank] = static_cast<int32_t>(node_named(proc.hostname));
        else if (proc.nodeid) layout_.node_of_rank[rank] = static_cast<int32_t>(node_numbered(*proc.nodeid));
    });
    uint32_t placed = 0;
    for (int32_t slot : layout_.node_of_rank) placed += slot != kUnplaced ? 1 : 0;
    layout_.job_size = given_.job_size ? *given_.job_size : std::max(placed, layout_.known_ranks);
    return PMIX_SUCCESS;
}

void Builder::assign_apps()
{
    std::map<uint32_t, const GivenApp *> apps;
    for (const auto &[appnum, app] : given_.apps) apps[appnum] = &app;
    given_.procs.for_each([&apps](pmix_rank_t, const GivenProc &proc) {
        if (proc.appnum) apps.emplace(*proc.appnum, nullptr);
    });
    if (apps.empty()) apps.emplace(0, nullptr);
    std::unordered_map<uint32_t, std::size_t> index_of;
    for (const auto &[appnum, app] : apps) {
        index_of[appnum] = layout_.apps.size();
        layout_.apps.push_back(App{appnum, {}, app});
    }
    layout_.num_apps = given_.num_apps ? *given_.num_apps : static_cast<uint32_t>(layout_.apps.size());
    layout_.app_of_rank.assign(layout_.known_ranks, 0);
    bool any_appnum = false;
    given_.procs.for_each([&](pmix_rank_t rank, const GivenProc &proc) {
        if (!proc.appnum) return;
        any_appnum = true;
        layout_.app_of_rank[rank] = static_cast<int32_t>(index_of[*proc.appnum]);
    });
    if (!any_appnum && layout_.apps.size() > 1) split_ranks_by_app_size();
}

// MPMD without per-proc PMIX_APPNUM: applications hold consecutive ranks in
// appnum order, PMIX_APP_SIZE each (how every launcher maps them).
void Builder::split_ranks_by_app_size()
{
    uint64_t first = 0;
    for (std::size_t a = 0; a < layout_.apps.size(); ++a) {
        const GivenApp *app = layout_.apps[a].given;
        uint32_t size = 0;
        bool sized = false;
        for (const pmix_info_t *info : app != nullptr ? app->infos : InfoRefs{}) {
            if (std::string_view(info->key) == PMIX_APP_SIZE) sized = as_uint32(info->value, &size);
        }
        if (!sized) return;  // cannot tell: everything stays in the first app
        for (uint64_t r = first; r < first + size && r < layout_.known_ranks; ++r) {
            layout_.app_of_rank[r] = static_cast<int32_t>(a);
        }
        first += size;
    }
}

void Builder::fill_per_node_and_app()
{
    layout_.local_rank_of.assign(layout_.known_ranks, 0);
    layout_.app_rank_of.assign(layout_.known_ranks, 0);
    for (pmix_rank_t r = 0; r < layout_.known_ranks; ++r) {
        const int32_t node = layout_.node_of_rank[r];
        const bool described = node != kUnplaced || given_.procs.find(r) != nullptr;
        if (!described) {
            layout_.app_of_rank[r] = kUnplaced;
            continue;
        }
        if (node != kUnplaced) {
            auto &ranks = layout_.nodes[static_cast<std::size_t>(node)].ranks;
            layout_.local_rank_of[r] = static_cast<uint32_t>(ranks.size());
            ranks.push_back(r);
        }
        auto &app_ranks = layout_.apps[static_cast<std::size_t>(layout_.app_of_rank[r])].ranks;
        layout_.app_rank_of[r] = static_cast<uint32_t>(app_ranks.size());
        app_ranks.push_back(r);
    }
}

std::string_view short_name(std::string_view hostname)
{
    return hostname.substr(0, hostname.find('.'));
}

std::optional<std::size_t> Builder::node_by_short_name(std::string_view hostname) const
{
    std::optional<std::size_t> match;
    for (std::size_t n = 0; n < layout_.nodes.size(); ++n) {
        const auto &name = layout_.nodes[n].hostname;
        if (!name || short_name(*name) != short_name(hostname)) continue;
        // Only a qualified name of the other counts ("n1" and "n1.x"), not
        // two different domains ("n1.x" and "n1.y").
        if (name->find('.') != std::string::npos && hostname.find('.') != std::string_view::npos) continue;
        if (match) return std::nullopt;  // two candidates: no guess
        match = n;
    }
    return match;
}

std::optional<std::size_t> Builder::find_local_node(ServerHost server_host) const
{
    const auto named = [this](std::string_view name) -> std::optional<std::size_t> {
        const auto it = by_name_.find(std::string(name));
        return it == by_name_.end() ? std::nullopt : std::optional(it->second);
    };
    if (server_host.given && !server_host.hostname.empty()) {
        if (auto node = named(server_host.hostname)) return node;
    }
    for (pmix_rank_t peer : given_.local_peers) {
        if (peer < layout_.known_ranks && layout_.node_of_rank[peer] != kUnplaced) {
            return static_cast<std::size_t>(layout_.node_of_rank[peer]);
        }
    }
    if (given_.this_hostname != nullptr) {
        if (auto node = named(given_.this_hostname)) return node;
    }
    if (auto node = named(server_host.hostname)) return node;
    // A host's own node numbering need not be the maps' (Open MPI numbers
    // every node of its pool, mpirun's too, while the maps list only nodes
    // with ranks): the id counts only where the name did not.
    if (given_.this_nodeid) {
        const auto it = by_id_.find(*given_.this_nodeid);
        if (it != by_id_.end()) return it->second;
    }
    if (server_host.hostname.empty()) return std::nullopt;
    return node_by_short_name(server_host.hostname);
}

pmix_status_t Builder::settle_local_node(ServerHost server_host)
{
    layout_.local_node = find_local_node(server_host);
    const bool described = !given_.local_node.empty() || !given_.local_peers.empty() || given_.this_nodeid;
    if (!layout_.local_node && described) {
        // This node is none of the maps' (or there are no maps).
        const std::string name =
            given_.this_hostname != nullptr ? given_.this_hostname : std::string(server_host.hostname);
        if (given_.this_nodeid && by_id_.count(*given_.this_nodeid) == 0 && by_name_.count(name) == 0) {
            by_name_.emplace(name, layout_.nodes.size());
            by_id_.emplace(*given_.this_nodeid, layout_.nodes.size());
            layout_.nodes.push_back(Node{name, *given_.this_nodeid, {}, nullptr});
            layout_.local_node = layout_.nodes.size() - 1;
        } else if (!name.empty()) {
            layout_.local_node = node_named(name);
        }
    }
    if (!layout_.local_node) return PMIX_SUCCESS;
    for (pmix_rank_t peer : given_.local_peers) {
        const pmix_status_t rc = place(peer, *layout_.local_node);
        if (rc != PMIX_SUCCESS) {
            return fail(PMIX_ERR_BAD_PARAM, "PMIX_LOCAL_PEERS names rank " + std::to_string(peer) +
                                                ", which PMIX_PROC_MAP places on another node than this one");
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t Builder::run(ServerHost server_host)
{
    std::vector<std::vector<pmix_rank_t>> ranks;
    pmix_status_t rc = add_mapped_nodes(&ranks);
    if (rc == PMIX_SUCCESS) rc = add_given_nodes();
    if (rc == PMIX_SUCCESS) rc = place_ranks(ranks);
    if (rc == PMIX_SUCCESS) rc = settle_local_node(server_host);
    if (rc != PMIX_SUCCESS) return rc;
    assign_apps();
    fill_per_node_and_app();
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t build_layout(const Collected &given, ServerHost server_host, Layout *layout_p, std::string *error_p)
{
    Layout layout;
    Builder builder(given, layout, *error_p);
    const pmix_status_t rc = builder.run(server_host);
    if (rc == PMIX_SUCCESS) *layout_p = std::move(layout);
    return rc;
}

}  // namespace pmixpp::jobdata
