// Second pass of registration: where every process of the job runs and to
// which application it belongs, from the node and proc maps and from what the
// node and proc arrays say. Built in time linear in the number of ranks.
#ifndef PMIXPP_SERVER_JOBDATA_LAYOUT_H
#define PMIXPP_SERVER_JOBDATA_LAYOUT_H

#include "server/jobdata/collect.h"

#include <pmix_common.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pmixpp::jobdata {

inline constexpr int32_t kUnplaced = -1;

struct Node {
    std::optional<std::string> hostname;
    uint32_t nodeid = 0;
    std::vector<pmix_rank_t> ranks;  // ascending
    const GivenNode *given = nullptr;
};

struct App {
    uint32_t appnum = 0;
    std::vector<pmix_rank_t> ranks;  // ascending
    const GivenApp *given = nullptr;
};

struct Layout {
    std::vector<Node> nodes;
    std::optional<std::size_t> local_node;  // index into nodes
    std::vector<App> apps;                  // ordered by appnum
    uint32_t known_ranks = 0;               // ranks 0..known_ranks-1 may be described
    std::vector<int32_t> node_of_rank;      // index into nodes, or kUnplaced
    std::vector<uint32_t> local_rank_of;    // position among its node's ranks
    std::vector<int32_t> app_of_rank;       // index into apps, or kUnplaced
    std::vector<uint32_t> app_rank_of;      // position among its app's ranks
    uint32_t job_size = 0;
    uint32_t num_apps = 1;

    const Node *node_of(pmix_rank_t rank) const
    {
        return node_of_rank[rank] == kUnplaced ? nullptr : &nodes[static_cast<std::size_t>(node_of_rank[rank])];
    }
};

// What the server knows of its own node's name.
struct ServerHost {
    std::string_view hostname;  // PMIx_server_init's PMIX_HOSTNAME, else gethostname()
    bool given = false;         // the host named it at init
};

// Which node of the job is this one follows from what the host registered,
// in this order (hosts name nodes their own way: Slurm by NodeName, which
// need not be gethostname(), and passes no PMIX_HOSTNAME at init):
//   1. the name the host gave PMIx_server_init (PMIX_HOSTNAME);
//   2. the node that holds the ranks of PMIX_LOCAL_PEERS (Slurm and Open
//      MPI both give them);
//   3. the job's flat PMIX_HOSTNAME, then gethostname();
//   4. the job's flat PMIX_NODEID (Slurm's is the maps' index; Open MPI's
//      counts nodes without ranks too, so it comes after the names);
//   5. gethostname() by its short name, when one of the two is a fully
//      qualified name of the other (one match only).
// When none matches a node of the maps but the host described this node
// (flat node keys, local peers, a flat node id), a node of its own is
// added. Local peers that the maps did not place are placed on it.
// PMIX_SUCCESS or an error with *error_p naming the inconsistent attribute.
pmix_status_t build_layout(const Collected &given, ServerHost server_host, Layout *layout_p, std::string *error_p);

}  // namespace pmixpp::jobdata

#endif
