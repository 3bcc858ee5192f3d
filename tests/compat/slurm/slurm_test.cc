// Debian's Slurm 22.05 as the PMIx host: every case runs
// `srun --mpi=pmix_v4` on the nodes where OpenPMIx serves Slurm's plugin
// (the baseline, which must pass) and then on the nodes where our
// libpmix.so.2 is bind-mounted over OpenPMIx's file, with the same checks,
// and the error lines srun shows are compared. The cluster is started by the
// compat_slurm_up fixture (cluster.sh up) and stopped by compat_slurm_down.
#include "slurm_case.h"

#include <criterion/criterion.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

using slurm_test::Case;
using slurm_test::Library;
using slurm_test::Run;

std::string program(const char *name)
{
    return std::string(SLURM_PROGRAMS_DIR) + "/" + name;
}

// Open MPI on 2 cores among namespaces: ranks yield while they wait, and TCP
// stays on the cluster's bridge.
const std::vector<std::string> kMpiEnv = {"OMPI_MCA_mpi_yield_when_idle=1", "OMPI_MCA_btl=self,vader,tcp",
                                          "OMPI_MCA_btl_tcp_if_include=10.252.0.0/24"};

Case mpi_case(const std::string &name, const char *binary, const std::string &partition, int ntasks, int nodes = 0)
{
    Case spec;
    spec.name = name;
    spec.partition = partition;
    spec.ntasks = ntasks;
    spec.nodes = nodes;
    spec.command = {program(binary)};
    spec.env = kMpiEnv;
    return spec;
}

Case client_case(const std::string &name, const std::string &partition, int ntasks, int nodes = 0,
                 std::vector<std::string> args = {})
{
    Case spec;
    spec.name = name;
    spec.partition = partition;
    spec.ntasks = ntasks;
    spec.nodes = nodes;
    spec.command = {program("pmix_client")};
    spec.command.insert(spec.command.end(), args.begin(), args.end());
    return spec;
}

// The case on OpenPMIx, then on ours, each checked by `check`; then the
// error lines srun showed are compared.
template <typename Check> Run checked_run(Library library, const Case &spec, Check check)
{
    Run run = slurm_test::run_case(library, spec);
    check(run);
    // Open MPI 4.1's own start-up race (slurm_test::open_mpi_init_race) is
    // not the PMIx library's doing: such a run is run again, twice at most,
    // and says so.
    for (int retry = 1; retry <= 2 && slurm_test::open_mpi_init_race(run); ++retry) {
        std::fprintf(stderr,
                     "[slurm] %-13s on %-8s: a rank hit Open MPI 4.1's btl/tcp start-up race (SIGSEGV at address "
                     "0, seen on both libraries), running it again (%d of 2)\n",
                     spec.name.c_str(), slurm_test::label(library), retry);
        run = slurm_test::run_case(library, spec);
        check(run);
    }
    slurm_test::conclude(run);
    return run;
}

template <typename Check> void on_both(const Case &spec, Check check)
{
    const Run baseline = checked_run(Library::openpmix, spec, check);
    const Run ours = checked_run(Library::ours, spec, check);
    slurm_test::compare_error_lines(baseline, ours);
}

void check_hello(Run &run)
{
    const int n = run.spec.ntasks;
    slurm_test::expect_exit(run, 0);
    slurm_test::expect_proofs(run, "rank", n);
    for (int rank = 0; rank < n; ++rank) {
        slurm_test::expect_line(run, "rank " + std::to_string(rank) + " of " + std::to_string(n) + ": allreduce sum " +
                                         std::to_string(n * (n + 1) / 2));
    }
}

void check_ring(Run &run)
{
    const int n = run.spec.ntasks;
    slurm_test::expect_exit(run, 0);
    slurm_test::expect_proofs(run, "rank", n);
    for (int rank = 0; rank < n; ++rank) {
        const int prev = (rank + n - 1) % n;
        slurm_test::expect_line(run, "rank " + std::to_string(rank) + " got " + std::to_string(prev) + " from " +
                                         std::to_string(prev));
    }
    slurm_test::expect_line(run, "1000 barriers done");
}

// The C client checked every peer's 64 bytes itself; here: it said so, once
// per rank, and ran where it should on the library it should.
void check_client(Run &run)
{
    const int n = run.spec.ntasks;
    slurm_test::expect_exit(run, 0);
    slurm_test::expect_proofs(run, "client", n);
    for (int rank = 0; rank < n; ++rank) {
        slurm_test::expect_line(run, "client " + std::to_string(rank) + ": all checks passed");
    }
    run.expect(test_support::count_lines_with(run.result.out, "FAILED") == 0, "the client reported failed checks");
    // A job of Slurm's, not a singleton each rank made for itself.
    const std::string nspace = "slurm.pmix." + run.job + ".0";
    for (const std::string &line : test_support::lines_with(run.result.out, ": nspace ")) {
        run.expect(line.find(": nspace " + nspace + " ") != std::string::npos,
                   "not in Slurm's namespace " + nspace + ": " + line);
    }
}

