/*
 * PMIx_Process_monitor(_nb) and PMIx_Heartbeat as a client uses them. The
 * client counts the monitor alerts its own handler receives. Timing checks
 * are one-sided: an alert can come late under load, never early.
 *
 *   --mode heartbeat --drops D    beats for D+2 periods (no alert), then stops:
 *                                 none within D-1.5 periods, one within 15 s,
 *                                 and no second one for the same stall
 *   --mode file --path P          watches P's size: grows it for 4 s (no
 *                                 alert), then leaves it alone (an alert)
 *   --mode cancel                 cancels by id (as the monitor and as a
 *                                 directive), unknown ids, then no alert
 *   --mode errors                 PMIX_ERR_INIT before init, bad arguments,
 *                                 unknown monitor type, the per-client bound,
 *                                 heartbeats in both forms, the _nb callback
 *   --mode leave --how H          starts a monitor, then H: "finalize" (stays
 *                                 alive 4 s without beating) or "exit"
 *                                 (_exit without finalize)
 *   --mode hosted --path P        the host's monitor upcall answers a
 *                                 heartbeat monitor (its results come back,
 *                                 the server runs none) and declines a file
 *                                 monitor of P (the server runs it)
 *
 * Every monitor period here is 1 s.
 */
#include "client_util.h"

#include <fcntl.h>

static int alerts;
static int alerts_from_elsewhere;

static int alert_count(void)
{
    return __atomic_load_n(&alerts, __ATOMIC_SEQ_CST);
}

static int is_me(const pmix_proc_t *proc)
{
    return proc != NULL && PMIX_CHECK_PROCID(proc, &itc_me);
}

static void on_alert(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                     pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)results;
    (void)nresults;
    const pmix_proc_t *affected = NULL;
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && info[i].value.type == PMIX_PROC) {
            affected = info[i].value.data.proc;
        }
    }
    if (is_me(source) && is_me(affected)) {
        __atomic_add_fetch(&alerts, 1, __ATOMIC_SEQ_CST);
        printf("rank %u alert %s\n", itc_me.rank, PMIx_Error_string(status));
    } else {
        __atomic_add_fetch(&alerts_from_elsewhere, 1, __ATOMIC_SEQ_CST);
    }
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void register_alerts(void)
{
    pmix_status_t codes[2] = {PMIX_MONITOR_HEARTBEAT_ALERT, PMIX_MONITOR_FILE_ALERT};
    pmix_status_t rc = PMIx_Register_event_handler(codes, 2, NULL, 0, on_alert, NULL, NULL);
    ITC_CHECK(rc >= 0, "register the alert handler: %s", itc_err(rc));
}

/* Waits at most timeout_ms for `count` alerts; true when they came. */
static bool wait_for_alerts(int count, long timeout_ms)
{
    for (long waited = 0; waited < timeout_ms; waited += 50) {
        if (alert_count() >= count) return true;
        itc_sleep_ms(50);
    }
    return alert_count() >= count;
}

static void beat_for(long ms)
{
    for (long done = 0; done < ms; done += 200) {
        PMIx_Heartbeat();
        itc_sleep_ms(200);
    }
}

static pmix_status_t heartbeat_monitor(const char *id, uint32_t period, uint32_t drops, bool with_period)
{
    pmix_info_t monitor, dirs[3];
    bool yes = true;
    size_t ndirs = 0;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    if (with_period) PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_MONITOR_HEARTBEAT_DROPS, &drops, PMIX_UINT32);
    if (id != NULL) PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_MONITOR_ID, id, PMIX_STRING);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Process_monitor(&monitor, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, ndirs, &results, &nresults);
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
    PMIX_INFO_DESTRUCT(&monitor);
    for (size_t i = 0; i < ndirs; ++i) PMIX_INFO_DESTRUCT(&dirs[i]);
    return rc;
}

