/* A ring of MPI_Sendrecv (every rank needs its neighbours' transport
 * endpoints from the modex), then 1,000 MPI_Barrier. */
#include <mpi.h>
#include <stdio.h>

#include "libpmix_proof.h"

enum { BARRIERS = 1000 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    compat_report_libpmix("rank", rank);
    const int next = (rank + 1) % size;
    const int prev = (rank + size - 1) % size;
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, next, 7, &got, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d got %d from %d\n", rank, got, prev);
    for (int i = 0; i < BARRIERS; ++i) MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("%d barriers done\n", BARRIERS);
    MPI_Finalize();
    return got == prev ? 0 : 1;
}
