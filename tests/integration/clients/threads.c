/*
 * One process of the threads job: PMIx calls from many application threads
 * at once, as MPI_THREAD_MULTIPLE programs make them, while the library's
 * progress thread serves replies. After init, a put and a data-collecting
 * fence, --threads threads run together for --rounds rounds each:
 *   - getters read every peer's fenced value, the job size and their own
 *     local rank (the fast read path: all of it is already on this node);
 *   - a putter puts and commits keys of its own;
 *   - an event thread registers and deregisters a handler;
 *   - an nb thread issues PMIx_Get_nb calls and waits for their callbacks.
 * Then a second fence, and each peer's last putter key is read back.
 * Every thread counts its own failures (no shared counter). Built with the
 * tree, so under TSan this client is checked too. Ends with "rank R ok".
 */
#include "client_util.h"

#include <pthread.h>
#include <stdatomic.h>

enum { kMaxThreads = 16 };

static uint32_t g_size;
static long g_rounds;

struct worker {
    pthread_t thread;
    int index;
    int failures;
};

#define WORKER_CHECK(w, cond, ...)                                                                                     \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            char what_[512];                                                                                           \
            snprintf(what_, sizeof what_, __VA_ARGS__);                                                                \
            printf("rank %u FAIL (thread %d, line %d): %s\n", itc_me.rank, (w)->index, __LINE__, what_);               \
            ++(w)->failures;                                                                                           \
        }                                                                                                              \
    } while (0)

static void expect_peer_value(struct worker *w, const pmix_proc_t *peer, const char *key, const char *expected)
{
    pmix_value_t *value = NULL;
    pmix_status_t rc = itc_get(peer, key, 0, &value);
    WORKER_CHECK(w,
                 rc == PMIX_SUCCESS && value != NULL && value->type == PMIX_STRING &&
                     strcmp(value->data.string, expected) == 0,
                 "get %s of rank %u: %s", key, peer->rank, itc_err(rc));
    if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static void *getter(void *arg)
{
    struct worker *w = arg;
    pmix_proc_t job, peer;
    PMIX_LOAD_PROCID(&job, itc_me.nspace, PMIX_RANK_WILDCARD);
    char expected[64];
    for (long round = 0; round < g_rounds; ++round) {
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, (pmix_rank_t)((itc_me.rank + (uint32_t)round) % g_size));
        snprintf(expected, sizeof expected, "value of rank %u", peer.rank);
        expect_peer_value(w, &peer, "threads.fenced", expected);
        pmix_value_t *value = NULL;
        pmix_status_t rc = itc_get(&job, PMIX_JOB_SIZE, 0, &value);
        WORKER_CHECK(w, rc == PMIX_SUCCESS && value != NULL && value->data.uint32 == g_size, "job size: %s",
                     itc_err(rc));
        if (value != NULL) PMIX_VALUE_RELEASE(value);
        rc = itc_get(&itc_me, PMIX_LOCAL_RANK, 0, &value);
        WORKER_CHECK(w, rc == PMIX_SUCCESS && value != NULL && value->type == PMIX_UINT16, "local rank: %s",
                     itc_err(rc));
        if (value != NULL) PMIX_VALUE_RELEASE(value);
    }
    return NULL;
}

static void *putter(void *arg)
{
    struct worker *w = arg;
    for (long round = 0; round < g_rounds; ++round) {
        char key[32], text[64];
        snprintf(key, sizeof key, "threads.put%ld", round % 8);
        snprintf(text, sizeof text, "rank %u round %ld", itc_me.rank, round);
        pmix_value_t value;
        PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
        pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &value);
        PMIX_VALUE_DESTRUCT(&value);
        WORKER_CHECK(w, rc == PMIX_SUCCESS, "put %s: %s", key, itc_err(rc));
        if (round % 4 == 3) {
            rc = PMIx_Commit();
            WORKER_CHECK(w, rc == PMIX_SUCCESS, "commit: %s", itc_err(rc));
        }
    }
    pmix_value_t last;
    PMIX_VALUE_LOAD(&last, "last", PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "threads.last", &last);
    PMIX_VALUE_DESTRUCT(&last);
    WORKER_CHECK(w, rc == PMIX_SUCCESS && PMIx_Commit() == PMIX_SUCCESS, "last put/commit: %s", itc_err(rc));
    return NULL;
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

struct registration {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
    size_t id;
};