static pmix_status_t file_monitor(const char *path, bool with_criterion)
{
    pmix_info_t monitor, dirs[4];
    bool yes = true;
    uint32_t period = 1, drops = 1;
    size_t ndirs = 0;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_FILE, path, PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_MONITOR_FILE_CHECK_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_MONITOR_FILE_DROPS, &drops, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_MONITOR_ID, "fm", PMIX_STRING);
    if (with_criterion) PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_MONITOR_FILE_SIZE, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Process_monitor(&monitor, PMIX_MONITOR_FILE_ALERT, dirs, ndirs, NULL, NULL);
    PMIX_INFO_DESTRUCT(&monitor);
    for (size_t i = 0; i < ndirs; ++i) PMIX_INFO_DESTRUCT(&dirs[i]);
    return rc;
}

static pmix_status_t cancel_as_monitor(const char *id)
{
    pmix_info_t monitor;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_CANCEL, id, PMIX_STRING);
    pmix_status_t rc = PMIx_Process_monitor(&monitor, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    PMIX_INFO_DESTRUCT(&monitor);
    return rc;
}

static pmix_status_t cancel_as_directive(const char *id)
{
    pmix_info_t monitor, cancel;
    bool yes = true;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&cancel, PMIX_MONITOR_CANCEL, id, PMIX_STRING);
    pmix_status_t rc = PMIx_Process_monitor(&monitor, PMIX_SUCCESS, &cancel, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&monitor);
    PMIX_INFO_DESTRUCT(&cancel);
    return rc;
}

static void run_heartbeat(long drops)
{
    register_alerts();
    pmix_status_t rc = heartbeat_monitor("hb", 1, (uint32_t)drops, true);
    ITC_CHECK(rc == PMIX_SUCCESS, "heartbeat monitor: %s", itc_err(rc));
    beat_for((drops + 2) * 1000);
    ITC_CHECK(alert_count() == 0, "%d alerts while beating", alert_count());
    if (drops >= 2) {
        /* The D-th quiet period ends at least D periods after the last beat. */
        itc_sleep_ms(drops * 1000 - 1500);
        ITC_CHECK(alert_count() == 0, "an alert after %ld ms without beats, before %ld drops", drops * 1000 - 1500,
                  drops);
    }
    ITC_CHECK(wait_for_alerts(1, 15000), "no alert within 15 s after the beats stopped");
    itc_sleep_ms(2500);
    ITC_CHECK(alert_count() == 1, "%d alerts for one stall", alert_count());
    printf("rank %u heartbeat alerts %d\n", itc_me.rank, alert_count());
}

static void append_line(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) return;
    ITC_CHECK(write(fd, "x\n", 2) == 2, "append to %s", path);
    close(fd);
}

static void run_file(const char *path)
{
    register_alerts();
    append_line(path);
    pmix_status_t rc = file_monitor(path, true);
    ITC_CHECK(rc == PMIX_SUCCESS, "file monitor: %s", itc_err(rc));
    for (int i = 0; i < 20; ++i) {
        append_line(path);
        itc_sleep_ms(200);
    }
    ITC_CHECK(alert_count() == 0, "%d alerts while the file grew", alert_count());
    ITC_CHECK(wait_for_alerts(1, 15000), "no alert within 15 s for an unchanged file");
    printf("rank %u file alerts %d\n", itc_me.rank, alert_count());
}

static void run_cancel(void)
{
    register_alerts();
    pmix_status_t rc = heartbeat_monitor("hb", 1, 1, true);
    ITC_CHECK(rc == PMIX_SUCCESS, "monitor hb: %s", itc_err(rc));
    rc = heartbeat_monitor("other", 1, 1, true);
    ITC_CHECK(rc == PMIX_SUCCESS, "monitor other: %s", itc_err(rc));
    rc = cancel_as_monitor("nope");
    ITC_CHECK(rc == PMIX_ERR_NOT_FOUND, "cancel of an unknown id: %s", itc_err(rc));
    rc = cancel_as_monitor("hb");
    ITC_CHECK(rc == PMIX_SUCCESS, "cancel hb: %s", itc_err(rc));
    rc = cancel_as_directive("other");
    ITC_CHECK(rc == PMIX_SUCCESS, "cancel other as a directive: %s", itc_err(rc));
    rc = cancel_as_monitor("hb");
    ITC_CHECK(rc == PMIX_ERR_NOT_FOUND, "second cancel of hb: %s", itc_err(rc));
    itc_sleep_ms(3500);
    ITC_CHECK(alert_count() == 0, "%d alerts from cancelled monitors", alert_count());
}

