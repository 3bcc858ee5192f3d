/* Two separately started jobs meet by name: "server" opens a port and
 * publishes it, "client" looks it up; accept/connect, then an allreduce over
 * the intercommunicator. Names go through mpirun's --ompi-server. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "libpmix_proof.h"

static const char *SERVICE = "pmixpp-compat-service";

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm other;
    const int server = argc > 1 && strcmp(argv[1], "server") == 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    compat_report_libpmix(server ? "server" : "client", rank);
    if (server) {
        if (rank == 0) {
            MPI_Open_port(MPI_INFO_NULL, port);
            MPI_Publish_name(SERVICE, MPI_INFO_NULL, port);
            printf("server published %s\n", SERVICE);
            fflush(stdout);
        }
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other);
    } else {
        if (rank == 0) MPI_Lookup_name(SERVICE, MPI_INFO_NULL, port);
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other);
    }
    int mine = server ? 1000 + rank : rank, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, other);
    printf("%s %d: other side's sum %d\n", server ? "server" : "client", rank, sum);
    if (server && rank == 0) MPI_Unpublish_name(SERVICE, MPI_INFO_NULL, port);
    MPI_Comm_disconnect(&other);
    MPI_Finalize();
    return 0;
}
