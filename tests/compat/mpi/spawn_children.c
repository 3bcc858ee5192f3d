/* MPI_Comm_spawn of two more ranks, then an allreduce over the
 * intercommunicator each way: the parents see the children's sum and the
 * children the parents'. */
#include <mpi.h>
#include <stdio.h>

#include "libpmix_proof.h"

enum { CHILDREN = 2 };

static int run_parent(int rank, char *program)
{
    MPI_Comm children;
    MPI_Comm_spawn(program, MPI_ARGV_NULL, CHILDREN, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, MPI_ERRCODES_IGNORE);
    int remote = 0, sum = 0, mine = 100 + rank;
    MPI_Comm_remote_size(children, &remote);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, children);
    printf("parent %d: %d children, their sum %d\n", rank, remote, sum);
    MPI_Comm_disconnect(&children);
    return remote == CHILDREN ? 0 : 1;
}

static int run_child(int rank, MPI_Comm parent)
{
    int sum = 0, mine = rank + 1;
    compat_report_libpmix("child", rank);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, parent);
    printf("child %d: parents' sum %d\n", rank, sum);
    MPI_Comm_disconnect(&parent);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    int rank = 0;
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int failed = parent == MPI_COMM_NULL ? run_parent(rank, argv[0]) : run_child(rank, parent);
    MPI_Finalize();
    return failed;
}
