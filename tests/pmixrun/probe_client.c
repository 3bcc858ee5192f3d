/* A client for the pmixrun tests: prints what it was given, then does what
 * its arguments say.
 *   probe_client [--abort STATUS] [--env NAME]... [--read-stdin] [--watch-exit] [--locality]
 *                [--query] [--fail-first] [--job-info]
 * Prints "rank R size S appnum A app_rank P", "env NAME VALUE" lines,
 * "stdin <bytes>" after reading stdin to its end, "cpuset <PMIX_CPUSET>"
 * "locality <PMIX_LOCALITY_STRING>" and "peers <PMIX_LOCAL_PEERS>" with
 * --locality; --query: rank 0 prints what the host answers to the queries
 * tools make; --fail-first: rank 0 exits 1 after a fence, the others print
 * the failure event they hear; --job-info: rank 0 prints the status of an
 * informational job-control request; --spawn N MAPBY: rank 0 spawns N
 * copies of this probe with --binding (PMIX_MAPBY MAPBY unless "-"), prints
 * "spawn STATUS", and waits for that job's end; the other ranks wait for
 * rank 0 in a fence; --spawn-late S: rank 0 spawns `sh -c "sleep S; echo
 * late child done"` and does not wait for it; --watch-exit: rank 0 prints
 * rank 1's exit event and how many events its default handler saw. */
#define _GNU_SOURCE 1
#include <sched.h>

#include <hwloc.h>
#include <pmix.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_int terminated_rank = -1;
static atomic_int terminated_code = -1;

static void on_terminated(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                          pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                          void *cbdata)
{
    (void)id;
    (void)status;
    (void)source;
    (void)results;
    (void)nresults;
    for (size_t i = 0; i < ninfo; ++i) {
        if (strcmp(info[i].key, PMIX_EVENT_AFFECTED_PROC) == 0 && info[i].value.type == PMIX_PROC) {
            terminated_rank = (int)info[i].value.data.proc->rank;
        } else if (strcmp(info[i].key, PMIX_EXIT_CODE) == 0 && info[i].value.type == PMIX_INT) {
            terminated_code = info[i].value.data.integer;
        }
    }
    /* PMIX_SUCCESS passes the event on down the chain: a default handler
     * would be next, unless the notifier excluded default handlers. */
    if (cbfunc != NULL) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* Events that reached the default handler (one registered for every code). */
static atomic_int default_handler_calls = 0;

static void on_any_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                         pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                         void *cbdata)
{
    (void)id;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    printf("default handler got %s\n", PMIx_Error_string(status));
    ++default_handler_calls;
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static atomic_int failed_rank = -1;
static atomic_int failed_code = -1;

static void on_failure(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                       pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)status;
    (void)source;
    (void)results;
    (void)nresults;
    int code = -1;
    for (size_t i = 0; i < ninfo; ++i) {
        if (strcmp(info[i].key, PMIX_EXIT_CODE) == 0 && info[i].value.type == PMIX_INT)
            code = info[i].value.data.integer;
    }
    for (size_t i = 0; i < ninfo; ++i) {
        if (strcmp(info[i].key, PMIX_EVENT_AFFECTED_PROC) == 0 && info[i].value.type == PMIX_PROC) {
            failed_code = code;
            failed_rank = (int)info[i].value.data.proc->rank;
        }
    }
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* One query of `key` (with a PMIX_NSPACE qualifier when nspace is given). */
static pmix_status_t query_one(const char *key, const char *nspace, pmix_info_t **results, size_t *nresults)
{
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    char *keys[] = {(char *)key, NULL};
    query.keys = keys;
    pmix_info_t qualifier;
    if (nspace != NULL) {
        PMIX_INFO_LOAD(&qualifier, PMIX_NSPACE, nspace, PMIX_STRING);
        query.qualifiers = &qualifier;
        query.nqual = 1;
    }
    pmix_status_t rc = PMIx_Query_info(&query, 1, results, nresults);
    if (nspace != NULL) PMIX_INFO_DESTRUCT(&qualifier);
    return rc;
}

static void print_queries(const pmix_proc_t *me)
{
    const char *strings[] = {PMIX_QUERY_SPAWN_SUPPORT, PMIX_QUERY_DEBUG_SUPPORT, PMIX_SERVER_URI};
    for (int k = 0; k < 3; ++k) {
        pmix_info_t *results = NULL;
        size_t n = 0;
        pmix_status_t rc = query_one(strings[k], NULL, &results, &n);
        const int ok = rc == PMIX_SUCCESS && n == 1 && results[0].value.type == PMIX_STRING;
        printf("query %s: %s \"%s\"\n", strings[k], PMIx_Error_string(rc), ok ? results[0].value.data.string : "");
        if (results != NULL) PMIX_INFO_FREE(results, n);
    }
    pmix_info_t *results = NULL;
    size_t n = 0;
    pmix_status_t rc = query_one(PMIX_JOB_SIZE, me->nspace, &results, &n);
    printf("query job size: %s %u\n", PMIx_Error_string(rc),
           rc == PMIX_SUCCESS && n == 1 && results[0].value.type == PMIX_UINT32 ? results[0].value.data.uint32 : 0u);
    if (results != NULL) PMIX_INFO_FREE(results, n);
    results = NULL;
    rc = query_one(PMIX_QUERY_NAMESPACE_INFO, NULL, &results, &n);
    if (rc == PMIX_SUCCESS && n == 1 && results[0].value.type == PMIX_DATA_ARRAY) {
        const pmix_data_array_t *jobs = results[0].value.data.darray;
        const pmix_info_t *rows = (const pmix_info_t *)jobs->array;
        for (size_t j = 0; j < jobs->size; ++j) {
            const pmix_data_array_t *row = rows[j].value.data.darray;
            const pmix_info_t *items = (const pmix_info_t *)row->array;
            for (size_t i = 0; i < row->size; ++i) {
                printf("nsinfo %s %s\n", items[i].key, PMIx_Data_type_string(items[i].value.type));
            }
        }
    } else {
        printf("nsinfo failed: %s\n", PMIx_Error_string(rc));
    }
    if (results != NULL) PMIX_INFO_FREE(results, n);
}

/* Whether the launcher (our parent) has a file whose path holds `needle`
 * mapped: "launcher maps <needle> yes|no". */
static void print_launcher_maps(const char *needle)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)getppid());
    FILE *maps = fopen(path, "r");
    int found = 0;
    char line[4096];
    while (maps != NULL && !found && fgets(line, sizeof line, maps) != NULL) found = strstr(line, needle) != NULL;
    if (maps != NULL) fclose(maps);
    printf("launcher maps %s %s\n", needle, maps == NULL ? "(unreadable)" : found ? "yes" : "no");
}

