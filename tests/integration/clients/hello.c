/* hello: the smallest whole job of a rank. Init, put its rank, commit, a
 * collecting fence, read the next rank's value, print one line, finalize.
 * Exits non-zero (and says why) at the first call that fails. */
#include <pmix.h>

#include <stdio.h>

static int check(const char *what, pmix_status_t rc)
{
    if (rc != PMIX_SUCCESS) fprintf(stderr, "hello: %s: %s\n", what, PMIx_Error_string(rc));
    return rc == PMIX_SUCCESS;
}

int main(void)
{
    pmix_proc_t me;
    if (!check("PMIx_Init", PMIx_Init(&me, NULL, 0))) return 1;
    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *size = NULL;
    if (!check("PMIx_Get(PMIX_JOB_SIZE)", PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &size))) return 1;
    const uint32_t n = size->data.uint32;
    PMIX_VALUE_RELEASE(size);
    pmix_value_t mine;
    PMIX_VALUE_CONSTRUCT(&mine);
    mine.type = PMIX_UINT32;
    mine.data.uint32 = 100 + me.rank;
    bool yes = true;
    pmix_info_t collect;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    if (!check("PMIx_Put", PMIx_Put(PMIX_GLOBAL, "hello.value", &mine)) || !check("PMIx_Commit", PMIx_Commit()) ||
        !check("PMIx_Fence", PMIx_Fence(NULL, 0, &collect, 1))) {
        return 1;
    }
    pmix_proc_t next = me;
    next.rank = (me.rank + 1) % n;
    pmix_value_t *theirs = NULL;
    if (!check("PMIx_Get(next)", PMIx_Get(&next, "hello.value", NULL, 0, &theirs))) return 1;
    printf("hello from rank %u of %u; rank %u put %u\n", me.rank, n, next.rank, theirs->data.uint32);
    fflush(stdout);
    PMIX_VALUE_RELEASE(theirs);
    return check("PMIx_Finalize", PMIx_Finalize(NULL, 0)) ? 0 : 1;
}
