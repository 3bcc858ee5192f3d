/* Which libpmix.so a process has mapped, read from /proc/<pid>/maps. Every
 * compat program reports it for itself and for its launcher (its parent:
 * mpirun on one node, orted on the others), so a test can assert that our
 * library, not Debian's OpenPMIx, served both sides of Open MPI. */
#ifndef PMIXPP_COMPAT_LIBPMIX_PROOF_H
#define PMIXPP_COMPAT_LIBPMIX_PROOF_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline void compat_libpmix_of(pid_t pid, char *path, size_t size)
{
    char maps[64];
    char line[4096];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    snprintf(path, size, "none");
    FILE *file = fopen(maps, "r");
    if (file == NULL) return;
    while (fgets(line, sizeof line, file) != NULL) {
        const char *slash = strchr(line, '/');
        if (slash == NULL || strstr(slash, "/libpmix.so") == NULL) continue;
        snprintf(path, size, "%s", slash);
        path[strcspn(path, "\n")] = '\0';
        break;
    }
    fclose(file);
}

static inline void compat_command_of(pid_t pid, char *name, size_t size)
{
    char comm[64];
    snprintf(comm, sizeof comm, "/proc/%d/comm", (int)pid);
    snprintf(name, size, "unknown");
    FILE *file = fopen(comm, "r");
    if (file == NULL) return;
    if (fgets(name, (int)size, file) != NULL) name[strcspn(name, "\n")] = '\0';
    fclose(file);
}

/* One line: "rank R pid P on HOST: libpmix PATH; launcher NAME libpmix PATH". */
static inline void compat_report_libpmix(const char *role, int rank)
{
    char host[256] = "unknown";
    char own[4096];
    char launcher[4096];
    char launcher_name[64];
    gethostname(host, sizeof host);
    compat_libpmix_of(getpid(), own, sizeof own);
    compat_libpmix_of(getppid(), launcher, sizeof launcher);
    compat_command_of(getppid(), launcher_name, sizeof launcher_name);
    printf("%s %d pid %d on %s: libpmix %s; launcher %s libpmix %s\n", role, rank, (int)getpid(), host, own,
           launcher_name, launcher);
    fflush(stdout);
}

#endif
