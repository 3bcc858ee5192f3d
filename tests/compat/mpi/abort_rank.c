/* Rank 1 calls MPI_Abort(42); mpirun must end the job and exit 42. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include "libpmix_proof.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    compat_report_libpmix("rank", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 42);
    sleep(60); /* the others wait to be torn down */
    MPI_Finalize();
    return 0;
}
