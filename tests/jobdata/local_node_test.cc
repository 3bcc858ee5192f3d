// Which node of a job is this one: from what the host registered, with
// gethostname() only as the last resort (Slurm names nodes by its
// NodeName, passes no PMIX_HOSTNAME at init, and gives this node's id and
// local peers in the job's flat info).
#include "jobdata_helpers.h"

#include <criterion/criterion.h>

#include <string>
#include <vector>

using namespace jobdata_test;

namespace {

using Ranks = std::vector<pmix_rank_t>;

// What Slurm 22.05's mpi/pmix plugin registers for a step of 6 tasks on
// three nodes, seen from the node with Slurm node id `nodeid`.
Infos slurm_step(uint32_t nodeid, const char *local_peers)
{
    Infos infos;
    infos.str(PMIX_NODE_MAP, "sn0,sn1,sn2").str(PMIX_PROC_MAP, "0,1;2,3;4,5");
    infos.u32(PMIX_JOB_SIZE, 6).u32(PMIX_NODEID, nodeid).str(PMIX_LOCAL_PEERS, local_peers);
    return infos;
}

}  // namespace

Test(local_node, slurm_node_id_names_this_node_whatever_the_hostname)
{
    auto store = hash_store();
    Infos infos = slurm_step(1, "2,3");
    const auto summary = register_ok(*store, "slurm.1", infos, "machine-that-is-not-in-the-map");
    cr_assert(summary.local_node_known);
    cr_expect_eq(summary.local_nodeid, 1u);
    cr_expect_eq(summary.local_hostname, "sn1");
    cr_expect_eq(summary.local_ranks, (Ranks{2, 3}));
    cr_expect_eq(summary.num_nodes, 3u, "no node was added for the machine's own name");
    cr_expect_eq(u32_at(*store, "slurm.1", PMIXPP_GDS_LEVEL_PROC, 3, PMIX_LOCAL_RANK), 1u);
}

Test(local_node, one_node_named_localhost_by_slurm)
{
    auto store = hash_store();
    Infos infos;
    infos.str(PMIX_NODE_MAP, "localhost").str(PMIX_PROC_MAP, "0,1,2,3").u32(PMIX_NODEID, 0);
    infos.str(PMIX_LOCAL_PEERS, "0,1,2,3");
    const auto summary = register_ok(*store, "slurm.2", infos, "debian-box");
    cr_expect_eq(summary.local_ranks, (Ranks{0, 1, 2, 3}));
    cr_expect_eq(summary.local_hostname, "localhost");
    cr_expect_eq(u32_at(*store, "slurm.2", PMIXPP_GDS_LEVEL_NODE, 0, PMIX_LOCAL_SIZE), 4u);
}

Test(local_node, a_flat_node_id_alone_names_this_node)
{
    auto store = hash_store();
    Infos infos;
    infos.str(PMIX_NODE_MAP, "sn0,sn1,sn2").str(PMIX_PROC_MAP, "0,1;2,3;4,5").u32(PMIX_NODEID, 2);
    const auto summary = register_ok(*store, "nodeid", infos, "not-a-node-of-the-map");
    cr_expect_eq(summary.local_hostname, "sn2");
    cr_expect_eq(summary.local_ranks, (Ranks{4, 5}));
}

// Open MPI 4.1's orted: the maps list only nodes with ranks (mpirun's node
// has none here), its flat node id counts every node of its pool, and its
// local peers say which node is this one.
Test(local_node, open_mpi_node_index_does_not_outweigh_local_peers)
{
    auto store = hash_store();
    Infos infos;
    infos.str(PMIX_NODE_MAP, "h1,h2").str(PMIX_PROC_MAP, "0,1;2,3").u32(PMIX_NODEID, 1);
    infos.str(PMIX_LOCAL_PEERS, "0,1");
    const auto summary = register_ok(*store, "ompi", infos, "h1");
    cr_expect_eq(summary.local_hostname, "h1");
    cr_expect_eq(summary.local_ranks, (Ranks{0, 1}));
    Infos no_peers;
    no_peers.str(PMIX_NODE_MAP, "h1,h2").str(PMIX_PROC_MAP, "0,1;2,3").u32(PMIX_NODEID, 1);
    cr_expect_eq(register_ok(*store, "ompi2", no_peers, "h1").local_hostname, "h1", "the hostname before the id");
}

Test(local_node, local_peers_alone_find_the_node)
{
    auto store = hash_store();
    Infos infos;
    infos.str(PMIX_NODE_MAP, "a,b,c").str(PMIX_PROC_MAP, "0,1;2,3;4,5").str(PMIX_LOCAL_PEERS, "4,5");
    const auto summary = register_ok(*store, "peers", infos, "elsewhere");
    cr_expect_eq(summary.local_hostname, "c");
    cr_expect_eq(summary.local_ranks, (Ranks{4, 5}));
}

