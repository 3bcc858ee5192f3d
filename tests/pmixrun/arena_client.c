/* A rank of a pmixrun job exercising whole-job fences (through the fence
 * arena). Modes:
 *   arena_client collect ROUNDS [RANK]   every round each rank puts a
 *       value and a 2 KiB blob that change per round, commits and fences
 *       with PMIX_COLLECT_DATA (rank 0 with PMIx_Fence_nb in odd rounds),
 *       then checks every peer's values. RANK, when given, fences without
 *       the arena (PMIX_MCA_pmix_fence_arena=0).
 *   arena_client hold DIR                after one fence rank 0 writes
 *       DIR/ready and every rank waits for DIR/go (bounded).
 *   arena_client die DIR                 the last rank exits while the
 *       others wait in a fence: they must get PMIX_ERR_LOST_CONNECTION,
 *       and the next whole-job fence must fail at once.
 *   arena_client timeout                 rank 0 fences with PMIX_TIMEOUT 1
 *       while rank 1 is late: PMIX_ERR_TIMEOUT; then both fence: success.
 *   arena_client timeout_nb              as timeout, rank 0's early fence a
 *       PMIx_Fence_nb with PMIX_TIMEOUT 1: its callback gets PMIX_ERR_TIMEOUT.
 *   arena_client nb ROUNDS               as collect, but every fence is a
 *       PMIx_Fence_nb; each round also starts two plain Fence_nb at once
 *       and checks that their callbacks come in order, on another thread.
 *   arena_client die_nb DIR              as die, with the others waiting in
 *       a PMIx_Fence_nb: its callback gets PMIX_ERR_LOST_CONNECTION.
 * Prints "rank R: ..." lines; exits non-zero on a failed check. */
#include <pmix.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOB 2048

static pmix_proc_t me;
static uint32_t size;
static int failures;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("rank %u: FAILED ", me.rank);                                                                       \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int file_exists(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static void make_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *file = fopen(path, "w");
    if (file != NULL) fclose(file);
}

static pmix_status_t fence(int collect, int timeout_s)
{
    pmix_info_t info[2];
    size_t n = 0;
    if (collect) PMIX_INFO_LOAD(&info[n++], PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
    if (timeout_s > 0) PMIX_INFO_LOAD(&info[n++], PMIX_TIMEOUT, &timeout_s, PMIX_INT);
    pmix_status_t rc = PMIx_Fence(NULL, 0, n > 0 ? info : NULL, n);
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    return rc;
}

static atomic_int nb_done;
static atomic_int nb_status;

static void fence_nb_done(pmix_status_t status, void *cbdata)
{
    (void)cbdata;
    atomic_store(&nb_status, status);
    atomic_store(&nb_done, 1);
}

static pmix_status_t fence_nb_collect(void)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
    atomic_store(&nb_done, 0);
    pmix_status_t rc = PMIx_Fence_nb(NULL, 0, &info, 1, fence_nb_done, NULL);
    for (int waited = 0; rc == PMIX_SUCCESS && !atomic_load(&nb_done) && waited < 30000; ++waited) sleep_ms(1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) return rc;
    return atomic_load(&nb_done) ? atomic_load(&nb_status) : PMIX_ERR_TIMEOUT;
}

/* Two Fence_nb started back to back: the second may only arrive once the
 * first was released; the callbacks come in order, off the caller's thread,
 * on the progress thread as every other callback. */
struct nb_order {
    atomic_int calls;
    atomic_int first_status;
    atomic_int second_status;
    atomic_int out_of_order;
    pthread_t caller;
    atomic_int on_caller_thread;
    atomic_int off_progress_thread;
};

/* The library refuses a blocking call on its progress thread at once, and
 * only there (a made-up handler reference: elsewhere the answer is "no such
 * handler"). */
static int on_progress_thread(void)
{
    return PMIx_Deregister_event_handler(987654321, NULL, NULL) == PMIX_ERR_WOULD_BLOCK;
}

