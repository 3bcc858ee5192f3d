/* The client of the hello job: reads its job data, exchanges one key with
 * every peer through a data-collecting fence, keeps a scratch file in its
 * process session directory and registers it (RFC0027) for removal by the
 * server when this process ends. */
#include <pmix.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "hello_client: %s: %s\n", what, PMIx_Error_string(rc));
    return 1;
}

/* A string-valued key of the job, or NULL. The caller frees the value. */
static pmix_value_t *get_job_key(const pmix_proc_t *me, const char *key)
{
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me->nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *value = NULL;
    return PMIx_Get(&job, key, NULL, 0, &value) == PMIX_SUCCESS ? value : NULL;
}

static pmix_status_t register_cleanup(const pmix_proc_t *me, const char *path)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_REGISTER_CLEANUP, path, PMIX_STRING);
    pmix_status_t rc = PMIx_Job_control(me, 1, &info, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) return fail("PMIx_Init", rc);

    pmix_value_t *size = get_job_key(&me, PMIX_JOB_SIZE);
    if (size == NULL) return fail("PMIx_Get(PMIX_JOB_SIZE)", PMIX_ERR_NOT_FOUND);
    uint32_t nprocs = size->data.uint32;
    PMIX_VALUE_RELEASE(size);

    char greeting[64];
    snprintf(greeting, sizeof greeting, "hello from rank %u", me.rank);
    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, greeting, PMIX_STRING);
    rc = PMIx_Put(PMIX_GLOBAL, "hello.greeting", &value);
    PMIX_VALUE_DESTRUCT(&value);
    if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) return fail("PMIx_Put/PMIx_Commit", rc);

    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    if (rc != PMIX_SUCCESS) return fail("PMIx_Fence", rc);

    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % nprocs);
    pmix_value_t *theirs = NULL;
    rc = PMIx_Get(&peer, "hello.greeting", NULL, 0, &theirs);
    if (rc != PMIX_SUCCESS) return fail("PMIx_Get(peer greeting)", rc);
    printf("rank %u of %u: my neighbour says \"%s\"\n", me.rank, nprocs, theirs->data.string);
    PMIX_VALUE_RELEASE(theirs);

    /* Scratch space: the process session directory the server made. */
    pmix_value_t *procdir = NULL;
    if (PMIx_Get(&me, PMIX_PROCDIR, NULL, 0, &procdir) == PMIX_SUCCESS && procdir->type == PMIX_STRING) {
        char path[4096];
        snprintf(path, sizeof path, "%s/scratch.txt", procdir->data.string);
        FILE *file = fopen(path, "w");
        if (file != NULL) {
            fputs(greeting, file);
            fclose(file);
        }
        rc = register_cleanup(&me, path);
        if (rc != PMIX_SUCCESS) return fail("PMIx_Job_control(PMIX_REGISTER_CLEANUP)", rc);
    }
    if (procdir != NULL) PMIX_VALUE_RELEASE(procdir);

    rc = PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS ? 0 : fail("PMIx_Finalize", rc);
}
