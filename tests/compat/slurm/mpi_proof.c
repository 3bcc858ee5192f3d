/* Linked into the reused MPI programs of ../mpi (hello_allreduce, ring_barrier,
 * abort_rank, segv_rank), through MPI's profiling interface:
 *
 * - every rank reports right after MPI_Init which libpmix it and its
 *   slurmstepd map, by device and inode (slurm_proof.h). The programs' own
 *   report gives only the path, which the bind mount makes OpenPMIx's on
 *   every node.
 * - then every rank waits in a PMIx fence until all have left MPI_Init.
 *   Open MPI 4.1 has a start-up race of its own: a rank that has left
 *   MPI_Init connects over TCP to one still waiting in MPI_Init's fence, and
 *   the waiting rank's btl/tcp dies on a NULL callback (SIGSEGV in
 *   mca_btl_tcp.so from opal_progress in ompi_mpi_init). Slurm's ring fence
 *   releases nodes some milliseconds apart, so it struck three-node runs
 *   now and then on OpenPMIx and on ours alike (2 of 40 and 1 of 30 under
 *   load). The extra fence goes through the library under test too. */
#include <mpi.h>
#include <pmix.h>

#include "slurm_proof.h"

static void wait_until_every_rank_left_mpi_init(void)
{
    pmix_proc_t self;
    if (PMIx_Init(&self, NULL, 0) != PMIX_SUCCESS) return; /* counted: Open MPI keeps its own */
    (void)PMIx_Fence(NULL, 0, NULL, 0);
    (void)PMIx_Finalize(NULL, 0);
}

int MPI_Init(int *argc, char ***argv)
{
    const int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) {
        int rank = -1;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        slurm_proof_report("rank", rank);
        slurm_proof_plugins("rank", rank);
        wait_until_every_rank_left_mpi_init();
    }
    return rc;
}
