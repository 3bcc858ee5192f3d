/* Benchmark client, written against the standard client API only (pmix.h).
 *
 *   bench_client [--gets G] [--puts P] [--fences F] [--nb] [--stop] [--rss-fence BYTES]
 *
 * Every timed operation is bracketed by clock_gettime(CLOCK_MONOTONIC) on
 * its own, so each sample is one call; the process prints the median and the
 * 99th percentile of its samples. Figure names carry the job size N:
 *   init_us_nN                   PMIx_Init, one sample per process
 *   getjob_{med,p99}_us_nN       PMIx_Get(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE)
 *   getpeer_{med,p99}_us_nN      PMIx_Get(rank+1, "bench.peer") after a collecting fence
 *   putcommit_{med,p99}_us_nN    PMIx_Put(8 bytes) + PMIx_Commit
 *   fence0_med_us_nN             PMIx_Fence(all, no info)
 *   fence1k_med_us_nN            PMIx_Fence(all, PMIX_COLLECT_DATA) after a 1 KiB put
 *   fence16k_med_us_nN           the same after a 16 KiB put
 *   clock_ns                     cost of one clock_gettime pair (the timer's floor)
 * Every rank that succeeds also prints "M client <path>", the libpmix.so its
 * /proc/self/maps names (rank 0 adds "V client <PMIx_Get_version()>").
 * With --stop the process stops itself (SIGSTOP) after its work so the host
 * can read its memory, then finalizes when continued. With --rss-fence BYTES
 * the process does nothing but init, put BYTES, commit, one collecting fence
 * and stop itself (SIGSTOP), so the host can read its own memory with the
 * whole job's data collected and every client alive; it finalizes when
 * continued. */
#include <pmix.h>

#include <pthread.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define BLOB_BYTES 1024
#define BIG_BLOB_BYTES (16 * 1024)

typedef struct {
    long gets;
    long puts;
    long fences;
    long rss_fence_bytes;
    bool stop;
} options_t;

static pmix_proc_t me;
static uint32_t job_size;

static int fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "bench_client %u: %s: %s\n", me.rank, what, PMIx_Error_string(rc));
    return 1;
}

static void report(const char *figure, double value)
{
    char name[96];
    snprintf(name, sizeof name, "%s_n%u", figure, job_size);
    bench_record("R", name, value);
}

static void report_samples(const char *figure, uint64_t *samples, size_t n, bool p99)
{
    if (n == 0) return;
    bench_sort(samples, n);
    char name[96];
    snprintf(name, sizeof name, "%s_med_us", figure);
    report(name, bench_quantile_us(samples, n, 0.5));
    if (!p99) return;
    snprintf(name, sizeof name, "%s_p99_us", figure);
    report(name, bench_quantile_us(samples, n, 0.99));
}

static pmix_status_t put_commit_u64(const char *key, uint64_t number)
{
    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, &number, PMIX_UINT64);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &value);
    PMIX_VALUE_DESTRUCT(&value);
    return rc == PMIX_SUCCESS ? PMIx_Commit() : rc;
}

/* Puts `bytes` bytes under "bench.blob" (the same key every time, so a new
 * put replaces the last one) and commits. */
static pmix_status_t put_blob(unsigned round, size_t bytes)
{
    char *data = malloc(bytes);
    if (data == NULL) return PMIX_ERR_NOMEM;
    memset(data, (int)('a' + (me.rank + round) % 26), bytes);
    pmix_value_t value;
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = data;
    value.data.bo.size = bytes;
    /* PMIx_Put copies the value. */
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "bench.blob", &value);
    free(data);
    return rc == PMIX_SUCCESS ? PMIx_Commit() : rc;
}

/* --nb: fences are PMIx_Fence_nb, waited for on a condition variable the
 * callback signals, as an application (Open MPI's modex) waits for one. */
static bool use_fence_nb;

struct nb_wait {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
};

static void nb_fence_done(pmix_status_t status, void *cbdata)
{
    struct nb_wait *wait = cbdata;
    pthread_mutex_lock(&wait->lock);
    wait->status = status;
    wait->done = true;
    pthread_cond_signal(&wait->cond);
    pthread_mutex_unlock(&wait->lock);
}

