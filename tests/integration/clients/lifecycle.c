/*
 * lifecycle: the edges of a client's life.
 *
 *   lifecycle abort       PMIx_Abort(42, ...) must reach the host and return.
 *   lifecycle vanish      exits right after PMIx_Init, without PMIx_Finalize.
 *   lifecycle lost DIR    registers for PMIX_ERR_LOST_CONNECTION, signals
 *                         DIR/ready.<rank>, then blocks in a fence nobody else
 *                         joins; the host shuts its server down, and the fence
 *                         must fail (not hang) and the event must arrive.
 */
#include "client_util.h"

static volatile int g_lost_event;

static void on_lost(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                    pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    if (status == PMIX_ERR_LOST_CONNECTION) g_lost_event = 1;
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
    for (int waited = 0; !g_lost_event && waited < 5000; waited += 10) itc_sleep_ms(10);
    ITC_CHECK(g_lost_event, "no PMIX_ERR_LOST_CONNECTION event");
    PMIx_Finalize(NULL, 0);
    return itc_finish();
}

int main(int argc, char **argv)
{
    itc_start();
    if (argc < 2) {
        printf("usage: lifecycle abort | vanish | lost DIR\n");
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
    if (strcmp(argv[1], "abort") == 0) {
        rc = PMIx_Abort(42, "itest abort", NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Abort: %s", itc_err(rc));
        return itc_finish();
    }
    printf("unknown mode %s\n", argv[1]);
    return 64;
}
