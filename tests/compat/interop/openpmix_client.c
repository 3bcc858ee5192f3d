/* A PMIx client, built twice: against Debian's OpenPMIx headers and library
 * (what a container's or Open MPI's bundled OpenPMIx does at start) and
 * against ours, so that one job can hold ranks of both. It reads its job's
 * data, puts a key, fences, reads every peer's key, passes an event from
 * rank 0 to every other rank, and finalizes; each step that fails says so
 * and exits non-zero. */
#include <pmix.h>

#include "libpmix_proof.h"

#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

static pmix_proc_t me;

static void fail(const char *what, pmix_status_t rc)
{
    printf("client %u: %s failed: %s\n", me.rank, what, PMIx_Error_string(rc));
    fflush(stdout);
    exit(1);
}

static uint32_t get_u32(const pmix_proc_t *proc, const char *key)
{
    pmix_value_t *value = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &value);
    if (rc != PMIX_SUCCESS) fail(key, rc);
    uint32_t result = 0;
    if (value->type == PMIX_UINT32) {
        result = value->data.uint32;
    } else if (value->type == PMIX_UINT16) {
        result = value->data.uint16;
    } else if (value->type == PMIX_PROC_RANK) {
        result = value->data.rank;
    } else {
        printf("client %u: %s has type %s\n", me.rank, key, PMIx_Data_type_string(value->type));
        exit(1);
    }
    PMIX_VALUE_RELEASE(value);
    return result;
}

static void put_own_key(void)
{
    char text[64];
    snprintf(text, sizeof text, "value of rank %u", me.rank);
    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "interop.key", &value);
    PMIX_VALUE_DESTRUCT(&value);
    if (rc != PMIX_SUCCESS) fail("PMIx_Put", rc);
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS) fail("PMIx_Commit", rc);
}

/* Two barriers, then one that collects the data: in a job of both
 * libraries, ranks on ours meet on the fence arena and the server arrives
 * there for the others. */
static void fence_collecting(void)
{
    for (int i = 0; i < 2; ++i) {
        pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
        if (rc != PMIX_SUCCESS) fail("PMIx_Fence without data", rc);
    }
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) fail("PMIx_Fence", rc);
}

static void check_peer(uint32_t rank)
{
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, me.nspace, rank);
    pmix_value_t *value = NULL;
    pmix_status_t rc = PMIx_Get(&peer, "interop.key", NULL, 0, &value);
    if (rc != PMIX_SUCCESS) {
        printf("client %u: PMIx_Get of rank %u's key failed: %s\n", me.rank, rank, PMIx_Error_string(rc));
        exit(1);
    }
    char expected[64];
    snprintf(expected, sizeof expected, "value of rank %u", rank);
    if (value->type != PMIX_STRING || strcmp(value->data.string, expected) != 0) {
        printf("client %u: rank %u's key is not \"%s\"\n", me.rank, rank, expected);
        exit(1);
    }
    PMIX_VALUE_RELEASE(value);
}

/* A code of the job's own, below the range PMIx keeps for itself. A
 * number, not PMIX_EXTERNAL_ERR_BASE - n: that base is -3000 in 4.x and
 * -3330 in 3.x headers, and ranks built against both must agree. */
#define INTEROP_EVENT (-3042)
#define EVENT_WAIT_MS 20000

static volatile int event_from_rank0 = 0;

static void on_interop_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                             size_t ninfo, pmix_info_t results[], size_t nresults,
                             pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (status == INTEROP_EVENT && source != NULL && source->rank == 0) event_from_rank0 = 1;
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void register_for_the_event(void)
{
    pmix_status_t code = INTEROP_EVENT;
#if PMIX_VERSION_MAJOR >= 4
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_interop_event, NULL, NULL);
    if (rc < 0) fail("PMIx_Register_event_handler", rc);
#else
    /* OpenPMIx 3.x registers asynchronously and returns nothing; the
     * request goes out before the fence's. */
    PMIx_Register_event_handler(&code, 1, NULL, 0, on_interop_event, NULL, NULL);
#endif
}

/* Rank 0 raises the event for the namespace; the others wait for it. */
static void pass_the_event(void)
{
    if (me.rank == 0) {
        pmix_status_t rc = PMIx_Notify_event(INTEROP_EVENT, &me, PMIX_RANGE_NAMESPACE, NULL, 0, NULL, NULL);
        if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) fail("PMIx_Notify_event", rc);
        return;
    }
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int waited = 0; !event_from_rank0 && waited < EVENT_WAIT_MS; waited += 10) nanosleep(&tick, NULL);
    if (!event_from_rank0) fail("waiting for rank 0's event", PMIX_ERR_TIMEOUT);
    printf("client %u: rank 0's event came\n", me.rank);
}

int main(void)
{
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("client: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    const uint32_t size = get_u32(&job, PMIX_JOB_SIZE);
    const uint32_t local_rank = get_u32(&me, PMIX_LOCAL_RANK);
    const uint32_t local_size = get_u32(&job, PMIX_LOCAL_SIZE);
    register_for_the_event();
    put_own_key();
    fence_collecting();
    for (uint32_t rank = 0; rank < size; ++rank) check_peer(rank);
    printf("client %u of %u: local rank %u of %u, every peer's key read\n", me.rank, size, local_rank, local_size);
    pass_the_event();
    /* Nobody finalizes before every event is delivered. */
    if ((rc = PMIx_Fence(NULL, 0, NULL, 0)) != PMIX_SUCCESS) fail("the last PMIx_Fence", rc);
    compat_report_libpmix("client", (int)me.rank);
    if ((rc = PMIx_Finalize(NULL, 0)) != PMIX_SUCCESS) fail("PMIx_Finalize", rc);
    return 0;
}
