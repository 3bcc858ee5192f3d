/*
 * sessiondirs_client: a forked PMIx client that reads its session
 * directories with PMIx_Get (PMIX_TMPDIR / PMIX_NSDIR at job level,
 * PMIX_PROCDIR for itself), checks that each exists, and writes a file
 * into its proc dir. Prints "tmpdir=<path>" etc., then "ok" (exit 0).
 */
#include <pmix.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_dir(const pmix_proc_t *who, const char *key)
{
    pmix_value_t *value = NULL;
    pmix_status_t rc = PMIx_Get(who, key, NULL, 0, &value);
    if (rc != PMIX_SUCCESS || value == NULL || value->type != PMIX_STRING) {
        printf("PMIx_Get %s: %s\n", key, PMIx_Error_string(rc));
        return 1;
    }
    struct stat info;
    int bad = stat(value->data.string, &info) != 0 || !S_ISDIR(info.st_mode);
    printf("%s=%s%s\n", key, value->data.string, bad ? " (not a directory)" : "");
    PMIX_VALUE_RELEASE(value);
    return bad;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    alarm(60);
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    int failures = check_dir(&job, PMIX_TMPDIR) + check_dir(&job, PMIX_NSDIR) + check_dir(&me, PMIX_PROCDIR);
    pmix_value_t *procdir = NULL;
    if (PMIx_Get(&me, PMIX_PROCDIR, NULL, 0, &procdir) == PMIX_SUCCESS) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/scratch", procdir->data.string);
        FILE *file = fopen(path, "w");
        if (file == NULL) ++failures;
        else fclose(file);
        PMIX_VALUE_RELEASE(procdir);
    }
    PMIx_Finalize(NULL, 0);
    printf("%s\n", failures == 0 ? "ok" : "FAIL");
    return failures == 0 ? 0 : 1;
}