Test(local_node, local_peers_without_maps_are_this_node)
{
    auto store = hash_store();
    Infos infos;
    infos.u32(PMIX_JOB_SIZE, 4).str(PMIX_LOCAL_PEERS, "1,3");
    const auto summary = register_ok(*store, "nomap", infos, "here");
    cr_assert(summary.local_node_known);
    cr_expect_eq(summary.local_hostname, "here");
    cr_expect_eq(summary.local_ranks, (Ranks{1, 3}));
    cr_expect_eq(u32_at(*store, "nomap", PMIXPP_GDS_LEVEL_PROC, 3, PMIX_LOCAL_RANK), 1u);
}

Test(local_node, local_peer_ranges_are_read)
{
    auto store = hash_store();
    Infos infos;
    infos.u32(PMIX_JOB_SIZE, 8).str(PMIX_LOCAL_PEERS, "0-2,6");
    const auto summary = register_ok(*store, "ranges", infos, "here");
    cr_expect_eq(summary.local_ranks, (Ranks{0, 1, 2, 6}));
}

Test(local_node, the_name_given_at_init_wins)
{
    auto store = hash_store();
    Infos infos = slurm_step(0, "4,5");  // a node id that disagrees with the name and peers
    const auto summary = register_ok(*store, "given", infos, "sn2", /*host_given=*/true);
    cr_expect_eq(summary.local_hostname, "sn2");
    cr_expect_eq(summary.local_ranks, (Ranks{4, 5}));
}

Test(local_node, hostname_matches_by_short_name_when_one_is_qualified)
{
    auto store = hash_store();
    Infos short_map;
    short_map.str(PMIX_NODE_MAP, "n1,n2").str(PMIX_PROC_MAP, "0;1");
    cr_expect_eq(register_ok(*store, "fqdn.1", short_map, "n2.cluster.example").local_hostname, "n2");
    Infos long_map;
    long_map.str(PMIX_NODE_MAP, "n1.cluster.example,n2.cluster.example").str(PMIX_PROC_MAP, "0;1");
    cr_expect_eq(register_ok(*store, "fqdn.2", long_map, "n1").local_hostname, "n1.cluster.example");
}

Test(local_node, two_domains_are_no_match)
{
    auto store = hash_store();
    Infos infos;
    infos.str(PMIX_NODE_MAP, "n1.a,n1.b").str(PMIX_PROC_MAP, "0;1");
    cr_expect_not(register_ok(*store, "ambiguous", infos, "n1").local_node_known, "n1 could be either");
    Infos other;
    other.str(PMIX_NODE_MAP, "n1.a,n2.a").str(PMIX_PROC_MAP, "0;1");
    cr_expect_not(register_ok(*store, "other-domain", other, "n1.b").local_node_known);
}

Test(local_node, exact_hostname_still_works)
{
    auto store = hash_store();
    Infos infos;
    infos.str(PMIX_NODE_MAP, "x,y").str(PMIX_PROC_MAP, "0,1;2");
    const auto summary = register_ok(*store, "exact", infos, "y");
    cr_expect_eq(summary.local_ranks, (Ranks{2}));
}

Test(local_node, bad_local_peers_are_refused_with_the_attribute_named)
{
    auto store = hash_store();
    for (const char *text : {"1,x", "3-1", "5-", "-4"}) {
        Infos infos;
        infos.u32(PMIX_JOB_SIZE, 8).str(PMIX_LOCAL_PEERS, text);
        std::string error;
        cr_expect_eq(register_refused(*store, "bad", infos, "h", &error), PMIX_ERR_BAD_PARAM, "%s", text);
        cr_expect(error.find("PMIX_LOCAL_PEERS") != std::string::npos, "%s: %s", text, error.c_str());
    }
}

Test(local_node, local_peers_against_the_proc_map_are_refused)
{
    auto store = hash_store();
    Infos infos = slurm_step(0, "0,4");
    std::string error;
    cr_expect_eq(register_refused(*store, "clash", infos, "h", &error), PMIX_ERR_BAD_PARAM);
    cr_expect(error.find("PMIX_LOCAL_PEERS names rank 4") != std::string::npos, "%s", error.c_str());
}

Test(local_node, local_peer_outside_the_job_is_refused)
{
    auto store = hash_store();
    Infos infos;
    infos.u32(PMIX_JOB_SIZE, 2).str(PMIX_LOCAL_PEERS, "0,9");
    std::string error;
    cr_expect_eq(register_refused(*store, "outside", infos, "h", &error), PMIX_ERR_BAD_PARAM);
    cr_expect(error.find("rank 9") != std::string::npos, "%s", error.c_str());
}
