// One case of the Slurm harness on one library: srun on the private cluster
// of cluster.sh (started by the compat_slurm_up fixture), what it printed,
// the slurmd log lines it caused, and what the checks found. A case runs on
// OpenPMIx first (the baseline: a failure there is the environment's, and
// stops the test) and then on ours (a failure there is a finding, and the
// test goes on to compare the two).
#ifndef PMIXPP_TESTS_COMPAT_SLURM_SLURM_CASE_H
#define PMIXPP_TESTS_COMPAT_SLURM_SLURM_CASE_H

#include "support/child_process.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace slurm_test {

enum class Library { openpmix, ours };

// "OpenPMIx" or "ours", for messages; "ompi" or "ours", the node and
// partition prefix of cluster.sh.
const char *label(Library library);
const char *node_prefix(Library library);

// The cluster recorded in $PMIXPP_SLURM_STATE by cluster.sh up.
struct Cluster {
    std::string state;
    std::string dir;             // its private directory: config, logs, spool
    std::string ours;            // our libpmix.so.2 bound over OpenPMIx's file on ours-*
    std::string ours_file;       // "major:minor:inode" of ours
    std::string openpmix_file;   // and of OpenPMIx's real file
    std::string container_lib;   // a copy of OpenPMIx's libpmix.so.2 and plugins at another path
    std::string container_file;  // "major:minor:inode" of that copy
};
const Cluster &cluster();

struct Case {
    std::string name;       // srun --job-name, and messages
    std::string partition;  // "one" (node a), "alias" (node c), "three" (a, b, c)
    int ntasks = 1;
    int nodes = 0;                     // > 0: -N nodes --ntasks-per-node ntasks/nodes
    std::vector<std::string> command;  // program and arguments
    std::vector<std::string> env;      // VAR=VALUE for srun and so the tasks
    int seconds = 30;                  // srun's deadline (a passing case takes 0.1-5 s)
    std::string user;                  // run as this user ("" root); command[0] is copied
                                       // where the user can run it (the cluster's share/)
    // Tasks on the "container's" OpenPMIx (cluster().container_lib, through
    // container_task.sh) rather than the node's library: "" none, "all", or
    // "odd" (odd ranks; the even ones keep the node's library).
    std::string container_ranks;
    // On the OpenPMIx nodes: the tasks load our build's library
    // (LD_LIBRARY_PATH) while slurmstepd keeps OpenPMIx, so our client
    // speaks OpenPMIx's protocol (src/client/openpmix/).
    bool tasks_on_ours = false;
};

// The task of `rank` maps the container's copy of OpenPMIx.
bool in_container(const Case &spec, int rank);

// One "proof ROLE R pid P host H job J: libpmix PATH file F; parent COMM
// PPID libpmix PATH file F" line (slurm_proof.h).
struct Proof {
    std::string role;
    int rank = -1;
    int pid = -1;
    std::string host;
    std::string job;
    std::string path;
    std::string file;
    std::string parent;
    int parent_pid = -1;
    std::string parent_path;
    std::string parent_file;
};

struct Run {
    Library library = Library::openpmix;
    Case spec;
    test_support::Result result;
    double seconds = 0;
    std::vector<Proof> proofs;
    std::string job;                          // Slurm job id, when known
    std::map<std::string, std::string> logs;  // node -> slurmd log lines written during the run
    std::vector<std::string> failures;

    void expect(bool ok, const std::string &why);
    std::string output() const;                     // stdout then stderr
    std::vector<std::string> stepd_errors() const;  // "slurmstepd-NODE: error: ..." lines
    // This job's slurmd/slurmstepd log lines containing `part`, as "NODE: line"
    // (the harmless spmix_appdir_ lines left out).
    std::string log_lines_with(const std::string &part) const;
};

// The node names of a partition of `library`, and what gethostname() says on them.
std::vector<std::string> nodes_of(Library library, const std::string &partition);
std::string hostname_of(const std::string &node);

Run run_case(Library library, const Case &spec);

// Checks shared by the cases; each adds to run.failures.
void expect_exit(Run &run, int code);
// `ranks` proofs of `role`, one per rank, from the partition's hosts, each
// process and its slurmstepd mapping `run.library`'s file (a task in the
// container: the container's copy, from its path, and its plugins too).
void expect_proofs(Run &run, const std::string &role, int ranks);
void expect_line(Run &run, const std::string &line);
// Every task and the step's slurmstepd are gone within 15 s of srun's exit.
void expect_nothing_left(Run &run);
// The step went through the plugin's fence (_fencenb_fn, COLL_FENCE_* DONE)
// or direct modex (_dmodex_fn) on each of `nodes` nodes.
void expect_slurm_upcall(Run &run, const std::string &upcall, std::size_t nodes);

// A failed run in which an Open MPI rank died of SIGSEGV at address 0 in
// MPI_Init: Open MPI 4.1.4's btl/tcp hands a peer's first message to a tag
// whose handler ob1 has not registered yet (the tag is 0x41, MATCH; the core
// shows mca_btl_tcp.so calling mca_btl_base_active_message_trigger[0x41]).
// It happens on OpenPMIx as on ours: 9 of 80 runs of hello6 on OpenPMIx with
// both cores busy, 2 of 75 on ours.
bool open_mpi_init_race(const Run &run);

// Ends the run's checks: a failed baseline stops the test (environment), a
// failed run on ours fails it and goes on. Both print what happened.
void conclude(const Run &run);
// Ours prints no more error lines than OpenPMIx did for the same case, and
// no "pmixpp:" line at all.
void compare_error_lines(const Run &baseline, const Run &ours);

}  // namespace slurm_test

#endif