static pmix_status_t fence_nb(const pmix_info_t *info, size_t ninfo)
{
    struct nb_wait wait = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, PMIX_SUCCESS};
    pmix_status_t rc = PMIx_Fence_nb(NULL, 0, info, ninfo, nb_fence_done, &wait);
    if (rc != PMIX_SUCCESS) return rc;
    pthread_mutex_lock(&wait.lock);
    while (!wait.done) pthread_cond_wait(&wait.cond, &wait.lock);
    pthread_mutex_unlock(&wait.lock);
    return wait.status;
}

static pmix_status_t fence(bool collect)
{
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t rc = use_fence_nb ? fence_nb(collect ? &info : NULL, collect ? 1 : 0)
                                    : PMIx_Fence(NULL, 0, collect ? &info : NULL, collect ? 1 : 0);
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

/* Times `count` PMIx_Get calls of one key, one sample per call. */
static int time_gets(const char *figure, const pmix_proc_t *proc, const char *key, long count, uint64_t *samples)
{
    for (long i = 0; i < count; ++i) {
        pmix_value_t *value = NULL;
        uint64_t start = bench_now_ns();
        pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &value);
        samples[i] = bench_now_ns() - start;
        if (rc != PMIX_SUCCESS) return fail(figure, rc);
        PMIX_VALUE_RELEASE(value);
    }
    report_samples(figure, samples, (size_t)count, true);
    return 0;
}

static int time_put_commits(long count, uint64_t *samples)
{
    for (long i = 0; i < count; ++i) {
        uint64_t start = bench_now_ns();
        pmix_status_t rc = put_commit_u64("bench.pc", (uint64_t)i);
        samples[i] = bench_now_ns() - start;
        if (rc != PMIX_SUCCESS) return fail("put+commit", rc);
    }
    report_samples("putcommit", samples, (size_t)count, true);
    return 0;
}

/* Times `count` fences; with blob_bytes > 0 every process first puts (and
 * commits, untimed) that many bytes and the fence collects the data. */
static int time_fences(const char *figure, size_t blob_bytes, long count, uint64_t *samples)
{
    bool collect = blob_bytes > 0;
    for (long i = 0; i < count; ++i) {
        if (collect) {
            pmix_status_t rc = put_blob((unsigned)i, blob_bytes);
            if (rc != PMIX_SUCCESS) return fail("put blob", rc);
        }
        uint64_t start = bench_now_ns();
        pmix_status_t rc = fence(collect);
        samples[i] = bench_now_ns() - start;
        if (rc != PMIX_SUCCESS) return fail(figure, rc);
    }
    report_samples(figure, samples, (size_t)count, false);
    return 0;
}

static void report_clock_floor(uint64_t *samples, long count)
{
    for (long i = 0; i < count; ++i) {
        uint64_t start = bench_now_ns();
        samples[i] = bench_now_ns() - start;
    }
    bench_sort(samples, (size_t)count);
    bench_record("R", "clock_ns", bench_quantile_us(samples, (size_t)count, 0.5) * 1000.0);
}

/* Reads every peer's blob once, so the memory figure includes a full modex. */
static int touch_all_peers(void)
{
    for (uint32_t r = 0; r < job_size; ++r) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        pmix_value_t *value = NULL;
        pmix_status_t rc = PMIx_Get(&peer, "bench.blob", NULL, 0, &value);
        if (rc != PMIX_SUCCESS) return fail("get peer blob", rc);
        PMIX_VALUE_RELEASE(value);
    }
    return 0;
}

static int parse(int argc, char **argv, options_t *opts_p)
{
    options_t opts = {.gets = 100000, .puts = 1000, .fences = 200, .rss_fence_bytes = 0, .stop = false};
    for (int i = 1; i < argc; ++i) {
        bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--stop") == 0) opts.stop = true;
        else if (strcmp(argv[i], "--gets") == 0 && has_value) opts.gets = atol(argv[++i]);
        else if (strcmp(argv[i], "--puts") == 0 && has_value) opts.puts = atol(argv[++i]);
        else if (strcmp(argv[i], "--fences") == 0 && has_value) opts.fences = atol(argv[++i]);
        else if (strcmp(argv[i], "--nb") == 0) use_fence_nb = true;
        else if (strcmp(argv[i], "--rss-fence") == 0 && has_value) opts.rss_fence_bytes = atol(argv[++i]);
        else return 2;
    }
    if (opts.gets < 0 || opts.puts < 0 || opts.fences < 0) return 2;
    if (opts.rss_fence_bytes < 0 || opts.rss_fence_bytes > 64L * 1024 * 1024) return 2;
    *opts_p = opts;
    return 0;
}