static void note_thread(struct nb_order *order)
{
    if (pthread_equal(pthread_self(), order->caller)) atomic_store(&order->on_caller_thread, 1);
    if (!on_progress_thread()) atomic_store(&order->off_progress_thread, 1);
}

static void first_done(pmix_status_t status, void *cbdata)
{
    struct nb_order *order = cbdata;
    if (atomic_load(&order->calls) != 0) atomic_store(&order->out_of_order, 1);
    note_thread(order);
    atomic_store(&order->first_status, status);
    atomic_fetch_add(&order->calls, 1);
}

static void second_done(pmix_status_t status, void *cbdata)
{
    struct nb_order *order = cbdata;
    if (atomic_load(&order->calls) != 1) atomic_store(&order->out_of_order, 1);
    note_thread(order);
    atomic_store(&order->second_status, status);
    atomic_fetch_add(&order->calls, 1);
}

static void two_fences_at_once(int round)
{
    static struct nb_order order;
    atomic_store(&order.calls, 0);
    atomic_store(&order.out_of_order, 0);
    atomic_store(&order.on_caller_thread, 0);
    atomic_store(&order.off_progress_thread, 0);
    order.caller = pthread_self();
    pmix_status_t rc = PMIx_Fence_nb(NULL, 0, NULL, 0, first_done, &order);
    CHECK(rc == PMIX_SUCCESS, "round %d: first Fence_nb: %s", round, PMIx_Error_string(rc));
    rc = PMIx_Fence_nb(NULL, 0, NULL, 0, second_done, &order);
    CHECK(rc == PMIX_SUCCESS, "round %d: second Fence_nb: %s", round, PMIx_Error_string(rc));
    for (int waited = 0; atomic_load(&order.calls) < 2 && waited < 30000; ++waited) sleep_ms(1);
    CHECK(atomic_load(&order.calls) == 2, "round %d: %d of 2 Fence_nb callbacks came", round,
          atomic_load(&order.calls));
    CHECK(atomic_load(&order.first_status) == PMIX_SUCCESS && atomic_load(&order.second_status) == PMIX_SUCCESS,
          "round %d: Fence_nb statuses %s, %s", round, PMIx_Error_string(atomic_load(&order.first_status)),
          PMIx_Error_string(atomic_load(&order.second_status)));
    CHECK(!atomic_load(&order.out_of_order), "round %d: the Fence_nb callbacks came out of order", round);
    CHECK(!atomic_load(&order.on_caller_thread), "round %d: a Fence_nb callback ran on the caller's thread", round);
    CHECK(!atomic_load(&order.off_progress_thread), "round %d: a Fence_nb callback ran off the progress thread", round);
}

static void put_round(int round)
{
    pmix_value_t value;
    value.type = PMIX_UINT64;
    value.data.uint64 = (uint64_t)me.rank * 1000u + (uint64_t)round;
    CHECK(PMIx_Put(PMIX_GLOBAL, "arena.value", &value) == PMIX_SUCCESS, "put");
    static char bytes[BLOB];
    memset(bytes, 'a' + (int)((me.rank + (uint32_t)round) % 26), sizeof bytes);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = bytes;
    value.data.bo.size = sizeof bytes;
    CHECK(PMIx_Put(PMIX_LOCAL, "arena.blob", &value) == PMIX_SUCCESS, "put blob");
    CHECK(PMIx_Commit() == PMIX_SUCCESS, "commit");
}

