/* MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): Open MPI groups ranks by the
 * locality PMIx gives it (the node's local peers), so every rank on one node
 * must land in a communicator of all ranks on that node. */
#include <mpi.h>
#include <stdio.h>

#include "libpmix_proof.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0, local_size = 0, local_rank = 0, name_length = 0;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Comm node;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    compat_report_libpmix("rank", rank);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local_size);
    MPI_Comm_rank(node, &local_rank);
    MPI_Get_processor_name(name, &name_length);
    printf("rank %d on %s: node-local rank %d of %d\n", rank, name, local_rank, local_size);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
