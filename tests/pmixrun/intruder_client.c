/* A job that tries to act on what is not its own (a hostile peer).
 *   intruder_client parent     allocates two child sessions S1 and S2,
 *                              spawns a victim job into S2 and an intruder
 *                              job into S1, waits for the intruder to end,
 *                              then terminates the victim itself (allowed:
 *                              it spawned it) and prints the outcome.
 *   intruder_client victim     sleeps until terminated.
 *   intruder_client intruder VICTIM S2 PARENT
 *                              tries to kill the victim, terminate its
 *                              parent's job, terminate session S2 and spawn
 *                              into S2: each must be refused with
 *                              PMIX_ERR_NO_PERMISSIONS. Exit 0 when all were.
 *   intruder_client flood      (pmixrun --max-procs 4, itself 1 process)
 *                              asks for INT_MAX processes, then for two
 *                              applications of 3: each must be refused with
 *                              PMIX_ERR_OUT_OF_RESOURCE. Then 2 processes,
 *                              which fit, run to their end.
 *   intruder_client quick      initializes, finalizes and exits 0.
 *   intruder_client foreign-tool
 *                              (pmixrun run as root with --mca ptl tcp) forks
 *                              a process that becomes uid/gid 65534 (nobody)
 *                              and dials pmixrun as a tool over its loopback
 *                              tcp address (the 0600 socket would stop it
 *                              before pmixrun's own rule is reached). Its
 *                              tool init must fail with
 *                              PMIX_ERR_NO_PERMISSIONS. */
#include <pmix.h>
#include <pmix_tool.h>

#include <grp.h>
#include <sys/wait.h>

#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_bool spawned_job_ended = false;
static pmix_proc_t g_me;

static void on_job_end(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                       pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)status;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    spawned_job_ended = true;
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static uint32_t allocate(const char *request_id)
{
    pmix_info_t info;
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    uint32_t session = 0;
    PMIX_INFO_LOAD(&info, PMIX_ALLOC_REQ_ID, request_id, PMIX_STRING);
    pmix_status_t rc = PMIx_Allocation_request(PMIX_ALLOC_NEW, &info, 1, &results, &nresults);
    PMIX_INFO_DESTRUCT(&info);
    for (size_t i = 0; i < nresults; ++i) {
        if (strcmp(results[i].key, PMIX_SESSION_ID) == 0) session = results[i].value.data.uint32;
    }
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
    printf("parent: allocation %s: %s, session %u\n", request_id, PMIx_Error_string(rc), session);
    return session;
}

static pmix_status_t spawn_into(uint32_t session, bool notify, char **argv, pmix_nspace_t nspace)
{
    pmix_info_t info[2];
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], PMIX_SESSION_ID, &session, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(argv[0]);
    PMIX_ARGV_COPY(app.argv, argv);
    app.maxprocs = 1;
    pmix_status_t rc = PMIx_Spawn(info, notify ? 2 : 1, &app, 1, nspace);
    PMIX_APP_DESTRUCT(&app);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return rc;
}

