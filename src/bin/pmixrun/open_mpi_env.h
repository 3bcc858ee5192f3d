// The variables Open MPI's programs look for in their environment when a
// runtime other than its own mpirun starts them (prterun does the same for
// its "ompi" personality).
//
// Open MPI 4.x (Debian 12's 4.1) decides how it was started before it asks
// PMIx anything: only a process whose environment names a local ORTE daemon
// (OMPI_MCA_orte_local_daemon_uri) is taken as launched and reads its job
// from PMIx; any other runs as a singleton of size 1, whatever the PMIx
// server knows. pmixrun has no ORTE daemon, so it names a placeholder
// (kOpenMpiDaemonPlaceholder) that Open MPI parses but never contacts: all
// of its traffic with the launcher goes through PMIx. Open MPI 5 asks PMIx
// directly and ignores it.
//
// A job that oversubscribes the node (more processes than pmixrun's cpus,
// counting the other jobs' running ones) gets OMPI_MCA_mpi_yield_when_idle=1,
// as mpirun gives it: Open MPI's ranks otherwise spin in every wait, and 3
// ranks on 2 cores take 12 s for 1,000 barriers instead of 0.3 s.
//
// The OMPI_COMM_WORLD_* variables are what scripts and wrappers read
// (PyTorch's launcher, NCCL tests) to learn their rank before MPI_Init.
#ifndef PMIXPP_BIN_PMIXRUN_OPEN_MPI_ENV_H
#define PMIXPP_BIN_PMIXRUN_OPEN_MPI_ENV_H

#include "job.h"

#include <string>
#include <utility>
#include <vector>

namespace pmixrun {

// "<jobid>.<vpid>;<uri>" as ORTE writes it; port 0 is nobody's.
inline constexpr const char *kOpenMpiDaemonPlaceholder = "0.0;tcp://127.0.0.1:0";

// Name and value of each variable for `proc` of `job`; a variable the user
// sets with -x is applied after these, and wins.
std::vector<std::pair<std::string, std::string>> open_mpi_variables(const Job &job, const Proc &proc);

}  // namespace pmixrun

#endif
