/* Linked into the reused MPI programs of ../mpi (hello_allreduce, ring_barrier,
 * abort_rank, segv_rank): through MPI's profiling interface, every rank
 * reports right after MPI_Init which libpmix it and its slurmstepd map, by
 * device and inode (slurm_proof.h). The programs' own report gives only the
 * path, which the bind mount makes OpenPMIx's on every node. */
#include <mpi.h>

#include "slurm_proof.h"

int MPI_Init(int *argc, char ***argv)
{
    const int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) {
        int rank = -1;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        slurm_proof_report("rank", rank);
    }
    return rc;
}