// Across nodes: each rank matched the 64 bytes of every rank on the other
// nodes (hosts from the proofs, so a wrong PMIX_HOSTNAME cannot hide one).
void check_remote_reads(Run &run)
{
    std::map<int, std::string> host;
    for (const slurm_test::Proof &p : run.proofs) host[p.rank] = p.host;
    const int n = run.spec.ntasks;
    const int remote_peers = n - n / run.spec.nodes;
    for (int rank = 0; rank < n; ++rank) {
        int matched = 0;
        for (int peer = 0; peer < n; ++peer) {
            if (host.count(rank) == 0 || host.count(peer) == 0 || host[rank] == host[peer]) continue;
            const std::string line =
                "client " + std::to_string(rank) + ": 64 bytes from rank " + std::to_string(peer) + " on ";
            if (test_support::count_lines_with(run.result.out, line) == 1) ++matched;
        }
        run.expect(matched == remote_peers, "client " + std::to_string(rank) + " matched the bytes of " +
                                                std::to_string(matched) + " ranks on other nodes, expected " +
                                                std::to_string(remote_peers));
    }
}

}  // namespace

TestSuite(slurm, .timeout = 300);

Test(slurm, mpi_hello_allreduce_n1)
{
    on_both(mpi_case("hello1", "hello_allreduce", "one", 1), check_hello);
}
Test(slurm, mpi_hello_allreduce_n2)
{
    on_both(mpi_case("hello2", "hello_allreduce", "one", 2), check_hello);
}
Test(slurm, mpi_hello_allreduce_n4)
{
    on_both(mpi_case("hello4", "hello_allreduce", "one", 4), check_hello);
}
Test(slurm, mpi_ring_barrier_n2)
{
    on_both(mpi_case("ring2", "ring_barrier", "one", 2), check_ring);
}
Test(slurm, mpi_ring_barrier_n4)
{
    on_both(mpi_case("ring4", "ring_barrier", "one", 4), check_ring);
}

// Job size, local size and rank, put, commit, collecting fence, every
// peer's value byte for byte.
Test(slurm, c_client_n1)
{
    on_both(client_case("client1", "one", 1), check_client);
}
Test(slurm, c_client_n4)
{
    on_both(client_case("client4", "one", 4), check_client);
}

// Debian's python3-pmix (../python/client.py) as the task.
Test(slurm, python_client_n2)
{
    Case spec;
    spec.name = "python2";
    spec.partition = "one";
    spec.ntasks = 2;
    spec.command = {"/usr/bin/python3", "-B", std::string(SLURM_SCRIPT_DIR) + "/py_client.py"};
    on_both(spec, [](Run &run) {
        slurm_test::expect_exit(run, 0);
        slurm_test::expect_proofs(run, "python", 2);
        for (int rank = 0; rank < 2; ++rank)
            slurm_test::expect_line(run, "rank " + std::to_string(rank) + " all checks passed");
    });
}

// Rank 1 calls MPI_Abort(MPI_COMM_WORLD, 42) (../mpi/abort_rank.c): srun
// exits with that code and nothing of the job is left running.
Test(slurm, mpi_abort_n4)
{
    on_both(mpi_case("abort4", "abort_rank", "one", 4), [](Run &run) {
        slurm_test::expect_exit(run, 42);
        slurm_test::expect_proofs(run, "rank", 4);
        slurm_test::expect_nothing_left(run);
    });
}

// Rank 1 dies of SIGSEGV (../mpi/segv_rank.c): srun exits 128+11.
Test(slurm, mpi_segv_n4)
{
    on_both(mpi_case("segv4", "segv_rank", "one", 4), [](Run &run) {
        slurm_test::expect_exit(run, 139);
        slurm_test::expect_proofs(run, "rank", 4);
        slurm_test::expect_nothing_left(run);
    });
}

// A node whose Slurm NodeName (ompi-c / ours-c, what the plugin puts in its
// node map and PMIX_HOSTNAME) is not its gethostname() (host17-...).
Test(slurm, node_name_differs_from_hostname)
{
    on_both(client_case("alias2", "alias", 2), check_client);
    on_both(mpi_case("alias-hello2", "hello_allreduce", "alias", 2), check_hello);
}

// Three nodes, two ranks on each (node c's NodeName is not its hostname):
// the collecting fence goes through the plugin's fence_nb, across nodes.
Test(slurm, three_nodes_c_client_fence)
{
    on_both(client_case("client6", "three", 6, 3), [](Run &run) {
        check_client(run);
        check_remote_reads(run);
        slurm_test::expect_slurm_upcall(run, "_fencenb_fn", 3);
    });
}

// The same without data collection: every get of a rank on another node is
// a direct modex through the plugin's dmodex upcall.
Test(slurm, three_nodes_c_client_direct_modex)
{
    on_both(client_case("dmodex6", "three", 6, 3, {"--no-collect"}), [](Run &run) {
        check_client(run);
        check_remote_reads(run);
        slurm_test::expect_slurm_upcall(run, "_dmodex_fn", 3);
    });
}

