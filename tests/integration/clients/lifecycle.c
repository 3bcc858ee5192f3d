/*
 * lifecycle: the edges of a client's life.
 *
 *   lifecycle abort       PMIx_Abort(42, ...) must reach the host and return.
 *   lifecycle abort-job   rank 1 calls PMIx_Abort(7, ..., NULL, 0): the whole
 *                         job, itself included, so it must not return before
 *                         the host acted (the host kills the job). The other
 *                         ranks wait in a fence rank 1 never joins.
 *   lifecycle vanish      exits right after PMIx_Init, without PMIx_Finalize.
 *   lifecycle left-behind rank 1 finalizes and exits without putting
 *                         anything; rank 0 then gets a key of rank 1 (must
 *                         be PMIX_ERR_NOT_FOUND once rank 1 is gone, not
 *                         wait forever) and fences with everyone (must fail
 *                         at once: rank 1 can never join).
 *   lifecycle lost DIR    registers for PMIX_ERR_LOST_CONNECTION, signals
 *                         DIR/ready.<rank>, then blocks in a fence nobody else
 *                         joins; the host shuts its server down, and the fence
 *                         must fail (not hang) and the event must arrive.
 */
#include "client_util.h"

#include <stdatomic.h>

/* Set on the library's event thread, read by main. */
static atomic_int g_lost_event;

static void on_lost(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                    pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    if (status == PMIX_ERR_LOST_CONNECTION) atomic_store(&g_lost_event, 1);
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void signal_ready(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/ready.%u", dir, itc_me.rank);
    FILE *ready = fopen(path, "w");
    if (ready != NULL) fclose(ready);
}

static int lost(const char *dir)
{
    pmix_status_t code = PMIX_ERR_LOST_CONNECTION;
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_lost, NULL, NULL);
    ITC_CHECK(rc >= 0, "PMIx_Register_event_handler(LOST_CONNECTION): %s", itc_err(rc));
    signal_ready(dir);
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    printf("fence returned %d %s\n", rc, itc_err(rc));
    ITC_CHECK(rc != PMIX_SUCCESS, "the fence succeeded although its server went away");
    for (int waited = 0; !atomic_load(&g_lost_event) && waited < 5000; waited += 10) itc_sleep_ms(10);
    ITC_CHECK(atomic_load(&g_lost_event), "no PMIX_ERR_LOST_CONNECTION event");
    PMIx_Finalize(NULL, 0);
    return itc_finish();
}

static int abort_job(void)
{
    if (itc_me.rank != 1) {
        pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
        printf("rank %u fence returned %d %s\n", itc_me.rank, rc, itc_err(rc));
        return 6;
    }
    printf("rank 1 calling abort\n");
    pmix_status_t rc = PMIx_Abort(7, "itest abort 7 from rank 1", NULL, 0);
    /* The caller is among the aborted: returning means the host could not do it. */
    printf("rank 1 abort returned %d %s\n", rc, itc_err(rc));
    return 5;
}

static int left_behind(void)
{
    if (itc_me.rank == 1) {
        pmix_status_t rc = PMIx_Finalize(NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
        return itc_finish();
    }
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, itc_me.nspace, 1);
    pmix_value_t *value = NULL;
    /* No timeout: only rank 1 leaving can end the wait. */
    pmix_status_t rc = PMIx_Get(&peer, "itest.never.put", NULL, 0, &value);
    ITC_CHECK(rc == PMIX_ERR_NOT_FOUND, "PMIx_Get of a key of the finalized rank 1: %s", itc_err(rc));
    if (rc == PMIX_SUCCESS) PMIX_VALUE_RELEASE(value);
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    ITC_CHECK(rc != PMIX_SUCCESS, "a fence with the finalized rank 1 succeeded");
    printf("rank 0 fence without rank 1: %s\n", itc_err(rc));
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}

int main(int argc, char **argv)
{
    itc_start();
    if (argc < 2) {
        printf("usage: lifecycle abort | abort-job | vanish | left-behind | lost DIR\n");
        return 64;
    }
    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s (%d)\n", itc_err(rc), rc);
        return 2;
    }
    if (strcmp(argv[1], "vanish") == 0) {
        printf("rank %u vanishing\n", itc_me.rank);
        _exit(0);
    }
    if (strcmp(argv[1], "lost") == 0 && argc > 2) return lost(argv[2]);
    if (strcmp(argv[1], "left-behind") == 0) return left_behind();
    if (strcmp(argv[1], "abort-job") == 0) return abort_job();
    if (strcmp(argv[1], "abort") == 0) {
        rc = PMIx_Abort(42, "itest abort", NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Abort: %s", itc_err(rc));
        return itc_finish();
    }
    printf("unknown mode %s\n", argv[1]);
    return 64;
}