static void on_registered(pmix_status_t status, size_t id, void *cbdata)
{
    struct registration *r = cbdata;
    pthread_mutex_lock(&r->lock);
    r->status = status;
    r->id = id;
    r->done = true;
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static void *eventer(void *arg)
{
    struct worker *w = arg;
    for (long round = 0; round < g_rounds / 4 + 1; ++round) {
        struct registration r = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, PMIX_ERROR, 0};
        pmix_status_t code = PMIX_EVENT_JOB_END;
        pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_event, on_registered, &r);
        WORKER_CHECK(w, rc == PMIX_SUCCESS, "register: %s", itc_err(rc));
        pthread_mutex_lock(&r.lock);
        while (rc == PMIX_SUCCESS && !r.done) pthread_cond_wait(&r.cond, &r.lock);
        pthread_mutex_unlock(&r.lock);
        WORKER_CHECK(w, r.status == PMIX_SUCCESS, "registration callback: %s", itc_err(r.status));
        if (r.status == PMIX_SUCCESS) {
            rc = PMIx_Deregister_event_handler(r.id, NULL, NULL);
            WORKER_CHECK(w, rc == PMIX_SUCCESS, "deregister %zu: %s", r.id, itc_err(rc));
        }
    }
    return NULL;
}

static atomic_int g_nb_answered;
static atomic_int g_nb_good;

static void on_value(pmix_status_t status, pmix_value_t *value, void *cbdata)
{
    const pmix_rank_t expected_rank = (pmix_rank_t)(uintptr_t)cbdata;
    char expected[64];
    snprintf(expected, sizeof expected, "value of rank %u", expected_rank);
    if (status == PMIX_SUCCESS && value != NULL && value->type == PMIX_STRING &&
        strcmp(value->data.string, expected) == 0) {
        atomic_fetch_add(&g_nb_good, 1);
    }
    // The value stays the library's (it frees it when we return).
    atomic_fetch_add(&g_nb_answered, 1);
}

static void *nb_getter(void *arg)
{
    struct worker *w = arg;
    int issued = 0;
    for (long round = 0; round < g_rounds; ++round) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, (pmix_rank_t)((uint32_t)round % g_size));
        pmix_status_t rc = PMIx_Get_nb(&peer, "threads.fenced", NULL, 0, on_value, (void *)(uintptr_t)peer.rank);
        WORKER_CHECK(w, rc == PMIX_SUCCESS, "get_nb of rank %u: %s", peer.rank, itc_err(rc));
        issued += rc == PMIX_SUCCESS;
    }
    for (int waited = 0; atomic_load(&g_nb_answered) < issued && waited < ITC_TIMEOUT_S * 100; ++waited) {
        itc_sleep_ms(10);
    }
    WORKER_CHECK(w, atomic_load(&g_nb_good) == issued, "get_nb: %d of %d answered right", atomic_load(&g_nb_good),
                 issued);
    return NULL;
}

static void fence(bool collect)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    ITC_CHECK(rc == PMIX_SUCCESS, "fence: %s", itc_err(rc));
}

static void run_threads(int nthreads)
{
    struct worker workers[kMaxThreads];
    void *(*roles[])(void *) = {putter, eventer, nb_getter};
    for (int i = 0; i < nthreads; ++i) {
        workers[i] = (struct worker){.index = i, .failures = 0};
        void *(*role)(void *) = i < 3 ? roles[i] : getter;
        if (pthread_create(&workers[i].thread, NULL, role, &workers[i]) != 0) {
            ITC_CHECK(false, "pthread_create %d", i);
            nthreads = i;
            break;
        }
    }
    for (int i = 0; i < nthreads; ++i) {
        pthread_join(workers[i].thread, NULL);
        itc_failures += workers[i].failures;
    }
}

int main(int argc, char **argv)
{
    itc_start();
    long nthreads = itc_arg_long(argc, argv, "--threads", 6);
    g_rounds = itc_arg_long(argc, argv, "--rounds", 100);
    if (nthreads < 4) nthreads = 4;
    if (nthreads > kMaxThreads) nthreads = kMaxThreads;
    if (!itc_init()) return 1;
    g_size = itc_job_size();

    char text[64];
    snprintf(text, sizeof text, "value of rank %u", itc_me.rank);
    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "threads.fenced", &value);
    PMIX_VALUE_DESTRUCT(&value);
    ITC_CHECK(rc == PMIX_SUCCESS && PMIx_Commit() == PMIX_SUCCESS, "put/commit: %s", itc_err(rc));
    fence(true);

    run_threads((int)nthreads);

    fence(true);
    for (uint32_t r = 0; r < g_size; ++r) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, r);
        ITC_EXPECT_STRING(&peer, "threads.last", "last");
    }
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "finalize: %s", itc_err(rc));
    return itc_finish();
}
