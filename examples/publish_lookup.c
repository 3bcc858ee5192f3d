/* publish_lookup: rank 0 publishes a service name, the other ranks look it
 * up, waiting until it exists (PMIX_WAIT); a second publish of the same key
 * is refused; rank 0 unpublishes it at the end. The host (pmixrun) keeps the
 * data: the way MPI_Publish_name / MPI_Lookup_name find each other.
 *
 *   pmixrun -n 3 build/examples/publish_lookup
 */
#include <pmix.h>

#include <stdio.h>
#include <string.h>

static const char *KEY = "example.service";

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "publish_lookup: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    int failed = 0;
    if (me.rank == 0) {
        pmix_info_t info;
        PMIX_INFO_LOAD(&info, KEY, "port-4711@rank0", PMIX_STRING);
        rc = PMIx_Publish(&info, 1);
        printf("rank 0: published %s: %s\n", KEY, PMIx_Error_string(rc));
        failed |= rc != PMIX_SUCCESS;
        rc = PMIx_Publish(&info, 1);
        printf("rank 0: publishing it again: %s\n", PMIx_Error_string(rc));
        failed |= rc != PMIX_ERR_DUPLICATE_KEY;
        PMIX_INFO_DESTRUCT(&info);
        pmix_info_t twice[2];
        PMIX_INFO_LOAD(&twice[0], "example.twice", "a", PMIX_STRING);
        PMIX_INFO_LOAD(&twice[1], "example.twice", "b", PMIX_STRING);
        rc = PMIx_Publish(twice, 2);
        printf("rank 0: one key twice in one publish: %s\n", PMIx_Error_string(rc));
        failed |= rc != PMIX_ERR_DUPLICATE_KEY;
        PMIX_INFO_DESTRUCT(&twice[0]);
        PMIX_INFO_DESTRUCT(&twice[1]);
    } else {
        pmix_pdata_t data;
        PMIX_PDATA_CONSTRUCT(&data);
        PMIX_LOAD_KEY(data.key, KEY);
        pmix_info_t wait;
        bool yes = true;
        PMIX_INFO_LOAD(&wait, PMIX_WAIT, &yes, PMIX_BOOL);
        rc = PMIx_Lookup(&data, 1, &wait, 1);
        if (rc == PMIX_SUCCESS && data.value.type == PMIX_STRING) {
            printf("rank %u: looked up %s = %s, published by rank %u\n", me.rank, KEY, data.value.data.string,
                   data.proc.rank);
        } else {
            printf("rank %u: lookup of %s failed: %s\n", me.rank, KEY, PMIx_Error_string(rc));
            failed = 1;
        }
        PMIX_PDATA_DESTRUCT(&data);
        PMIX_INFO_DESTRUCT(&wait);
    }
    /* Everyone has looked: the publisher withdraws the name. */
    if (PMIx_Fence(NULL, 0, NULL, 0) != PMIX_SUCCESS) failed = 1;
    if (me.rank == 0) {
        char *keys[] = {(char *)KEY, NULL};
        rc = PMIx_Unpublish(keys, NULL, 0);
        printf("rank 0: unpublished %s: %s\n", KEY, PMIx_Error_string(rc));
        failed |= rc != PMIX_SUCCESS;
        pmix_pdata_t gone;
        PMIX_PDATA_CONSTRUCT(&gone);
        PMIX_LOAD_KEY(gone.key, KEY);
        rc = PMIx_Lookup(&gone, 1, NULL, 0);
        printf("rank 0: looking it up now: %s\n", PMIx_Error_string(rc));
        failed |= rc != PMIX_ERR_NOT_FOUND;
        PMIX_PDATA_DESTRUCT(&gone);
    }
    if (PMIx_Finalize(NULL, 0) != PMIX_SUCCESS) failed = 1;
    return failed;
}