struct NbWait {
    int called;
    pmix_status_t status;
};

static void nb_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                    pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void)info;
    (void)ninfo;
    struct NbWait *wait = cbdata;
    wait->status = status;
    __atomic_store_n(&wait->called, 1, __ATOMIC_SEQ_CST);
    if (release_fn != NULL) release_fn(release_cbdata);
}

static void check_before_init(void)
{
    pmix_info_t monitor;
    bool yes = true;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Process_monitor(&monitor, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_INIT, "before init: %s", itc_err(rc));
    rc = PMIx_Process_monitor_nb(&monitor, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_INIT, "before init (nb): %s", itc_err(rc));
    PMIX_INFO_DESTRUCT(&monitor);
}

static void check_heartbeat_forms(void)
{
    pmix_info_t beat;
    PMIX_INFO_LOAD(&beat, PMIX_SEND_HEARTBEAT, NULL, PMIX_POINTER);
    pmix_status_t rc = PMIx_Process_monitor(&beat, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_SUCCESS, "blocking heartbeat: %s", itc_err(rc));
    struct NbWait wait = {0, PMIX_ERROR};
    rc = PMIx_Process_monitor_nb(&beat, PMIX_SUCCESS, NULL, 0, nb_done, &wait);
    ITC_CHECK(rc == PMIX_SUCCESS, "heartbeat (nb): %s", itc_err(rc));
    PMIX_INFO_DESTRUCT(&beat);
    PMIx_Heartbeat();
    itc_sleep_ms(500);
    ITC_CHECK(__atomic_load_n(&wait.called, __ATOMIC_SEQ_CST) == 0, "a heartbeat called its callback");
}

static void check_nb_callback(void)
{
    pmix_info_t monitor, dirs[2];
    bool yes = true;
    uint32_t period = 30;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_ID, "nb", PMIX_STRING);
    struct NbWait wait = {0, PMIX_ERROR};
    pmix_status_t rc = PMIx_Process_monitor_nb(&monitor, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, 2, nb_done, &wait);
    ITC_CHECK(rc == PMIX_SUCCESS, "monitor (nb): %s", itc_err(rc));
    for (int i = 0; i < 200 && !__atomic_load_n(&wait.called, __ATOMIC_SEQ_CST); ++i) itc_sleep_ms(50);
    ITC_CHECK(wait.called && wait.status == PMIX_SUCCESS, "nb callback: called %d, %s", wait.called,
              itc_err(wait.status));
    ITC_CHECK(cancel_as_monitor("nb") == PMIX_SUCCESS, "cancel nb");
    PMIX_INFO_DESTRUCT(&monitor);
    PMIX_INFO_DESTRUCT(&dirs[0]);
    PMIX_INFO_DESTRUCT(&dirs[1]);
}

static void check_bound(void)
{
    int started = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    for (int i = 0; i < 1000 && rc == PMIX_SUCCESS; ++i) {
        rc = heartbeat_monitor("bound", 60, 1, true);
        if (rc == PMIX_SUCCESS) ++started;
    }
    ITC_CHECK(rc == PMIX_ERR_OUT_OF_RESOURCE, "over the bound: %s", itc_err(rc));
    ITC_CHECK(started == 64, "%d monitors before the bound", started);
    rc = cancel_as_monitor("bound");
    ITC_CHECK(rc == PMIX_SUCCESS, "cancel the bound's monitors: %s", itc_err(rc));
    rc = heartbeat_monitor("again", 60, 1, true);
    ITC_CHECK(rc == PMIX_SUCCESS, "a monitor after cancelling: %s", itc_err(rc));
}

