/* A job's rank on a crowded node, against the standard client
 * API only, so the same source runs on pmixpp and on OpenPMIx.
 *
 * A job of N ranks (5 in bench/crowded_node.sh):
 * - ranks 0 .. N-3, the legitimate job: after a start barrier, iterations
 *   of put 1 KiB, commit, a data-collecting fence among themselves and a
 *   get of the next rank's blob, each timed, at least CROWD_ITERATIONS
 *   (300) times, for at least CROWD_SECONDS (3) and until the notifier is
 *   done; each prints its worst and median
 *   iteration. Rank 0 writes the server's tcp URI (from its environment) to
 *   $CROWD_URI_FILE and waits for $CROWD_GO_FILE, so that a flood can start
 *   in between; it writes $CROWD_DONE_FILE at the end.
 * - rank N-2, the notifier: CROWD_EVENTS (2400) events of 16 KiB (range:
 *   the namespace) while the job iterates, then $CROWD_EVENTS_DONE_FILE.
 * - rank N-1, the sink: registers for every event; with CROWD_SINK_STOPS=1
 *   it stops itself (SIGSTOP) and never reads while the events pile up for
 *   it: a slow reader. The script resumes it at the end. It always exits 0:
 *   being dropped by a server that defends itself is the expected outcome.
 *
 * Output: "R iter_worst_ms <v>", "R iter_p50_ms <v>", "R iterations <n>"
 * per legitimate rank. */
#define _GNU_SOURCE
#include <pmix.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_util.h"

#define BLOB_BYTES 1024
#define EVENT_BYTES (16 * 1024)
#define CROWD_EVENT (PMIX_EXTERNAL_ERR_BASE - 4242)

extern char **environ;

static pmix_proc_t self;
static uint32_t job_size;

static int fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "crowd_client %u: %s: %s\n", self.rank, what, PMIx_Error_string(rc));
    return 1;
}

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                     pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)status;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* The first "tcp4://..." in the environment (OpenPMIx: PMIX_SERVER_URI*;
 * pmixpp: PMIXPP_SERVER_URIS), written for the flooder. */
static void write_tcp_uri(const char *path)
{
    for (char **e = environ; *e != NULL; ++e) {
        const char *tcp = strstr(*e, "tcp4://");
        if (tcp == NULL) continue;
        size_t length = strcspn(tcp, ";, ");
        FILE *out = fopen(path, "w");
        if (out == NULL) return;
        fprintf(out, "%.*s\n", (int)length, tcp);
        fclose(out);
        return;
    }
}

static void wait_for_file(const char *path)
{
    struct stat st;
    if (path == NULL) return;
    for (int i = 0; i < 6000 && stat(path, &st) != 0; ++i) usleep(10000);
}

static int run_sink(void)
{
    pmix_status_t rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, on_event, NULL, NULL);
    if (rc < 0) return fail("register", rc);
    const char *stops = getenv("CROWD_SINK_STOPS");
    if (stops != NULL && strcmp(stops, "1") == 0) raise(SIGSTOP);
    /* Resumed (or never stopped): wait for the job's end without reading
     * anything in particular, then leave. */
    const char *done = getenv("CROWD_DONE_FILE");
    if (done != NULL) wait_for_file(done);
    PMIx_Finalize(NULL, 0);
    return 0;
}

static pmix_status_t fence_legit(uint32_t legit)
{
    pmix_proc_t procs[256];
    for (uint32_t r = 0; r < legit; ++r) PMIX_LOAD_PROCID(&procs[r], self.nspace, r);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(procs, legit, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    return rc;
}

static pmix_status_t one_iteration(uint32_t legit, char *blob)
{
    pmix_value_t value;
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = blob;
    value.data.bo.size = BLOB_BYTES;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "crowd.blob", &value);
    if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
    if (rc == PMIX_SUCCESS) rc = fence_legit(legit);
    if (rc != PMIX_SUCCESS) return rc;
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, self.nspace, (self.rank + 1) % legit);
    pmix_value_t *got = NULL;
    rc = PMIx_Get(&peer, "crowd.blob", NULL, 0, &got);
    if (rc != PMIX_SUCCESS) return rc;
    PMIX_VALUE_RELEASE(got);
    return PMIX_SUCCESS;
}

static bool exists(const char *path)
{
    struct stat st;
    return path == NULL || stat(path, &st) == 0;
}

static void touch(const char *path)
{
    if (path == NULL) return;
    FILE *out = fopen(path, "w");
    if (out != NULL) fclose(out);
}

static int run_notifier(void)
{
    const char *count_text = getenv("CROWD_EVENTS");
    const int count = count_text != NULL ? atoi(count_text) : 2400;
    wait_for_file(getenv("CROWD_GO_FILE"));
    char *text = malloc(EVENT_BYTES);
    if (text == NULL) return fail("malloc", PMIX_ERR_NOMEM);
    memset(text, 'e', EVENT_BYTES - 1);
    text[EVENT_BYTES - 1] = '\0';
    for (int e = 0; e < count; ++e) {
        pmix_info_t bulk;
        PMIX_INFO_LOAD(&bulk, "crowd.bulk", text, PMIX_STRING);
        pmix_status_t rc = PMIx_Notify_event(CROWD_EVENT, &self, PMIX_RANGE_NAMESPACE, &bulk, 1, NULL, NULL);
        PMIX_INFO_DESTRUCT(&bulk);
        if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) return fail("notify", rc);
    }
    free(text);
    touch(getenv("CROWD_EVENTS_DONE_FILE"));
    wait_for_file(getenv("CROWD_DONE_FILE"));
    PMIx_Finalize(NULL, 0);
    return 0;
}

