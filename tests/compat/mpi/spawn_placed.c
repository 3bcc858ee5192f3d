/* MPI_Comm_spawn of one child with the "map_by" and "bind_to" info keys
 * given on the command line ("-" for none): parent and child print the cpus
 * the kernel lets them run on ("parent cpus 0" / "child cpus 1"). */
#define _GNU_SOURCE 1
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static void print_cpus(const char *role)
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    sched_getaffinity(0, sizeof mask, &mask);
    char list[256] = "";
    for (int cpu = 0; cpu < 64; ++cpu) {
        if (!CPU_ISSET(cpu, &mask)) continue;
        char one[8];
        snprintf(one, sizeof one, "%s%d", list[0] != '\0' ? "," : "", cpu);
        strncat(list, one, sizeof list - strlen(list) - 1);
    }
    printf("%s cpus %s\n", role, list);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        print_cpus("child");
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    MPI_Info info;
    MPI_Info_create(&info);
    if (argc > 1 && strcmp(argv[1], "-") != 0) MPI_Info_set(info, "map_by", argv[1]);
    if (argc > 2 && strcmp(argv[2], "-") != 0) MPI_Info_set(info, "bind_to", argv[2]);
    MPI_Comm child;
    MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, info, 0, MPI_COMM_WORLD, &child, MPI_ERRCODES_IGNORE);
    MPI_Info_free(&info);
    print_cpus("parent");
    MPI_Comm_disconnect(&child);
    MPI_Finalize();
    return 0;
}
