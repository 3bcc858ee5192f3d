/* The PMIx part of a job start, for bench/launch.sh: PMIx_Init, a put of
 * 64 bytes, PMIx_Commit, a collecting PMIx_Fence, a PMIx_Get of the next
 * rank's value (checked), PMIx_Finalize. Written against pmix.h only and
 * built for each library. Exits non-zero on any failure, so the launcher's
 * exit status says whether every rank got through. */
#include <pmix.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "launch_hello: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *value = NULL;
    uint32_t size = 0;
    rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &value);
    if (rc == PMIX_SUCCESS) {
        size = value->data.uint32;
        PMIX_VALUE_RELEASE(value);
        char text[64];
        memset(text, 0, sizeof text);
        snprintf(text, sizeof text, "rank %u", me.rank);
        pmix_value_t mine;
        PMIX_VALUE_LOAD(&mine, text, PMIX_STRING);
        rc = PMIx_Put(PMIX_GLOBAL, "launch.hello", &mine);
        PMIX_VALUE_DESTRUCT(&mine);
    }
    if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
    if (rc == PMIX_SUCCESS) {
        pmix_info_t collect;
        PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
        rc = PMIx_Fence(NULL, 0, &collect, 1);
        PMIX_INFO_DESTRUCT(&collect);
    }
    if (rc == PMIX_SUCCESS && size > 0) {
        pmix_proc_t next;
        PMIX_LOAD_PROCID(&next, me.nspace, (me.rank + 1) % size);
        rc = PMIx_Get(&next, "launch.hello", NULL, 0, &value);
        if (rc == PMIX_SUCCESS) {
            char expected[64];
            snprintf(expected, sizeof expected, "rank %u", next.rank);
            if (value->type != PMIX_STRING || strcmp(value->data.string, expected) != 0) rc = PMIX_ERR_BAD_PARAM;
            PMIX_VALUE_RELEASE(value);
        }
    }
    if (rc != PMIX_SUCCESS) fprintf(stderr, "launch_hello %u: %s\n", me.rank, PMIx_Error_string(rc));
    pmix_status_t done = PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS && done == PMIX_SUCCESS ? 0 : 1;
}
