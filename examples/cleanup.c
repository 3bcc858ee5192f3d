/* cleanup: files a process leaves behind, removed for it (RFC0027). Each
 * rank makes a scratch directory with a file in it under DIR, asks its
 * server to remove both when the job ends (PMIx_Job_control with
 * PMIX_REGISTER_CLEANUP_DIR, recursive), and exits without tidying up.
 *
 *   pmixrun -n 2 build/examples/cleanup /tmp/some-dir
 */
#include <pmix.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] != '/') {
        fprintf(stderr, "usage: cleanup ABSOLUTE-DIR\n");
        return 2;
    }
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "cleanup: PMIx_Init failed (run me under pmixrun)\n");
        return 1;
    }
    char scratch[4096], file[4200];
    snprintf(scratch, sizeof scratch, "%s/scratch-rank-%u", argv[1], me.rank);
    snprintf(file, sizeof file, "%s/partial-results.txt", scratch);
    int made = mkdir(scratch, 0700) == 0 || errno == EEXIST;
    FILE *out = made ? fopen(file, "w") : NULL;
    if (out != NULL) {
        fprintf(out, "rank %u was here\n", me.rank);
        fclose(out);
    }

    pmix_info_t dirs[2];
    bool yes = true;
    PMIX_INFO_LOAD(&dirs[0], PMIX_REGISTER_CLEANUP_DIR, scratch, PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[1], PMIX_CLEANUP_RECURSIVE, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Job_control(&me, 1, dirs, 2, NULL, NULL);
    PMIX_INFO_DESTRUCT(&dirs[0]);
    PMIX_INFO_DESTRUCT(&dirs[1]);
    printf("rank %u: made %s and registered it for cleanup: %s\n", me.rank, scratch, PMIx_Error_string(rc));
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return out != NULL && rc == PMIX_SUCCESS ? 0 : 1;
}
