/* spawn: a job that starts another job. Rank 0 of the parent spawns two
 * copies of this program (with --child), asks to hear when that job ends
 * (PMIX_EVENT_JOB_END), and waits for it. The children say who spawned
 * them (PMIX_PARENT_ID) and meet in a fence of their own job; then they and
 * the parent's rank 0 connect (PMIx_Connect), read each other's data and
 * disconnect, the way MPI_Comm_spawn's intercommunicator is made.
 *
 * With --terminate, the children would run for a minute; the parent ends
 * them early with PMIx_Job_control(PMIX_JOB_CTRL_TERMINATE) instead.
 *
 *   pmixrun -n 2 build/examples/spawn [--terminate]
 */
#include <pmix.h>

#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static atomic_bool child_job_ended = false;
static atomic_int child_job_exit_code = -1;

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
            child_job_exit_code = info[i].value.data.integer;
        }
    }
    child_job_ended = true;
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* The parent's rank 0 and the whole child job connect, each side reads
 * the other's data (the parent's greeting, the child job's size), and
 * they disconnect. */
static pmix_status_t meet_the_other_side(const pmix_proc_t *me, const pmix_proc_t *parent_rank0,
                                         const char *child_nspace, bool i_am_parent)
{
    pmix_proc_t procs[2];
    procs[0] = *parent_rank0;
    PMIX_LOAD_PROCID(&procs[1], child_nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Connect(procs, 2, NULL, 0);
    pmix_value_t *value = NULL;
    if (rc == PMIX_SUCCESS && i_am_parent) {
        rc = PMIx_Get(&procs[1], PMIX_JOB_SIZE, NULL, 0, &value);
        if (rc == PMIX_SUCCESS) printf("parent: connected to the child job of %u processes\n", value->data.uint32);
    } else if (rc == PMIX_SUCCESS) {
        rc = PMIx_Get(parent_rank0, "spawn.greeting", NULL, 0, &value);
        if (rc == PMIX_SUCCESS)
            printf("child rank %u: connected; the parent says \"%s\"\n", me->rank, value->data.string);
    }
    if (value != NULL) PMIX_VALUE_RELEASE(value);
    pmix_status_t gone = PMIx_Disconnect(procs, 2, NULL, 0);
    if (i_am_parent)
        printf("parent: PMIx_Connect/Get/Disconnect: %s, %s\n", PMIx_Error_string(rc), PMIx_Error_string(gone));
    fflush(stdout);
    return rc == PMIX_SUCCESS ? gone : rc;
}

static int run_child(const pmix_proc_t *me, bool linger)
{
    pmix_proc_t job = *me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *value = NULL;
    pmix_proc_t parent = {{0}, 0};
    if (PMIx_Get(&job, PMIX_PARENT_ID, NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_PROC) {
        parent = *value->data.proc;
        PMIX_VALUE_RELEASE(value);
    }
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    printf("child rank %u: spawned by rank %u of %s; fence %s\n", me->rank, parent.rank,
           parent.nspace[0] != '\0' ? "the parent job" : "nobody", PMIx_Error_string(rc));
    fflush(stdout);
    if (linger) sleep(60); /* the parent terminates us first */
    if (rc == PMIX_SUCCESS) rc = meet_the_other_side(me, &parent, me->nspace, false);
    return rc == PMIX_SUCCESS ? 0 : 1;
}

static pmix_status_t spawn_children(const char *self, bool linger, pmix_nspace_t child_nspace)
{
    char *argv[] = {(char *)self, "--child", linger ? "--linger" : NULL, NULL};
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(self);
    PMIX_ARGV_COPY(app.argv, argv);
    app.maxprocs = 2;
    pmix_info_t notify;
    bool yes = true;
    PMIX_INFO_LOAD(&notify, PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Spawn(&notify, 1, &app, 1, child_nspace);
    PMIX_INFO_DESTRUCT(&notify);
    PMIX_APP_DESTRUCT(&app);
    return rc;
}

static int run_parent(const pmix_proc_t *me, const char *self, bool terminate)
{
    pmix_status_t rc = PMIX_SUCCESS;
    if (me->rank == 0) {
        pmix_value_t greeting;
        PMIX_VALUE_LOAD(&greeting, "welcome, children", PMIX_STRING);
        PMIx_Put(PMIX_GLOBAL, "spawn.greeting", &greeting);
        PMIX_VALUE_DESTRUCT(&greeting);
        PMIx_Commit();
        pmix_status_t code = PMIX_EVENT_JOB_END;
        PMIx_Register_event_handler(&code, 1, NULL, 0, on_job_end, NULL, NULL);
        pmix_nspace_t child;
        rc = spawn_children(self, terminate, child);
        printf("parent: PMIx_Spawn: %s\n", PMIx_Error_string(rc));
        fflush(stdout);
        if (rc == PMIX_SUCCESS && terminate) {
            sleep(1); /* let the children say hello */
            pmix_proc_t target;
            PMIX_LOAD_PROCID(&target, child, PMIX_RANK_WILDCARD);
            pmix_info_t stop;
            bool yes = true;
            PMIX_INFO_LOAD(&stop, PMIX_JOB_CTRL_TERMINATE, &yes, PMIX_BOOL);
            pmix_status_t ctl = PMIx_Job_control(&target, 1, &stop, 1, NULL, NULL);
            PMIX_INFO_DESTRUCT(&stop);
            printf("parent: PMIx_Job_control(terminate): %s\n", PMIx_Error_string(ctl));
        } else if (rc == PMIX_SUCCESS) {
            rc = meet_the_other_side(me, me, child, true);
        }
        for (int t = 0; rc == PMIX_SUCCESS && t < 600 && !child_job_ended; ++t) usleep(100000);
        printf("parent: the child job %s (exit code %d)\n", child_job_ended ? "ended" : "did not end",
               child_job_exit_code);
        if (!child_job_ended) rc = PMIX_ERR_TIMEOUT;
    }
    pmix_status_t fence = PMIx_Fence(NULL, 0, NULL, 0); /* the parent's ranks finish together */
    return rc == PMIX_SUCCESS && fence == PMIX_SUCCESS ? 0 : 1;
}

int main(int argc, char **argv)
{
    bool child = false, linger = false, terminate = false;
    for (int i = 1; i < argc; ++i) {
        child = child || strcmp(argv[i], "--child") == 0;
        linger = linger || strcmp(argv[i], "--linger") == 0;
        terminate = terminate || strcmp(argv[i], "--terminate") == 0;
    }
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "spawn: PMIx_Init failed: %s (run me under pmixrun)\n", PMIx_Error_string(rc));
        return 1;
    }
    int code = child ? run_child(&me, linger) : run_parent(&me, argv[0], terminate);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return code;
}
