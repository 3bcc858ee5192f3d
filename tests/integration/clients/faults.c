/*
 * faults: a client that sees a fault happen around it.
 *
 *   faults killed-peer DIR   every rank registers for the termination events
 *                            and writes DIR/ready.<rank>; the last rank then
 *                            sleeps until the test kills it with SIGKILL,
 *                            the others block in a fence of the whole job.
 *                            The fence must fail (not hang) and the event
 *                            naming the killed rank must arrive.
 *   faults server-killed DIR every rank registers for
 *                            PMIX_ERR_LOST_CONNECTION and writes
 *                            DIR/ready.<rank>; rank 0 then blocks in a fence
 *                            rank 1 never joins, rank 1 in a get of a key
 *                            rank 0 never puts. The test kills the server
 *                            with SIGKILL: both calls must return an error
 *                            and the event must arrive. Results go to
 *                            DIR/result.<rank> (stdout may be gone with the
 *                            server).
 */
#include "client_util.h"

#include <stdatomic.h>

static atomic_int g_event; /* status of the last event */
static atomic_uint g_event_rank = PMIX_RANK_UNDEF;

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                     pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)results;
    (void)nresults;
    pmix_rank_t affected = source != NULL ? source->rank : PMIX_RANK_UNDEF;
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && info[i].value.type == PMIX_PROC) {
            affected = info[i].value.data.proc->rank;
        }
    }
    atomic_store(&g_event_rank, affected);
    atomic_store(&g_event, status);
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void register_for(pmix_status_t *codes, size_t ncodes)
{
    pmix_status_t rc = PMIx_Register_event_handler(codes, ncodes, NULL, 0, on_event, NULL, NULL);
    ITC_CHECK(rc >= 0, "PMIx_Register_event_handler: %s", itc_err(rc));
}

/* DIR/<what>.<rank>, whole or not at all (written aside, then renamed):
 * the test reads it as soon as it exists. */
static void write_file(const char *dir, const char *what, const char *text)
{
    char path[4096];
    char aside[4200];
    snprintf(path, sizeof(path), "%s/%s.%u", dir, what, itc_me.rank);
    snprintf(aside, sizeof(aside), "%s.tmp", path);
    FILE *file = fopen(aside, "w");
    if (file == NULL) return;
    fputs(text, file);
    fclose(file);
    rename(aside, path);
}

static void signal_ready(const char *dir)
{
    char pid[32];
    snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
    write_file(dir, "ready", pid);
}

static int wait_for_event(int timeout_ms)
{
    for (int waited = 0; atomic_load(&g_event) == 0 && waited < timeout_ms; waited += 10) itc_sleep_ms(10);
    return atomic_load(&g_event);
}

static pmix_status_t fence_all(int timeout_s)
{
    pmix_info_t info;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, itc_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout_s, PMIX_INT);
    pmix_status_t rc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

static int killed_peer(const char *dir, uint32_t size)
{
    pmix_status_t codes[] = {PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_EVENT_PROC_TERMINATED, PMIX_ERR_PROC_ABORTED};
    register_for(codes, 3);
    signal_ready(dir);
    if (itc_me.rank == size - 1) {
        itc_sleep_ms(ITC_ALARM_S * 1000L); /* the test kills it long before */
        return 1;
    }
    pmix_status_t rc = fence_all(ITC_TIMEOUT_S);
    printf("rank %u fence: %s\n", itc_me.rank, itc_err(rc));
    ITC_CHECK(rc != PMIX_SUCCESS, "the fence succeeded although rank %u was killed", size - 1);
    ITC_CHECK(rc != PMIX_ERR_TIMEOUT, "the fence waited for its timeout instead of failing when rank %u died",
              size - 1);
    const int event = wait_for_event(10000);
    printf("rank %u event: %s about rank %u\n", itc_me.rank, itc_err(event), atomic_load(&g_event_rank));
    ITC_CHECK(event != 0, "no termination event");
    ITC_CHECK(atomic_load(&g_event_rank) == size - 1, "the event names rank %u, not the killed rank %u",
              atomic_load(&g_event_rank), size - 1);
    PMIx_Finalize(NULL, 0);
    return itc_finish();
}

static int server_killed(const char *dir)
{
    pmix_status_t code = PMIX_ERR_LOST_CONNECTION;
    register_for(&code, 1);
    signal_ready(dir);
    pmix_status_t rc;
    if (itc_me.rank == 0) {
        rc = fence_all(ITC_TIMEOUT_S * 3);
    } else {
        pmix_proc_t peer;
        pmix_value_t *value = NULL;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, 0);
        rc = PMIx_Get(&peer, "faults.never.put", NULL, 0, &value);
        if (value != NULL) PMIX_VALUE_RELEASE(value);
    }
    const int event = wait_for_event(10000);
    char text[256];
    snprintf(text, sizeof(text), "call %s\nevent %s\n", itc_err(rc), event != 0 ? itc_err(event) : "none");
    write_file(dir, "result", text);
    return rc != PMIX_SUCCESS && event == PMIX_ERR_LOST_CONNECTION ? 0 : 1;
}

int main(int argc, char **argv)
{
    itc_start();
    if (argc < 3) {
        printf("usage: faults killed-peer|server-killed DIR\n");
        return 2;
    }
    if (!itc_init()) return 1;
    const uint32_t size = itc_job_size();
    if (strcmp(argv[1], "killed-peer") == 0) return killed_peer(argv[2], size);
    if (strcmp(argv[1], "server-killed") == 0) return server_killed(argv[2]);
    printf("unknown mode %s\n", argv[1]);
    return 2;
}
