/* Which libpmix a process and its parent (slurmstepd) really map, by file
 * identity. Under the harness our library is bind-mounted over OpenPMIx's
 * file, so /proc/<pid>/maps shows OpenPMIx's path for both: only the device
 * and inode tell them apart. The identity is read through
 * /proc/<pid>/map_files/<range> (the mapped file itself, whatever the mounts
 * are now; root only), falling back to stat() of the path in this process's
 * mount namespace. The test compares it with stat() of our build's file.
 *
 * One line per process:
 *   proof ROLE RANK pid P host H job J: libpmix PATH file MAJ:MIN:INO;
 *       parent COMM PID libpmix PATH file MAJ:MIN:INO      (on one line)
 * where "file none" means no libpmix is mapped. The path tells a task on a
 * container's copy (LD_LIBRARY_PATH, container_task.sh) from one on the
 * node's file. */
#ifndef PMIXPP_COMPAT_SLURM_PROOF_H
#define PMIXPP_COMPAT_SLURM_PROOF_H

#include "../mpi/libpmix_proof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct slurm_proof_mapping {
    char path[1024];
    char file[64]; /* "major:minor:inode" or "none" */
};

static void slurm_proof_mapping_of(pid_t pid, struct slurm_proof_mapping *out)
{
    char maps[64];
    char line[2048];
    snprintf(out->path, sizeof out->path, "none");
    snprintf(out->file, sizeof out->file, "none");
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    FILE *file = fopen(maps, "r");
    if (file == NULL) return;
    while (fgets(line, sizeof line, file) != NULL) {
        const char *slash = strchr(line, '/');
        if (slash == NULL || strstr(slash, "/libpmix.so") == NULL) continue;
        snprintf(out->path, sizeof out->path, "%s", slash);
        out->path[strcspn(out->path, "\n")] = '\0';
        char range[128];
        char map_file[192];
        struct stat st;
        snprintf(range, sizeof range, "%.*s", (int)strcspn(line, " "), line);
        snprintf(map_file, sizeof map_file, "/proc/%d/map_files/%s", (int)pid, range);
        if (stat(map_file, &st) == 0 || stat(out->path, &st) == 0) {
            snprintf(out->file, sizeof out->file, "%u:%u:%lu", major(st.st_dev), minor(st.st_dev),
                     (unsigned long)st.st_ino);
        }
        break;
    }
    fclose(file);
}

static void slurm_proof_report(const char *role, int rank)
{
    char host[256] = "unknown";
    char parent_name[64];
    struct slurm_proof_mapping own;
    struct slurm_proof_mapping parent;
    gethostname(host, sizeof host);
    slurm_proof_mapping_of(getpid(), &own);
    slurm_proof_mapping_of(getppid(), &parent);
    compat_command_of(getppid(), parent_name, sizeof parent_name);
    const char *job = getenv("SLURM_JOB_ID");
    printf("proof %s %d pid %d host %s job %s: libpmix %s file %s; parent %s %d libpmix %s file %s\n", role, rank,
           (int)getpid(), host, job != NULL ? job : "none", own.path, own.file, parent_name, (int)getppid(),
           parent.path, parent.file);
    fflush(stdout);
}

/* Where the process mapped OpenPMIx's plugins from (pmix_mca_*.so, loaded by
 * PMIx_Init): a container's library must use its own, not the node's.
 *   plugins ROLE RANK: DIR        ("none" when no such plugin is mapped) */
static void slurm_proof_plugins(const char *role, int rank)
{
    char line[2048];
    char dir[1024] = "none";
    FILE *file = fopen("/proc/self/maps", "r");
    while (file != NULL && fgets(line, sizeof line, file) != NULL) {
        const char *slash = strchr(line, '/');
        const char *plugin = slash != NULL ? strstr(slash, "/pmix_mca_") : NULL;
        if (plugin == NULL) continue;
        snprintf(dir, sizeof dir, "%.*s", (int)(plugin - slash), slash);
        break;
    }
    if (file != NULL) fclose(file);
    printf("plugins %s %d: %s\n", role, rank, dir);
    fflush(stdout);
}

#endif