static void check_peers(int round)
{
    for (uint32_t rank = 0; rank < size; ++rank) {
        pmix_proc_t peer = me;
        pmix_value_t *value = NULL;
        peer.rank = rank;
        pmix_status_t rc = PMIx_Get(&peer, "arena.value", NULL, 0, &value);
        CHECK(rc == PMIX_SUCCESS && value->data.uint64 == (uint64_t)rank * 1000u + (uint64_t)round,
              "round %d: rank %u's value: %s %llu", round, rank, PMIx_Error_string(rc),
              rc == PMIX_SUCCESS ? (unsigned long long)value->data.uint64 : 0ull);
        if (value != NULL) PMIX_VALUE_RELEASE(value);
        value = NULL;
        rc = PMIx_Get(&peer, "arena.blob", NULL, 0, &value);
        const char expected = (char)('a' + (int)((rank + (uint32_t)round) % 26));
        CHECK(rc == PMIX_SUCCESS && value->type == PMIX_BYTE_OBJECT && value->data.bo.size == BLOB &&
                  value->data.bo.bytes[BLOB - 1] == expected,
              "round %d: rank %u's blob: %s", round, rank, PMIx_Error_string(rc));
        if (value != NULL) PMIX_VALUE_RELEASE(value);
    }
}

static void collect_rounds(int rounds)
{
    for (int round = 0; round < rounds; ++round) {
        put_round(round);
        pmix_status_t rc = me.rank == 0 && round % 2 == 1 ? fence_nb_collect() : fence(1, 0);
        CHECK(rc == PMIX_SUCCESS, "round %d: collecting fence: %s", round, PMIx_Error_string(rc));
        check_peers(round);
        /* Nobody puts the next round before everybody checked this one. */
        rc = fence(0, 0);
        CHECK(rc == PMIX_SUCCESS, "round %d: plain fence: %s", round, PMIx_Error_string(rc));
    }
    printf("rank %u: %d rounds checked\n", me.rank, rounds);
}

static void nb_rounds(int rounds)
{
    for (int round = 0; round < rounds; ++round) {
        put_round(round);
        pmix_status_t rc = fence_nb_collect();
        CHECK(rc == PMIX_SUCCESS, "round %d: collecting Fence_nb: %s", round, PMIx_Error_string(rc));
        check_peers(round);
        two_fences_at_once(round);
    }
    printf("rank %u: %d nb rounds checked\n", me.rank, rounds);
}

static void hold(const char *dir)
{
    CHECK(fence(1, 0) == PMIX_SUCCESS, "fence");
    if (me.rank == 0) make_file(dir, "ready");
    for (int waited = 0; !file_exists(dir, "go") && waited < 60000; waited += 10) sleep_ms(10);
}

/* The last rank leaves (without finalizing: pmixrun lets the others go on)
 * once every other rank is about to wait in a fence; the others say so. */
static void last_rank_leaves_mid_fence(const char *dir)
{
    char name[64];
    if (me.rank == size - 1) {
        for (uint32_t rank = 0; rank + 1 < size; ++rank) {
            snprintf(name, sizeof name, "entering.%u", rank);
            for (int waited = 0; !file_exists(dir, name) && waited < 30000; waited += 5) sleep_ms(5);
        }
        sleep_ms(300);
        _exit(0);
    }
    snprintf(name, sizeof name, "entering.%u", me.rank);
    make_file(dir, name);
}

static void die(const char *dir)
{
    last_rank_leaves_mid_fence(dir);
    pmix_status_t rc = fence(0, 20);
    printf("rank %u: fence %s\n", me.rank, PMIx_Error_string(rc));
    CHECK(rc == PMIX_ERR_LOST_CONNECTION, "the fence returned %s, not PMIX_ERR_LOST_CONNECTION", PMIx_Error_string(rc));
    rc = fence(0, 20);
    printf("rank %u: next fence %s\n", me.rank, PMIx_Error_string(rc));
    CHECK(rc == PMIX_ERR_LOST_CONNECTION, "the next fence returned %s", PMIx_Error_string(rc));
}

