#include "open_mpi_env.h"

namespace pmixrun {

std::vector<std::pair<std::string, std::string>> open_mpi_variables(const Job &job, const Proc &proc)
{
    // One node: every rank of the job is local, so local rank = rank.
    const std::string size = std::to_string(job.size());
    const std::string rank = std::to_string(proc.rank);
    std::vector<std::pair<std::string, std::string>> variables{
        {"OMPI_MCA_orte_local_daemon_uri", kOpenMpiDaemonPlaceholder},
        {"OMPI_COMM_WORLD_SIZE", size},
        {"OMPI_COMM_WORLD_RANK", rank},
        {"OMPI_COMM_WORLD_LOCAL_SIZE", size},
        {"OMPI_COMM_WORLD_LOCAL_RANK", rank},
    };
    if (job.oversubscribed) variables.emplace_back("OMPI_MCA_mpi_yield_when_idle", "1");
    return variables;
}

}  // namespace pmixrun
