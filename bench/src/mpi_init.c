/* MPI_Init + MPI_Finalize, the launch figure of bench/run.sh (mpirun -n 16).
 * Built once with Debian's mpicc; which libpmix.so.2 Open MPI loads (in
 * mpirun and in the ranks) is chosen at run time by LD_LIBRARY_PATH.
 *
 *   mpi_init [DIR]
 *
 * With DIR every rank writes DIR/mpi.<rank> after MPI_Init: "<world size>
 * <libpmix of this process> <libpmix of its parent (mpirun)>\n", so run.sh
 * can count the ranks and check which library served both sides. */
#include <mpi.h>

#include <stdio.h>
#include <unistd.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
    int rank = 0, size = 0, failed = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        char own[2048], parent[2048], text[4200];
        bench_libpmix_of(getpid(), own, sizeof own);
        bench_libpmix_of(getppid(), parent, sizeof parent);
        snprintf(text, sizeof text, "%d %s %s\n", size, own, parent);
        failed = bench_report_file(argv[1], "mpi", rank, text) != 0;
    }
    MPI_Finalize();
    return failed;
}
