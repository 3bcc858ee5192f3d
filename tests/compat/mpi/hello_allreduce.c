/* Hello with MPI_Allreduce: the sum of rank+1 over all ranks is n(n+1)/2. */
#include <mpi.h>
#include <stdio.h>

#include "libpmix_proof.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    compat_report_libpmix("rank", rank);
    int mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d: allreduce sum %d\n", rank, size, sum);
    MPI_Finalize();
    return sum == size * (size + 1) / 2 ? 0 : 1;
}