/* Its own PMIX_PROCDIR, and whether that directory is there once asked
 * for: "procdir <path> exists|missing". */
static void print_procdir(const pmix_proc_t *me)
{
    pmix_value_t *value = NULL;
    if (PMIx_Get(me, PMIX_PROCDIR, NULL, 0, &value) != PMIX_SUCCESS || value->type != PMIX_STRING) {
        printf("procdir (none)\n");
    } else {
        struct stat st;
        const int there = stat(value->data.string, &st) == 0 && S_ISDIR(st.st_mode);
        printf("procdir %s %s\n", value->data.string, there ? "exists" : "missing");
    }
    if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static uint32_t get_u32(const pmix_proc_t *proc, const char *key)
{
    pmix_value_t *value = NULL;
    uint32_t number = UINT32_MAX;
    if (PMIx_Get(proc, key, NULL, 0, &value) == PMIX_SUCCESS) {
        number = value->type == PMIX_PROC_RANK ? value->data.rank : value->data.uint32;
        PMIX_VALUE_RELEASE(value);
    }
    return number;
}

/* "binding R cpuset C affinity A getcpuset G job NSPACE": PMIX_CPUSET as
 * registered, the kernel's affinity, and PMIx_Get_cpuset's answer (hwloc
 * lists). */
static void print_binding(const pmix_proc_t *me)
{
    pmix_value_t *value = NULL;
    const char *cpuset = "(none)";
    if (PMIx_Get(me, PMIX_CPUSET, NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_STRING) {
        cpuset = value->data.string;
    }
    cpu_set_t mask;
    hwloc_bitmap_t affinity = hwloc_bitmap_alloc();
    if (sched_getaffinity(0, sizeof mask, &mask) == 0) {
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
            if (CPU_ISSET(cpu, &mask)) hwloc_bitmap_set(affinity, (unsigned)cpu);
        }
    }
    char *affinity_text = NULL, *got_text = NULL;
    hwloc_bitmap_list_asprintf(&affinity_text, affinity);
    pmix_cpuset_t got;
    memset(&got, 0, sizeof got);
    if (PMIx_Get_cpuset(&got, PMIX_CPUBIND_PROCESS) == PMIX_SUCCESS && got.bitmap != NULL) {
        hwloc_bitmap_list_asprintf(&got_text, (hwloc_const_bitmap_t)got.bitmap);
        PMIx_Cpuset_destruct(&got);
    }
    printf("binding %u cpuset %s affinity %s getcpuset %s job %s\n", me->rank, cpuset, affinity_text,
           got_text != NULL ? got_text : "(none)", me->nspace);
    free(affinity_text);
    free(got_text);
    hwloc_bitmap_free(affinity);
    if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static atomic_int spawned_job_ended = 0;

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
    spawned_job_ended = 1;
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* Rank 0 spawns `count` probes that print their binding, placed by `map_by`
 * ("-": pmixrun's defaults), and waits (bounded) until their job ends. */
static void spawn_probes(const char *self, uint16_t count, const char *map_by)
{
    pmix_status_t code = PMIX_EVENT_JOB_END;
    PMIx_Register_event_handler(&code, 1, NULL, 0, on_job_end, NULL, NULL);
    char *argv[] = {(char *)self, (char *)"--binding", NULL};
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(self);
    app.argv = argv;
    app.maxprocs = count;
    pmix_info_t info[2];
    bool yes = true;
    size_t ninfo = 0;
    PMIX_INFO_LOAD(&info[ninfo++], PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    if (strcmp(map_by, "-") != 0) PMIX_INFO_LOAD(&info[ninfo++], PMIX_MAPBY, map_by, PMIX_STRING);
    pmix_nspace_t child;
    const pmix_status_t rc = PMIx_Spawn(info, ninfo, &app, 1, child);
    printf("spawn %s\n", PMIx_Error_string(rc));
    fflush(stdout);
    for (int t = 0; rc == PMIX_SUCCESS && t < 400 && !spawned_job_ended; ++t) usleep(25000);
    app.argv = NULL; /* ours, on the stack */
    free(app.cmd);
    app.cmd = NULL;
    for (size_t i = 0; i < ninfo; ++i) PMIX_INFO_DESTRUCT(&info[i]);
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) return 1;
    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    printf("rank %u size %u appnum %u app_rank %u\n", me.rank, get_u32(&job, PMIX_JOB_SIZE), get_u32(&me, PMIX_APPNUM),
           get_u32(&me, PMIX_APP_RANK));
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--env") == 0 && i + 1 < argc) {
            const char *value = getenv(argv[++i]);
            printf("env %s %s\n", argv[i], value != NULL ? value : "(unset)");
        } else if (strcmp(argv[i], "--procdir") == 0) {
            print_procdir(&me);
        } else if (strcmp(argv[i], "--launcher-maps") == 0 && i + 1 < argc) {
            print_launcher_maps(argv[++i]);
        } else if (strcmp(argv[i], "--locality") == 0) {
            const char *keys[] = {PMIX_CPUSET, PMIX_LOCALITY_STRING, PMIX_LOCAL_PEERS};
            const char *labels[] = {"cpuset", "locality", "peers"};
            for (int k = 0; k < 3; ++k) {
                pmix_value_t *value = NULL;
                const int found = PMIx_Get(&me, keys[k], NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_STRING;
                printf("%s %s\n", labels[k], found ? value->data.string : "(none)");
                if (value != NULL) PMIX_VALUE_RELEASE(value);
            }
        } else if (strcmp(argv[i], "--binding") == 0) {
            print_binding(&me);
        } else if (strcmp(argv[i], "--spawn-late") == 0 && i + 1 < argc) {
            char script[64];
            snprintf(script, sizeof script, "sleep %s; echo late child done", argv[++i]);
            char *child_argv[] = {(char *)"sh", (char *)"-c", script, NULL};
            pmix_app_t app;
            PMIX_APP_CONSTRUCT(&app);
            app.cmd = (char *)"/bin/sh";
            app.argv = child_argv;
            app.maxprocs = 1;
            pmix_nspace_t child;
            if (me.rank == 0) printf("spawn %s\n", PMIx_Error_string(PMIx_Spawn(NULL, 0, &app, 1, child)));
        } else if (strcmp(argv[i], "--spawn") == 0 && i + 2 < argc) {
            const uint16_t count = (uint16_t)atoi(argv[++i]);
            const char *map_by = argv[++i];
            if (me.rank == 0) spawn_probes(argv[0], count, map_by);
            PMIx_Fence(NULL, 0, NULL, 0); /* the other ranks hold their cores until then */
        } else if (strcmp(argv[i], "--read-stdin") == 0) {
            char buffer[4096];
            size_t total = 0;
            ssize_t n;
            while ((n = read(0, buffer, sizeof buffer)) > 0) total += (size_t)n;
            printf("stdin %zu\n", total);
        } else if (strcmp(argv[i], "--watch-exit") == 0) {
            /* Rank 0 listens, everyone meets, then rank 1 finishes first.
             * A normal exit is news for who asked for it, never a fault:
             * Open MPI's default handler aborts the job on any event. */
            if (me.rank == 0) {
                pmix_status_t code = PMIX_EVENT_PROC_TERMINATED;
                PMIx_Register_event_handler(&code, 1, NULL, 0, on_terminated, NULL, NULL);
                PMIx_Register_event_handler(NULL, 0, NULL, 0, on_any_event, NULL, NULL);
            }
            PMIx_Fence(NULL, 0, NULL, 0);
            if (me.rank == 1) {
                fflush(stdout);
                PMIx_Finalize(NULL, 0);
                return 0;
            }
            for (int t = 0; t < 200 && terminated_rank < 0; ++t) usleep(50000);
            printf("rank %u saw rank %d terminate with %d\n", me.rank, terminated_rank, terminated_code);
            usleep(200000); /* the chain goes on to the default handler at once, if at all */
            printf("rank %u's default handler saw %d events\n", me.rank, (int)default_handler_calls);
        } else if (strcmp(argv[i], "--query") == 0) {
            if (me.rank == 0) print_queries(&me);
        } else if (strcmp(argv[i], "--job-info") == 0 && me.rank == 0) {
            pmix_info_t directive;
            bool yes = true;
            PMIX_INFO_LOAD(&directive, PMIX_JOB_CTRL_PREEMPTIBLE, &yes, PMIX_BOOL);
            pmix_info_t *results = NULL;
            size_t n = 0;
            pmix_status_t rc = PMIx_Job_control(NULL, 0, &directive, 1, &results, &n);
            printf("job control preemptible: %s\n", PMIx_Error_string(rc));
            if (results != NULL) PMIX_INFO_FREE(results, n);
            PMIX_INFO_DESTRUCT(&directive);
        } else if (strcmp(argv[i], "--fail-first") == 0) {
            pmix_status_t code = PMIX_ERR_PROC_ABORTED;
            PMIx_Register_event_handler(&code, 1, NULL, 0, on_failure, NULL, NULL);
            PMIx_Fence(NULL, 0, NULL, 0);
            if (me.rank == 0) {
                fflush(stdout);
                _exit(1);
            }
            for (int t = 0; t < 200 && failed_rank < 0; ++t) usleep(50000);
            printf("rank %u heard rank %d fail with %d\n", me.rank, failed_rank, failed_code);
        } else if (strcmp(argv[i], "--abort") == 0 && i + 1 < argc) {
            const int status = atoi(argv[++i]);
            if (me.rank == 1) {
                fflush(stdout);
                PMIx_Abort(status, "the probe gives up", NULL, 0);
                sleep(30); /* pmixrun ends us */
            }
            sleep(30);
        }
    }
    fflush(stdout);
    return PMIx_Finalize(NULL, 0) == PMIX_SUCCESS ? 0 : 1;
}
