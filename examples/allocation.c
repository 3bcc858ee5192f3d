/* allocation: a process asks its launcher for an allocation of its own (a
 * child session), runs a job in it, and lets the sessions' rules decide
 * how long that job lives. Rank 0:
 *   1. PMIx_Allocation_request(PMIX_ALLOC_NEW) with its own request id
 *      (PMIX_ALLOC_REQ_ID), optionally separated from its session
 *      (--separate: PMIX_ALLOC_CHILD_SEP);
 *   2. shows that a spawn into an unknown session is refused;
 *   3. spawns a worker into the new session, found by the request id;
 *   4. lists the sessions (PMIx_Query_info, PMIX_QUERY_ALLOCATION);
 *   5. with --terminate, ends the session (PMIx_Session_control) and waits
 *      for the worker job's end; otherwise simply exits. Its job's end ends
 *      the launcher's session and with it the child session and the worker,
 *      unless the child session was separated: then the worker runs on,
 *      finishes its work and pmixrun waits for it.
 * The worker writes DIR/worker.pid, then works (60 s, or 1 s when
 * separated) and writes DIR/worker.done.
 *
 *   pmixrun build/examples/allocation DIR [--separate | --terminate]
 */
#include <pmix.h>

#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static atomic_bool worker_ended = false;
static atomic_int worker_exit_code = -1;

static void on_job_end(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                       pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)status;
    (void)source;
    (void)results;
    (void)nresults;
    for (size_t i = 0; i < ninfo; ++i) {
        if (strcmp(info[i].key, PMIX_EXIT_CODE) == 0 && info[i].value.type == PMIX_INT) {
            worker_exit_code = info[i].value.data.integer;
        }
    }
    worker_ended = true;
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static int run_worker(const char *dir, bool quick)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/worker.pid", dir);
    FILE *out = fopen(path, "w");
    if (out == NULL) return 1;
    fprintf(out, "%d\n", (int)getpid());
    fclose(out);
    sleep(quick ? 1 : 60);
    snprintf(path, sizeof path, "%s/worker.done", dir);
    out = fopen(path, "w");
    if (out != NULL) fclose(out);
    return 0;
}

static pmix_status_t request_allocation(bool separate, uint32_t *session_p)
{
    pmix_info_t info[2];
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], PMIX_ALLOC_REQ_ID, "example-request", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_ALLOC_CHILD_SEP, &yes, PMIX_BOOL);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Allocation_request(PMIX_ALLOC_NEW, info, separate ? 2 : 1, &results, &nresults);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    const char *alloc_id = "?";
    for (size_t i = 0; i < nresults; ++i) {
        if (strcmp(results[i].key, PMIX_SESSION_ID) == 0) *session_p = results[i].value.data.uint32;
        if (strcmp(results[i].key, PMIX_ALLOC_ID) == 0) alloc_id = results[i].value.data.string;
    }
    printf("allocation request: %s: session %u (allocation %s)%s\n", PMIx_Error_string(rc), *session_p, alloc_id,
           separate ? ", separated from its parent" : "");
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
    return rc;
}

/* Spawns the worker with one job-level attribute choosing its session. */
static pmix_status_t spawn_worker(const char *self, const char *dir, bool quick, pmix_info_t *where,
                                  pmix_nspace_t nspace)
{
    char *argv[] = {(char *)self, (char *)dir, "--worker", quick ? "--quick" : NULL, NULL};
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(self);
    PMIX_ARGV_COPY(app.argv, argv);
    app.maxprocs = 1;
    pmix_status_t rc = PMIx_Spawn(where, 1, &app, 1, nspace);
    PMIX_APP_DESTRUCT(&app);
    return rc;
}