static pmix_status_t job_control(const char *nspace, const char *directive)
{
    pmix_proc_t target;
    pmix_info_t info;
    bool yes = true;
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    PMIX_LOAD_PROCID(&target, nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, directive, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Job_control(&target, 1, &info, 1, &results, &nresults);
    PMIX_INFO_DESTRUCT(&info);
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
    return rc;
}

static int run_parent(const char *self)
{
    pmix_status_t code = PMIX_EVENT_JOB_END;
    PMIx_Register_event_handler(&code, 1, NULL, 0, on_job_end, NULL, NULL);
    const uint32_t s1 = allocate("intruder-s1");
    const uint32_t s2 = allocate("victim-s2");
    pmix_nspace_t victim, intruder;
    char *victim_argv[] = {(char *)self, "victim", NULL};
    pmix_status_t rc = spawn_into(s2, false, victim_argv, victim);
    printf("parent: spawned the victim: %s\n", PMIx_Error_string(rc));
    if (rc != PMIX_SUCCESS) return 1;
    char s2_text[16];
    snprintf(s2_text, sizeof s2_text, "%u", s2);
    char *intruder_argv[] = {(char *)self, "intruder", victim, s2_text, g_me.nspace, NULL};
    rc = spawn_into(s1, true, intruder_argv, intruder);
    printf("parent: spawned the intruder: %s\n", PMIx_Error_string(rc));
    for (int waited = 0; rc == PMIX_SUCCESS && !spawned_job_ended && waited < 30000; waited += 10) usleep(10000);
    printf("parent: the intruder %s\n", spawned_job_ended ? "ended" : "did not end within 30 s");
    rc = job_control(victim, PMIX_JOB_CTRL_TERMINATE);
    printf("parent: terminating the victim it spawned: %s\n", PMIx_Error_string(rc));
    return spawned_job_ended && rc == PMIX_SUCCESS ? 0 : 1;
}

/* One application per count, each running `self quick`. */
static pmix_status_t spawn_quick(const char *self, const int *counts, size_t napps, pmix_nspace_t nspace)
{
    pmix_info_t notify;
    bool yes = true;
    PMIX_INFO_LOAD(&notify, PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    pmix_app_t *apps = NULL;
    PMIX_APP_CREATE(apps, napps);
    char *argv[] = {(char *)self, "quick", NULL};
    for (size_t a = 0; a < napps; ++a) {
        apps[a].cmd = strdup(self);
        PMIX_ARGV_COPY(apps[a].argv, argv);
        apps[a].maxprocs = counts[a];
    }
    pmix_status_t rc = PMIx_Spawn(&notify, 1, apps, napps, nspace);
    PMIX_APP_FREE(apps, napps);
    PMIX_INFO_DESTRUCT(&notify);
    return rc;
}

static int run_flood(const char *self)
{
    pmix_status_t code = PMIX_EVENT_JOB_END;
    PMIx_Register_event_handler(&code, 1, NULL, 0, on_job_end, NULL, NULL);
    pmix_nspace_t nspace;
    int failures = 0;
    const int all[] = {2147483647};
    pmix_status_t rc = spawn_quick(self, all, 1, nspace);
    printf("flood: 2147483647 processes: %s\n", PMIx_Error_string(rc));
    failures += rc == PMIX_ERR_OUT_OF_RESOURCE ? 0 : 1;
    const int two_apps[] = {3, 3};
    rc = spawn_quick(self, two_apps, 2, nspace);
    printf("flood: 3 + 3 processes next to 1: %s\n", PMIx_Error_string(rc));
    failures += rc == PMIX_ERR_OUT_OF_RESOURCE ? 0 : 1;
    const int fits[] = {2};
    rc = spawn_quick(self, fits, 1, nspace);
    printf("flood: 2 processes: %s\n", PMIx_Error_string(rc));
    failures += rc == PMIX_SUCCESS ? 0 : 1;
    for (int waited = 0; rc == PMIX_SUCCESS && !spawned_job_ended && waited < 30000; waited += 10) usleep(10000);
    printf("flood: the spawned job %s\n", spawned_job_ended ? "ended" : "did not end within 30 s");
    return failures == 0 && spawned_job_ended ? 0 : 1;
}

static int expect_refused(const char *what, pmix_status_t rc)
{
    printf("intruder: %s: %s\n", what, PMIx_Error_string(rc));
    return rc == PMIX_ERR_NO_PERMISSIONS ? 0 : 1;
}

static int run_intruder(const char *self, const char *victim, const char *s2_text, const char *parent)
{
    const uint32_t s2 = (uint32_t)strtoul(s2_text, NULL, 10);
    int failures = 0;
    failures += expect_refused("kill the victim job", job_control(victim, PMIX_JOB_CTRL_KILL));
    failures += expect_refused("terminate the parent job", job_control(parent, PMIX_JOB_CTRL_TERMINATE));
    pmix_info_t terminate;
    bool yes = true;
    PMIX_INFO_LOAD(&terminate, PMIX_SESSION_TERMINATE, &yes, PMIX_BOOL);
    failures += expect_refused("terminate the victim's session", PMIx_Session_control(s2, &terminate, 1, NULL, NULL));
    PMIX_INFO_DESTRUCT(&terminate);
    pmix_nspace_t spawned;
    char *argv[] = {(char *)self, "victim", NULL};
    failures += expect_refused("spawn into the victim's session", spawn_into(s2, false, argv, spawned));
    return failures == 0 ? 0 : 1;
}

#define NOBODY 65534

// The child's side of foreign-tool: it is not a client of the job any more,
// so none of the job's PMIX_ variables may lead its tool init astray.
static int dial_as_nobody(const char *uri)
{
    static const char *const job_variables[] = {"PMIX_NAMESPACE",   "PMIX_RANK",        "PMIX_SERVER_URI41",
                                                "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI2",
                                                "PMIX_SERVER_URI21"};
    for (size_t i = 0; i < sizeof job_variables / sizeof job_variables[0]; ++i) unsetenv(job_variables[i]);
    if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0) {
        printf("foreign-tool: could not become uid %d (run pmixrun as root)\n", NOBODY);
        return 1;
    }
    pmix_info_t info;
    pmix_proc_t me;
    PMIX_INFO_LOAD(&info, PMIX_SERVER_URI, uri, PMIX_STRING);
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    printf("foreign-tool: tool init as uid %d: %s\n", NOBODY, PMIx_Error_string(rc));
    if (rc == PMIX_SUCCESS) PMIx_tool_finalize();
    return rc == PMIX_ERR_NO_PERMISSIONS ? 0 : 1;
}

// Forks before any PMIx thread exists, so the child starts clean.
static int run_foreign_tool(void)
{
    const char *line = getenv("PMIX_SERVER_URI41");
    const char *uri = line != NULL ? strchr(line, ';') : NULL;
    if (uri == NULL) {
        printf("foreign-tool: no PMIX_SERVER_URI41 in the environment\n");
        return 1;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        const int code = dial_as_nobody(uri + 1);
        fflush(stdout);
        _exit(code);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "foreign-tool") == 0) return run_foreign_tool();
    if (PMIx_Init(&g_me, NULL, 0) != PMIX_SUCCESS) return 2;
    int code = 2;
    if (argc > 1 && strcmp(argv[1], "parent") == 0) code = run_parent(argv[0]);
    if (argc > 1 && strcmp(argv[1], "flood") == 0) code = run_flood(argv[0]);
    if (argc > 1 && strcmp(argv[1], "quick") == 0) code = 0;
    if (argc > 1 && strcmp(argv[1], "victim") == 0) {
        printf("victim: running\n");
        sleep(60);
        code = 0;
    }
    if (argc > 4 && strcmp(argv[1], "intruder") == 0) code = run_intruder(argv[0], argv[2], argv[3], argv[4]);
    PMIx_Finalize(NULL, 0);
    return code;
}