static void die_nb(const char *dir)
{
    last_rank_leaves_mid_fence(dir);
    atomic_store(&nb_done, 0);
    pmix_status_t rc = PMIx_Fence_nb(NULL, 0, NULL, 0, fence_nb_done, NULL);
    for (int waited = 0; rc == PMIX_SUCCESS && !atomic_load(&nb_done) && waited < 20000; ++waited) sleep_ms(1);
    if (rc == PMIX_SUCCESS) rc = atomic_load(&nb_done) ? atomic_load(&nb_status) : PMIX_ERR_TIMEOUT;
    printf("rank %u: fence_nb %s\n", me.rank, PMIx_Error_string(rc));
    CHECK(rc == PMIX_ERR_LOST_CONNECTION, "the Fence_nb ended %s, not PMIX_ERR_LOST_CONNECTION", PMIx_Error_string(rc));
}

static void late(void)
{
    if (me.rank == 0) {
        pmix_status_t rc = fence(0, 1);
        printf("rank 0: early fence %s\n", PMIx_Error_string(rc));
        CHECK(rc == PMIX_ERR_TIMEOUT, "the early fence returned %s", PMIx_Error_string(rc));
    } else {
        sleep_ms(2500);
    }
    pmix_status_t rc = fence(0, 0);
    printf("rank %u: fence %s\n", me.rank, rc == PMIX_SUCCESS ? "ok" : PMIx_Error_string(rc));
    CHECK(rc == PMIX_SUCCESS, "the fence after the timeout returned %s", PMIx_Error_string(rc));
}

static void late_nb(void)
{
    if (me.rank == 0) {
        pmix_info_t info;
        int timeout_s = 1;
        PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout_s, PMIX_INT);
        atomic_store(&nb_done, 0);
        pmix_status_t rc = PMIx_Fence_nb(NULL, 0, &info, 1, fence_nb_done, NULL);
        for (int waited = 0; rc == PMIX_SUCCESS && !atomic_load(&nb_done) && waited < 20000; ++waited) sleep_ms(1);
        PMIX_INFO_DESTRUCT(&info);
        if (rc == PMIX_SUCCESS) rc = atomic_load(&nb_done) ? atomic_load(&nb_status) : PMIX_ERR_WOULD_BLOCK;
        printf("rank 0: early Fence_nb %s\n", PMIx_Error_string(rc));
        CHECK(rc == PMIX_ERR_TIMEOUT, "the early Fence_nb ended %s", PMIx_Error_string(rc));
    } else {
        sleep_ms(2500);
    }
    pmix_status_t rc = fence_nb_collect();
    printf("rank %u: fence %s\n", me.rank, rc == PMIX_SUCCESS ? "ok" : PMIx_Error_string(rc));
    CHECK(rc == PMIX_SUCCESS, "the Fence_nb after the timeout ended %s", PMIx_Error_string(rc));
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    const char *rank_env = getenv("PMIX_RANK");
    if (strcmp(argv[1], "collect") == 0 && argc > 3 && rank_env != NULL && strcmp(rank_env, argv[3]) == 0) {
        setenv("PMIX_MCA_pmix_fence_arena", "0", 1);
    }
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) return 1;
    pmix_proc_t job = me;
    pmix_value_t *value = NULL;
    job.rank = PMIX_RANK_WILDCARD;
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &value) != PMIX_SUCCESS) return 1;
    size = value->data.uint32;
    PMIX_VALUE_RELEASE(value);
    if (strcmp(argv[1], "collect") == 0 && argc > 2) collect_rounds(atoi(argv[2]));
    else if (strcmp(argv[1], "hold") == 0 && argc > 2) hold(argv[2]);
    else if (strcmp(argv[1], "die") == 0 && argc > 2) die(argv[2]);
    else if (strcmp(argv[1], "timeout") == 0) late();
    else if (strcmp(argv[1], "timeout_nb") == 0) late_nb();
    else if (strcmp(argv[1], "nb") == 0 && argc > 2) nb_rounds(atoi(argv[2]));
    else if (strcmp(argv[1], "die_nb") == 0 && argc > 2) die_nb(argv[2]);
    else return 2;
    PMIx_Finalize(NULL, 0);
    return failures == 0 ? 0 : 1;
}