/* Every legitimate rank must run the same number of fences: rank 0 decides
 * whether there is another iteration, and the others learn it through a
 * fence of its own (not timed). */
static bool agree(uint32_t legit, bool more, size_t round)
{
    /* A key per round: no library can answer from an older fence's copy. */
    char key[PMIX_MAX_KEYLEN + 1];
    snprintf(key, sizeof key, "crowd.more.%zu", round);
    if (self.rank == 0) {
        pmix_value_t value;
        value.type = PMIX_UINT32;
        value.data.uint32 = more ? 1 : 0;
        if (PMIx_Put(PMIX_GLOBAL, key, &value) != PMIX_SUCCESS || PMIx_Commit() != PMIX_SUCCESS) {
            return false;
        }
    }
    if (fence_legit(legit) != PMIX_SUCCESS) return false;
    pmix_proc_t zero;
    PMIX_LOAD_PROCID(&zero, self.nspace, 0);
    pmix_value_t *verdict = NULL;
    if (PMIx_Get(&zero, key, NULL, 0, &verdict) != PMIX_SUCCESS) return false;
    const bool again = verdict->data.uint32 != 0;
    PMIX_VALUE_RELEASE(verdict);
    return again;
}

static int run_legit(uint32_t legit)
{
    const char *iterations_text = getenv("CROWD_ITERATIONS");
    const int minimum = iterations_text != NULL ? atoi(iterations_text) : 300;
    const char *events_done = getenv("CROWD_EVENTS_DONE_FILE");
    const char *seconds_text = getenv("CROWD_SECONDS");
    const uint64_t span_ns = (uint64_t)((seconds_text != NULL ? atof(seconds_text) : 3.0) * 1e9);
    if (self.rank == 0) {
        const char *uri_file = getenv("CROWD_URI_FILE");
        if (uri_file != NULL) write_tcp_uri(uri_file);
        wait_for_file(getenv("CROWD_GO_FILE"));
    }
    pmix_status_t rc = fence_legit(legit); /* the start barrier */
    if (rc != PMIX_SUCCESS) return fail("start fence", rc);
    char *blob = malloc(BLOB_BYTES);
    size_t capacity = (size_t)minimum + 1024;
    uint64_t *samples = calloc(capacity, sizeof(uint64_t));
    if (blob == NULL || samples == NULL) return fail("malloc", PMIX_ERR_NOMEM);
    memset(blob, 'a' + (int)(self.rank % 26), BLOB_BYTES);
    size_t done = 0;
    const uint64_t began = bench_now_ns();
    for (;;) {
        const uint64_t start = bench_now_ns();
        rc = one_iteration(legit, blob);
        const uint64_t took = bench_now_ns() - start;
        if (rc != PMIX_SUCCESS) return fail("iteration", rc);
        if (done == capacity) {
            uint64_t *bigger = realloc(samples, 2 * capacity * sizeof(uint64_t));
            if (bigger == NULL) return fail("realloc", PMIX_ERR_NOMEM);
            samples = bigger;
            capacity *= 2;
        }
        samples[done++] = took;
        const bool more = done < (size_t)minimum || bench_now_ns() - began < span_ns || !exists(events_done);
        if (!agree(legit, more, done)) break;
    }
    bench_sort(samples, done);
    bench_record("R", "iter_worst_ms", (double)samples[done - 1] / 1e6);
    bench_record("R", "iter_p50_ms", bench_quantile_us(samples, done, 0.5) / 1e3);
    bench_record("R", "iterations", (double)done);
    if (self.rank == 0) touch(getenv("CROWD_DONE_FILE"));
    free(samples);
    free(blob);
    PMIx_Finalize(NULL, 0);
    return 0;
}

int main(void)
{
    pmix_status_t rc = PMIx_Init(&self, NULL, 0);
    if (rc != PMIX_SUCCESS) return fail("PMIx_Init", rc);
    pmix_proc_t wildcard;
    PMIX_LOAD_PROCID(&wildcard, self.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *size = NULL;
    rc = PMIx_Get(&wildcard, PMIX_JOB_SIZE, NULL, 0, &size);
    if (rc != PMIX_SUCCESS) return fail("job size", rc);
    job_size = size->data.uint32;
    PMIX_VALUE_RELEASE(size);
    if (job_size < 4 || job_size > 256) {
        fprintf(stderr, "crowd_client: needs 4 to 256 ranks (the last two notify and sink)\n");
        return 1;
    }
    if (self.rank == job_size - 1) return run_sink();
    if (self.rank == job_size - 2) return run_notifier();
    return run_legit(job_size - 2);
}