static int run(const options_t *opts, uint64_t *samples)
{
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *size = NULL;
    pmix_status_t rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &size);
    if (rc != PMIX_SUCCESS) return fail("PMIx_Get(PMIX_JOB_SIZE)", rc);
    job_size = size->data.uint32;
    PMIX_VALUE_RELEASE(size);

    if (opts->rss_fence_bytes > 0) {
        /* One collecting fence, then hold still while the host reads its RSS. */
        rc = put_blob(0, (size_t)opts->rss_fence_bytes);
        if (rc == PMIX_SUCCESS) rc = fence(true);
        if (rc != PMIX_SUCCESS) return fail("rss fence", rc);
        raise(SIGSTOP);
        return 0;
    }
    if (opts->puts > 0 && time_put_commits(opts->puts, samples) != 0) return 1;
    /* The peer key and a first blob, collected by one untimed fence. */
    rc = put_commit_u64("bench.peer", 1000u + me.rank);
    if (rc == PMIX_SUCCESS) rc = put_blob(0, BLOB_BYTES);
    if (rc == PMIX_SUCCESS) rc = fence(true);
    if (rc != PMIX_SUCCESS) return fail("modex", rc);

    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % job_size);
    if (opts->gets > 0) {
        if (time_gets("getjob", &job, PMIX_JOB_SIZE, opts->gets, samples) != 0) return 1;
        if (time_gets("getpeer", &peer, "bench.peer", opts->gets, samples) != 0) return 1;
    }
    if (opts->fences > 0) {
        if (time_fences("fence0", 0, opts->fences, samples) != 0) return 1;
        if (time_fences("fence1k", BLOB_BYTES, opts->fences, samples) != 0) return 1;
        if (time_fences("fence16k", BIG_BLOB_BYTES, opts->fences, samples) != 0) return 1;
    }
    if (opts->stop) {
        if (touch_all_peers() != 0) return 1;
        raise(SIGSTOP);
    }
    return 0;
}

int main(int argc, char **argv)
{
    options_t opts;
    if (parse(argc, argv, &opts) != 0) {
        fprintf(stderr, "usage: bench_client [--gets G] [--puts P] [--fences F] [--nb] [--stop] [--rss-fence BYTES]\n");
        return 2;
    }
    uint64_t start = bench_now_ns();
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    uint64_t init_ns = bench_now_ns() - start;
    if (rc != PMIX_SUCCESS) return fail("PMIx_Init", rc);

    long most = opts.gets > opts.puts ? opts.gets : opts.puts;
    if (opts.fences > most) most = opts.fences;
    if (most < 1000) most = 1000;
    uint64_t *samples = malloc((size_t)most * sizeof *samples);
    if (samples == NULL) return fail("malloc", PMIX_ERR_NOMEM);
    int failed = run(&opts, samples);
    if (failed == 0) {
        /* The --rss-fence jobs only measure the host: their inits are not
         * mixed into the init figure of the fence jobs of the same N. */
        if (opts.rss_fence_bytes == 0) report("init_us", (double)init_ns / 1000.0);
        /* Every rank names the libpmix it has mapped ("M client <path>"),
         * so a script can check which library each client ran on. */
        char lib[400];
        bench_libpmix_of(getpid(), lib, sizeof lib);
        bench_text("M", "client", lib);
        if (me.rank == 0) {
            bench_text("V", "client", PMIx_Get_version());
            if (opts.rss_fence_bytes == 0) report_clock_floor(samples, 1000);
        }
    }
    free(samples);
    rc = PMIx_Finalize(NULL, 0);
    if (failed != 0) return 1;
    return rc == PMIX_SUCCESS ? 0 : fail("PMIx_Finalize", rc);
}
