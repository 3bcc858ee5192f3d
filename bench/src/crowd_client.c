/* A job's rank on a crowded node (issue 18), against the standard client
 * API only, so the same source runs on pmixpp and on OpenPMIx.
 *
 * Ranks 0 .. N-2 are the legitimate job: after a start barrier they run
 * CROWD_ITERATIONS (default 300) iterations of put 1 KiB, commit, a
 * data-collecting fence among themselves, a get of the next rank's blob,
 * and two event notifications of 16 KiB each (range: the namespace). Each
 * iteration is timed; every rank prints its worst and median iteration.
 * Rank 0 writes the server's tcp URI (from its environment) to
 * $CROWD_URI_FILE before the barrier and waits for $CROWD_GO_FILE to
 * appear, so a flood can be started in between.
 *
 * Rank N-1 is the event sink: it registers for every event, and with
 * CROWD_SINK_STOPS=1 stops itself (SIGSTOP) so that it never reads its
 * socket while the events pile up for it: a slow reader. The script
 * resumes it at the end. It always exits 0: being dropped by a server that
 * defends itself is the expected outcome, not a failure of the bench.
 *
 * Output: "R iter_worst_ms <v>", "R iter_p50_ms <v>" per legitimate rank. */
#define _GNU_SOURCE
#include <pmix.h>

#include <signal.h>
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

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                     size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id; (void)status; (void)source; (void)info; (void)ninfo; (void)results; (void)nresults;
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

static pmix_status_t one_iteration(uint32_t legit, char *blob, char *event_text)
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
    for (int e = 0; e < 2; ++e) {
        pmix_info_t bulk;
        PMIX_INFO_LOAD(&bulk, "crowd.bulk", event_text, PMIX_STRING);
        rc = PMIx_Notify_event(CROWD_EVENT, &self, PMIX_RANGE_NAMESPACE, &bulk, 1, NULL, NULL);
        PMIX_INFO_DESTRUCT(&bulk);
        if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) return rc;
    }
    return PMIX_SUCCESS;
}

static int run_legit(uint32_t legit)
{
    const char *iterations_text = getenv("CROWD_ITERATIONS");
    const int iterations = iterations_text != NULL ? atoi(iterations_text) : 300;
    if (self.rank == 0) {
        const char *uri_file = getenv("CROWD_URI_FILE");
        if (uri_file != NULL) write_tcp_uri(uri_file);
        const char *go = getenv("CROWD_GO_FILE");
        if (go != NULL) wait_for_file(go);
    }
    pmix_status_t rc = fence_legit(legit);  /* the start barrier */
    if (rc != PMIX_SUCCESS) return fail("start fence", rc);
    char *blob = malloc(BLOB_BYTES);
    char *event_text = malloc(EVENT_BYTES);
    uint64_t *samples = calloc((size_t)iterations, sizeof(uint64_t));
    if (blob == NULL || event_text == NULL || samples == NULL) return fail("malloc", PMIX_ERR_NOMEM);
    memset(blob, 'a' + (int)(self.rank % 26), BLOB_BYTES);
    memset(event_text, 'e', EVENT_BYTES - 1);
    event_text[EVENT_BYTES - 1] = '\0';
    for (int i = 0; i < iterations; ++i) {
        const uint64_t start = bench_now_ns();
        rc = one_iteration(legit, blob, event_text);
        samples[i] = bench_now_ns() - start;
        if (rc != PMIX_SUCCESS) return fail("iteration", rc);
    }
    bench_sort(samples, (size_t)iterations);
    bench_record("R", "iter_worst_ms", (double)samples[iterations - 1] / 1e6);
    bench_record("R", "iter_p50_ms", bench_quantile_us(samples, (size_t)iterations, 0.5) / 1e3);
    rc = fence_legit(legit);  /* nobody leaves while others still count */
    if (rc != PMIX_SUCCESS) return fail("end fence", rc);
    if (self.rank == 0) {
        const char *done = getenv("CROWD_DONE_FILE");
        if (done != NULL) {
            FILE *out = fopen(done, "w");
            if (out != NULL) fclose(out);
        }
    }
    free(samples);
    free(event_text);
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
    if (job_size < 3 || job_size > 256) {
        fprintf(stderr, "crowd_client: needs 3 to 256 ranks (the last one is the sink)\n");
        return 1;
    }
    if (self.rank == job_size - 1) return run_sink();
    return run_legit(job_size - 1);
}
