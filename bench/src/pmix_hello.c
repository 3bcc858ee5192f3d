/* A PMIx hello for the launch figure (bench/run.sh: pmixrun -n 64):
 * PMIx_Init, PMIx_Get(PMIX_JOB_SIZE), PMIx_Fence(NULL, 0, NULL, 0),
 * PMIx_Finalize. Written against pmix.h only and built for each library.
 *
 *   pmix_hello [DIR]
 *
 * With DIR every rank writes DIR/hello.<rank>: "<job size> <libpmix of this
 * process> <libpmix of its parent (the launcher)>\n<PMIx_Get_version()>\n",
 * written after the fence, so run.sh can count the ranks that got through
 * and check which library served each side, whatever the launcher does with
 * the ranks' output. */
#include <pmix.h>

#include <stdio.h>
#include <unistd.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pmix_hello: PMIx_Init: %s\n", PMIx_Error_string(rc));
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
        rc = PMIx_Fence(NULL, 0, NULL, 0);
    }
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pmix_hello %u: %s\n", me.rank, PMIx_Error_string(rc));
        PMIx_Finalize(NULL, 0);
        return 1;
    }
    int failed = 0;
    if (argc > 1) {
        char own[2048], parent[2048], text[5000];
        bench_libpmix_of(getpid(), own, sizeof own);
        bench_libpmix_of(getppid(), parent, sizeof parent);
        snprintf(text, sizeof text, "%u %s %s\n%s\n", size, own, parent, PMIx_Get_version());
        failed = bench_report_file(argv[1], "hello", (int)me.rank, text) != 0;
    }
    rc = PMIx_Finalize(NULL, 0);
    return failed == 0 && rc == PMIX_SUCCESS ? 0 : 1;
}