static void run_errors(void)
{
    pmix_status_t rc = PMIx_Process_monitor(NULL, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "NULL monitor: %s", itc_err(rc));
    rc = PMIx_Process_monitor_nb(NULL, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "NULL monitor (nb): %s", itc_err(rc));
    rc = heartbeat_monitor("no-time", 1, 1, false);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "heartbeat monitor without a period: %s", itc_err(rc));
    rc = heartbeat_monitor("no-drops", 1, 0, true);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "heartbeat monitor with 0 drops: %s", itc_err(rc));
    rc = file_monitor("/tmp", false);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "file monitor without a criterion: %s", itc_err(rc));
    pmix_info_t unknown;
    PMIX_INFO_LOAD(&unknown, "pmix.test.nosuchmonitor", "x", PMIX_STRING);
    rc = PMIx_Process_monitor(&unknown, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_NOT_SUPPORTED, "unknown monitor type: %s", itc_err(rc));
    PMIX_INFO_DESTRUCT(&unknown);
    check_heartbeat_forms();
    check_nb_callback();
    check_bound();
}

static void run_leave(const char *how)
{
    /* A 2 s period: the server must see the client go before it, also on a
     * loaded machine under TSan (1 s was once too short there). */
    pmix_status_t rc = heartbeat_monitor("left", 2, 1, true);
    ITC_CHECK(rc == PMIX_SUCCESS, "monitor: %s", itc_err(rc));
    printf("rank %u monitor started\n", itc_me.rank);
    if (strcmp(how, "exit") == 0) _exit(itc_finish());
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "finalize: %s", itc_err(rc));
    itc_sleep_ms(4000); /* alive, finalized, not beating */
    exit(itc_finish());
}

static void run_hosted(const char *path)
{
    register_alerts();
    pmix_info_t monitor, dirs[2];
    bool yes = true;
    uint32_t period = 1;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_ID, "byhost", PMIX_STRING);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Process_monitor(&monitor, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, 2, &results, &nresults);
    ITC_CHECK(rc == PMIX_SUCCESS, "monitor through the host: %s", itc_err(rc));
    ITC_CHECK(nresults == 1 && results != NULL && PMIX_CHECK_KEY(&results[0], "pmix.test.monitored") &&
                  results[0].value.type == PMIX_UINT32 && results[0].value.data.uint32 == 42,
              "the host's results did not come back (%zu results)", nresults);
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
    PMIX_INFO_DESTRUCT(&monitor);
    PMIX_INFO_DESTRUCT(&dirs[0]);
    PMIX_INFO_DESTRUCT(&dirs[1]);
    itc_sleep_ms(3500); /* no beats: only a monitor of the server's own would alert */
    ITC_CHECK(alert_count() == 0, "%d alerts for a monitor the host took", alert_count());
    rc = file_monitor(path, true);
    ITC_CHECK(rc == PMIX_SUCCESS, "file monitor the host declined: %s", itc_err(rc));
    ITC_CHECK(wait_for_alerts(1, 15000), "no alert from the server's own file monitor");
}

int main(int argc, char **argv)
{
    itc_start();
    const char *mode = itc_arg(argc, argv, "--mode");
    if (mode == NULL) mode = "errors";
    if (strcmp(mode, "errors") == 0) check_before_init();
    if (!itc_init()) return 1;
    if (strcmp(mode, "heartbeat") == 0) run_heartbeat(itc_arg_long(argc, argv, "--drops", 1));
    else if (strcmp(mode, "file") == 0) run_file(itc_arg(argc, argv, "--path"));
    else if (strcmp(mode, "cancel") == 0) run_cancel();
    else if (strcmp(mode, "errors") == 0) run_errors();
    else if (strcmp(mode, "leave") == 0) run_leave(itc_arg(argc, argv, "--how"));
    else if (strcmp(mode, "hosted") == 0) run_hosted(itc_arg(argc, argv, "--path"));
    else ITC_CHECK(0, "unknown mode %s", mode);
    ITC_CHECK(__atomic_load_n(&alerts_from_elsewhere, __ATOMIC_SEQ_CST) == 0, "alerts about another process");
    PMIx_Finalize(NULL, 0);
    return itc_finish();
}