Test(slurm, three_nodes_mpi_hello_allreduce)
{
    on_both(mpi_case("hello6", "hello_allreduce", "three", 6, 3), [](Run &run) {
        check_hello(run);
        slurm_test::expect_slurm_upcall(run, "_fencenb_fn", 3);
    });
}

Test(slurm, three_nodes_mpi_ring_barrier)
{
    on_both(mpi_case("ring6", "ring_barrier", "three", 6, 3), check_ring);
}

// A site's jobs are a user's, while slurmstepd (our server) is root: the
// server's socket, shared segments and session directories must be the
// user's to use (Slurm passes PMIX_USERID), with nothing printed about it.
// One node only: across nodes the plugin's own stepd-to-stepd connections
// of a user's step now and then fail munge verification under load
// ("Unauthorized credential for client UID=65534", a Slurm race, seen once
// on ours in ten full runs), which says nothing about the PMIx library.
Test(slurm, unprivileged_user_c_client)
{
    Case spec = client_case("user4", "one", 4);
    spec.user = "nobody";
    on_both(spec, check_client);
}

Test(slurm, unprivileged_user_mpi_hello_allreduce)
{
    Case spec = mpi_case("user-hello4", "hello_allreduce", "one", 4);
    spec.user = "nobody";
    on_both(spec, check_hello);
}

// Tasks on a container's libpmix: slurmstepd serves with the node's library
// (ours on ours-*), the tasks load a copy of Debian's OpenPMIx from another
// path (the cluster's share/container/lib, through container_task.sh), as an
// image with its own /usr/lib would. They reach our server over its tcp
// listener, in OpenPMIx's wire protocol (docs/compat.md, "Any libpmix on the
// node"). The baseline is the same tasks under slurmstepd on OpenPMIx.
Case container_tasks(Case spec, const char *ranks = "all")
{
    spec.container_ranks = ranks;
    return spec;
}

Test(slurm, openpmix_tasks_c_client_n2)
{
    on_both(container_tasks(client_case("ctr-client2", "one", 2)), check_client);
}

Test(slurm, openpmix_tasks_three_nodes_c_client_fence)
{
    on_both(container_tasks(client_case("ctr-client6", "three", 6, 3)), [](Run &run) {
        check_client(run);
        check_remote_reads(run);
        slurm_test::expect_slurm_upcall(run, "_fencenb_fn", 3);
    });
}

// Open MPI's mca_pmix_ext3x.so needs libpmix.so.2 (RUNPATH of Open MPI's own
// directory, then the usual search): LD_LIBRARY_PATH puts the container's first.
Test(slurm, openpmix_tasks_mpi_hello_allreduce_n2)
{
    on_both(container_tasks(mpi_case("ctr-hello2", "hello_allreduce", "one", 2)), check_hello);
}

// One step, two libraries: odd ranks on the container's OpenPMIx, even ranks
// on the node's library (ours on ours-a); they fence together and read each
// other's 64 bytes.
Test(slurm, mixed_tasks_c_client_n4)
{
    on_both(container_tasks(client_case("mixed4", "one", 4), "odd"), check_client);
}

// Open MPI with both libraries in one job: odd ranks' ext3x on the
// container's OpenPMIx, even ranks' on the node's.
Test(slurm, mixed_tasks_mpi_hello_allreduce_n4)
{
    on_both(container_tasks(mpi_case("mixed-hello4", "hello_allreduce", "one", 4), "odd"), check_hello);
}

// ---- our tasks under slurmstepd on OpenPMIx: the other way round. The
// OpenPMIx nodes only: slurmstepd's server is OpenPMIx 4.2.2, the tasks
// load our build's library and speak its protocol (src/client/openpmix/).
namespace {

template <typename Check> void on_openpmix_with_our_tasks(Case spec, Check check)
{
    spec.tasks_on_ours = true;
    spec.name += "-o";
    checked_run(Library::openpmix, spec, check);
}

}  // namespace

Test(slurm, our_tasks_under_openpmix_c_client_n2)
{
    on_openpmix_with_our_tasks(client_case("ours-client2", "one", 2), check_client);
}

Test(slurm, our_tasks_under_openpmix_three_nodes_c_client_fence)
{
    on_openpmix_with_our_tasks(client_case("ours-client6", "three", 6, 3), [](Run &run) {
        check_client(run);
        check_remote_reads(run);
        slurm_test::expect_slurm_upcall(run, "_fencenb_fn", 3);
    });
}

// Every remote read is a get the OpenPMIx server forwards to the plugin's
// direct modex.
Test(slurm, our_tasks_under_openpmix_three_nodes_c_client_direct_modex)
{
    on_openpmix_with_our_tasks(client_case("ours-dmodex6", "three", 6, 3, {"--no-collect"}), [](Run &run) {
        check_client(run);
        check_remote_reads(run);
        slurm_test::expect_slurm_upcall(run, "_dmodex_fn", 3);
    });
}

Test(slurm, our_tasks_under_openpmix_mpi_hello_allreduce_n2)
{
    on_openpmix_with_our_tasks(mpi_case("ours-hello2", "hello_allreduce", "one", 2), check_hello);
}