static void list_sessions(void)
{
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    char *keys[] = {PMIX_QUERY_ALLOCATION, NULL};
    PMIX_ARGV_COPY(query.keys, keys);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Query_info(&query, 1, &results, &nresults);
    PMIX_QUERY_DESTRUCT(&query);
    for (size_t i = 0; rc == PMIX_SUCCESS && i < nresults; ++i) {
        if (results[i].value.type != PMIX_DATA_ARRAY) continue;
        const pmix_data_array_t *sessions = results[i].value.data.darray;
        for (size_t s = 0; s < sessions->size; ++s) {
            const pmix_info_t *entry = &((const pmix_info_t *)sessions->array)[s];
            const pmix_data_array_t *fields = entry->value.data.darray;
            uint32_t id = 0;
            const char *state = "?";
            bool has_parent = false;
            for (size_t f = 0; f < fields->size; ++f) {
                const pmix_info_t *field = &((const pmix_info_t *)fields->array)[f];
                if (strcmp(field->key, PMIX_SESSION_ID) == 0) id = field->value.data.uint32;
                if (strcmp(field->key, "pmixrun.ssn.state") == 0) state = field->value.data.string;
                if (strcmp(field->key, "pmixrun.ssn.parent") == 0) has_parent = true;
            }
            printf("session %u: %s, %s\n", id, state, has_parent ? "a child session" : "the launcher's session");
        }
    }
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
}

static bool wait_for_file(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (int t = 0; t < 200; ++t) {
        if (access(path, F_OK) == 0) return true;
        usleep(50000);
    }
    return false;
}

static int run_parent(const char *self, const char *dir, bool separate, bool terminate)
{
    uint32_t session = 0;
    if (request_allocation(separate, &session) != PMIX_SUCCESS) return 1;
    pmix_status_t code = PMIX_EVENT_JOB_END;
    PMIx_Register_event_handler(&code, 1, NULL, 0, on_job_end, NULL, NULL);

    pmix_info_t where;
    uint32_t unknown = 999;
    PMIX_INFO_LOAD(&where, PMIX_SESSION_ID, &unknown, PMIX_UINT32);
    pmix_nspace_t nspace;
    printf("spawn into session 999: %s\n", PMIx_Error_string(spawn_worker(self, dir, separate, &where, nspace)));
    PMIX_INFO_DESTRUCT(&where);

    PMIX_INFO_LOAD(&where, PMIX_ALLOC_REQ_ID, "example-request", PMIX_STRING);
    pmix_status_t rc = spawn_worker(self, dir, separate, &where, nspace);
    PMIX_INFO_DESTRUCT(&where);
    printf("spawn into the new session: %s\n", PMIx_Error_string(rc));
    if (rc != PMIX_SUCCESS || !wait_for_file(dir, "worker.pid")) return 1;
    list_sessions();
    fflush(stdout);
    if (!terminate) return 0;
    pmix_info_t end;
    bool yes = true;
    PMIX_INFO_LOAD(&end, PMIX_SESSION_TERMINATE, &yes, PMIX_BOOL);
    rc = PMIx_Session_control(session, &end, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&end);
    printf("session control (terminate): %s\n", PMIx_Error_string(rc));
    for (int t = 0; t < 200 && !worker_ended; ++t) usleep(50000);
    printf("the worker's job %s (exit code %d)\n", worker_ended ? "ended" : "did not end", worker_exit_code);
    return worker_ended ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] != '/') {
        fprintf(stderr, "usage: allocation ABSOLUTE-DIR [--separate | --terminate]\n");
        return 2;
    }
    bool worker = false, quick = false, separate = false, terminate = false;
    for (int i = 2; i < argc; ++i) {
        worker = worker || strcmp(argv[i], "--worker") == 0;
        quick = quick || strcmp(argv[i], "--quick") == 0;
        separate = separate || strcmp(argv[i], "--separate") == 0;
        terminate = terminate || strcmp(argv[i], "--terminate") == 0;
    }
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "allocation: PMIx_Init failed (run me under pmixrun)\n");
        return 1;
    }
    int code = 0;
    if (worker) {
        code = run_worker(argv[1], quick);
    } else if (me.rank == 0) {
        code = run_parent(argv[0], argv[1], separate, terminate);
    }
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return code;
}
