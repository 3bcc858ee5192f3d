/* hello: the first job to run under pmixrun. Every process says who it is,
 * puts a greeting, takes part in a fence that collects everyone's data, and
 * reads its right-hand neighbour's greeting.
 *
 *   pmixrun -n 4 build/examples/hello
 */
#include <pmix.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "hello: PMIx_Init failed: %s (run me under pmixrun)\n", PMIx_Error_string(rc));
        return 1;
    }
    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *value = NULL;
    uint32_t size = 0;
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &value) == PMIX_SUCCESS) {
        size = value->data.uint32;
        PMIX_VALUE_RELEASE(value);
    }
    char host[256] = "?";
    pmix_proc_t self = me;
    if (PMIx_Get(&self, PMIX_HOSTNAME, NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_STRING) {
        snprintf(host, sizeof host, "%s", value->data.string);
        PMIX_VALUE_RELEASE(value);
    }

    char greeting[64];
    snprintf(greeting, sizeof greeting, "hello from rank %u", me.rank);
    pmix_value_t mine;
    PMIX_VALUE_LOAD(&mine, greeting, PMIX_STRING);
    rc = PMIx_Put(PMIX_GLOBAL, "hello.greeting", &mine);
    PMIX_VALUE_DESTRUCT(&mine);
    if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    if (rc == PMIX_SUCCESS) rc = PMIx_Fence(NULL, 0, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);

    pmix_proc_t neighbour = me;
    neighbour.rank = size > 0 ? (me.rank + 1) % size : me.rank;
    if (rc == PMIX_SUCCESS) rc = PMIx_Get(&neighbour, "hello.greeting", NULL, 0, &value);
    if (rc == PMIX_SUCCESS) {
        printf("rank %u of %u on %s: after the fence, rank %u says \"%s\"\n", me.rank, size, host, neighbour.rank,
               value->data.string);
        PMIX_VALUE_RELEASE(value);
    } else {
        fprintf(stderr, "hello: rank %u: %s\n", me.rank, PMIx_Error_string(rc));
    }
    pmix_status_t fin = PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS && fin == PMIX_SUCCESS ? 0 : 1;
}
