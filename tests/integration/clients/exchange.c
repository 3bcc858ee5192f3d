/*
 * exchange: the data path of a parallel job. Init, put one key per scope
 * (strings, integers, byte objects, one large), commit, fence collecting the
 * data, get every local peer's keys and compare, read the job/node/proc keys
 * Open MPI needs (derived ones included), finalize.
 *
 * Expectations come from the host on the command line:
 *   --job-size N --local-size L --first-local F --hostname H --nodeid K
 *   [--univ-size U] [--num-nodes M] [--peer RANK:HOST:NODEID ...] [--hold DIR]
 *   [--no-data] (skip put/commit/fence: layout checks only)
 *   [--check-scopes] (a local peer must not see PMIX_REMOTE data)
 *   [--no-collect] (fence without PMIX_COLLECT_DATA: peers' data on demand)
 *   [--extras] (PMIx_Get_nb, PMIX_IMMEDIATE, PMIX_GET_REFRESH_CACHE,
 *              PMIx_Resolve_peers / PMIx_Resolve_nodes)
 */
#include "client_util.h"

#include <stdatomic.h>

#define BIG_SIZE 100000u

static uint32_t g_first_local;
static uint32_t g_local_size;
static int g_check_scopes;

/* A client keeps only the components it uses: one ptl, one psec, one gds. */
static int component_libraries_mapped(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL) return -1;
    char line[4096], seen[16][256];
    int count = 0;
    while (fgets(line, sizeof line, maps) != NULL) {
        const char *name = strstr(line, "/pmixpp_");
        if (name == NULL) continue;
        int known = 0;
        for (int i = 0; i < count && !known; ++i) known = strncmp(seen[i], name, sizeof seen[i] - 1) == 0;
        if (!known && count < 16) snprintf(seen[count++], sizeof seen[0], "%s", name);
    }
    fclose(maps);
    return count;
}

static void put_one(pmix_scope_t scope, const char *key, pmix_value_t *value)
{
    pmix_status_t rc = PMIx_Put(scope, key, value);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Put %s: %s", key, itc_err(rc));
}

static size_t small_size(uint32_t rank)
{
    return 5 + rank % 7;
}

static void put_data(void)
{
    char text[64];
    uint8_t small[16];
    uint8_t *big = malloc(BIG_SIZE);
    pmix_value_t value;

    snprintf(text, sizeof(text), "value-of-%u", itc_me.rank);
    PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
    put_one(PMIX_GLOBAL, "itest.str", &value);
    PMIX_VALUE_DESTRUCT(&value);

    itc_pattern(itc_me.rank, small, small_size(itc_me.rank));
    pmix_byte_object_t bytes = {(char *)small, small_size(itc_me.rank)};
    PMIX_VALUE_LOAD(&value, &bytes, PMIX_BYTE_OBJECT);
    put_one(PMIX_GLOBAL, "itest.bytes", &value);
    PMIX_VALUE_DESTRUCT(&value);

    itc_pattern(itc_me.rank + 1000, big, BIG_SIZE);
    pmix_byte_object_t large = {(char *)big, BIG_SIZE};
    PMIX_VALUE_LOAD(&value, &large, PMIX_BYTE_OBJECT);
    put_one(PMIX_GLOBAL, "itest.big", &value);
    PMIX_VALUE_DESTRUCT(&value);
    free(big);

    uint32_t local = 1000 + itc_me.rank;
    PMIX_VALUE_LOAD(&value, &local, PMIX_UINT32);
    put_one(PMIX_LOCAL, "itest.local", &value);
    PMIX_VALUE_DESTRUCT(&value);

    uint64_t remote = 2000 + itc_me.rank;
    PMIX_VALUE_LOAD(&value, &remote, PMIX_UINT64);
    put_one(PMIX_REMOTE, "itest.remote", &value);
    PMIX_VALUE_DESTRUCT(&value);
}

static void fence_with_data(bool collect)
{
    pmix_proc_t all;
    pmix_info_t info;
    PMIX_LOAD_PROCID(&all, itc_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Fence(collect=%d): %s", (int)collect, itc_err(rc));
}

/* ---- --extras: Get_nb, IMMEDIATE, REFRESH_CACHE, Resolve_peers/nodes ---- */

/* Set on the library's callback thread, read by main (the text is
 * published by the store to g_get_nb_done). */
static atomic_int g_get_nb_done;
static atomic_int g_get_nb_status = PMIX_ERROR;
static char g_get_nb_text[64];

static void get_nb_done(pmix_status_t status, pmix_value_t *value, void *cbdata)
{
    (void)cbdata;
    if (status == PMIX_SUCCESS && value != NULL && value->type == PMIX_STRING && value->data.string != NULL) {
        snprintf(g_get_nb_text, sizeof(g_get_nb_text), "%s", value->data.string);
    }
    atomic_store(&g_get_nb_status, status);
    atomic_store(&g_get_nb_done, 1);
}

static void check_get_nb(uint32_t peer_rank)
{
    pmix_proc_t peer;
    char expected[64];
    PMIX_LOAD_PROCID(&peer, itc_me.nspace, peer_rank);
    snprintf(expected, sizeof(expected), "value-of-%u", peer_rank);
    pmix_status_t rc = PMIx_Get_nb(&peer, "itest.str", NULL, 0, get_nb_done, NULL);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Get_nb: %s", itc_err(rc));
    for (int waited = 0; rc == PMIX_SUCCESS && !atomic_load(&g_get_nb_done) && waited < ITC_TIMEOUT_S * 1000;
         ++waited) {
        itc_sleep_ms(1);
    }
    const int done = atomic_load(&g_get_nb_done);
    const pmix_status_t status = atomic_load(&g_get_nb_status);
    ITC_CHECK(rc != PMIX_SUCCESS || done, "PMIx_Get_nb never called back");
    ITC_CHECK(!done || status == PMIX_SUCCESS, "PMIx_Get_nb: %s", itc_err(status));
    ITC_CHECK(!done || strcmp(g_get_nb_text, expected) == 0, "PMIx_Get_nb gave \"%s\", expected \"%s\"", g_get_nb_text,
              expected);
}

/* A key nobody put: IMMEDIATE must answer NOT_FOUND instead of waiting for it. */
static void check_immediate_miss(uint32_t peer_rank)
{
    pmix_proc_t peer;
    pmix_info_t info;
    pmix_value_t *value = NULL;
    bool yes = true;
    PMIX_LOAD_PROCID(&peer, itc_me.nspace, peer_rank);
    PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&peer, "itest.never-put", &info, 1, &value);
    PMIX_INFO_DESTRUCT(&info);
    ITC_CHECK(rc == PMIX_ERR_NOT_FOUND, "get of a key never put with PMIX_IMMEDIATE: %s", itc_err(rc));
    if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static void check_refresh_cache(uint32_t peer_rank)
{
    pmix_proc_t peer;
    pmix_info_t info;
    pmix_value_t *value = NULL;
    bool yes = true;
    PMIX_LOAD_PROCID(&peer, itc_me.nspace, peer_rank);
    PMIX_INFO_LOAD(&info, PMIX_GET_REFRESH_CACHE, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&peer, "itest.str", &info, 1, &value);
    PMIX_INFO_DESTRUCT(&info);
    ITC_CHECK(rc == PMIX_SUCCESS, "get with PMIX_GET_REFRESH_CACHE: %s", itc_err(rc));
    if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static void check_resolve(const char *hostname)
{
    pmix_proc_t *procs = NULL;
    size_t nprocs = 0;
    pmix_status_t rc = PMIx_Resolve_peers(hostname, itc_me.nspace, &procs, &nprocs);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Resolve_peers(%s): %s", hostname, itc_err(rc));
    ITC_CHECK(rc != PMIX_SUCCESS || nprocs == g_local_size, "PMIx_Resolve_peers found %zu procs, expected %u", nprocs,
              g_local_size);
    for (size_t i = 0; rc == PMIX_SUCCESS && i < nprocs && nprocs == g_local_size; ++i) {
        ITC_CHECK(procs[i].rank == g_first_local + i && strcmp(procs[i].nspace, itc_me.nspace) == 0,
                  "PMIx_Resolve_peers entry %zu is %s:%u", i, procs[i].nspace, procs[i].rank);
    }
    if (procs != NULL) PMIX_PROC_FREE(procs, nprocs);
    char *nodes = NULL;
    rc = PMIx_Resolve_nodes(itc_me.nspace, &nodes);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Resolve_nodes: %s", itc_err(rc));
    ITC_CHECK(rc != PMIX_SUCCESS || (nodes != NULL && strstr(nodes, hostname) != NULL),
              "PMIx_Resolve_nodes gave \"%s\", without %s", nodes != NULL ? nodes : "(null)", hostname);
    free(nodes);
}

static void check_extras(const char *hostname)
{
    const uint32_t peer = g_first_local + (itc_me.rank - g_first_local + 1) % g_local_size;
    check_get_nb(peer);
    check_immediate_miss(peer);
    check_refresh_cache(peer);
    if (hostname != NULL) check_resolve(hostname);
    itc_step("extras");
}

static void expect_bytes(const pmix_proc_t *peer, const char *key, uint32_t seed, size_t size)
{
    pmix_value_t *value = itc_get_typed(__LINE__, peer, key, PMIX_BYTE_OBJECT);
    if (value == NULL) return;
    uint8_t *expected = malloc(size);
    itc_pattern(seed, expected, size);
    ITC_CHECK(value->data.bo.size == size, "%s of rank %u has %zu bytes, expected %zu", key, peer->rank,
              value->data.bo.size, size);
    if (value->data.bo.size == size) {
        ITC_CHECK(memcmp(value->data.bo.bytes, expected, size) == 0, "%s of rank %u: wrong bytes", key, peer->rank);
    }
    free(expected);
    PMIX_VALUE_RELEASE(value);
}

static void check_peer_data(uint32_t rank)
{
    pmix_proc_t peer;
    char text[64];
    PMIX_LOAD_PROCID(&peer, itc_me.nspace, rank);
    snprintf(text, sizeof(text), "value-of-%u", rank);
    ITC_EXPECT_STRING(&peer, "itest.str", text);
    expect_bytes(&peer, "itest.bytes", rank, small_size(rank));
    expect_bytes(&peer, "itest.big", rank + 1000, BIG_SIZE);
    ITC_EXPECT_U32(&peer, "itest.local", 1000 + rank);
    if (g_check_scopes && rank != itc_me.rank) {
        /* PMIX_REMOTE data is for processes on other nodes only. */
        pmix_value_t *value = NULL;
        pmix_status_t rc = itc_get(&peer, "itest.remote", 1, &value);
        ITC_CHECK(rc != PMIX_SUCCESS, "a local peer read rank %u's PMIX_REMOTE key", rank);
        if (value != NULL) PMIX_VALUE_RELEASE(value);
    }
}

static void check_job_keys(int argc, char **argv)
{
    pmix_proc_t job;
    char peers[8192];
    uint32_t job_size = (uint32_t)itc_arg_long(argc, argv, "--job-size", 0);
    PMIX_LOAD_PROCID(&job, itc_me.nspace, PMIX_RANK_WILDCARD);
    ITC_EXPECT_U32(&job, PMIX_JOB_SIZE, job_size);
    ITC_EXPECT_U32(&job, PMIX_LOCAL_SIZE, g_local_size);
    itc_rank_list(g_first_local, g_local_size, peers, sizeof(peers));
    ITC_EXPECT_STRING(&job, PMIX_LOCAL_PEERS, peers);
    long univ = itc_arg_long(argc, argv, "--univ-size", 0);
    if (univ > 0) ITC_EXPECT_U32(&job, PMIX_UNIV_SIZE, (uint32_t)univ);
    long nodes = itc_arg_long(argc, argv, "--num-nodes", 0);
    if (nodes > 0) ITC_EXPECT_U32(&job, PMIX_NUM_NODES, (uint32_t)nodes);
    pmix_value_t *value = itc_get_typed(__LINE__, &job, PMIX_MAX_PROCS, PMIX_UINT32);
    if (value != NULL) {
        ITC_CHECK(value->data.uint32 >= job_size, "pmix.max.size %u < job size %u", value->data.uint32, job_size);
        PMIX_VALUE_RELEASE(value);
    }
    value = itc_get_typed(__LINE__, &job, PMIX_UNIV_SIZE, PMIX_UINT32);
    if (value != NULL) {
        ITC_CHECK(value->data.uint32 >= job_size, "pmix.univ.size %u < job size %u", value->data.uint32, job_size);
        PMIX_VALUE_RELEASE(value);
    }
}

static void check_proc_keys(const char *hostname, uint32_t nodeid)
{
    for (uint32_t r = g_first_local; r < g_first_local + g_local_size; ++r) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, r);
        ITC_EXPECT_U16(&peer, PMIX_LOCAL_RANK, (uint16_t)(r - g_first_local));
        ITC_EXPECT_U16(&peer, PMIX_NODE_RANK, (uint16_t)(r - g_first_local));
        ITC_EXPECT_STRING(&peer, PMIX_HOSTNAME, hostname);
        ITC_EXPECT_U32(&peer, PMIX_NODEID, nodeid);
        ITC_EXPECT_U32(&peer, PMIX_APPNUM, 0);
    }
}

/* --peer RANK:HOST:NODEID: a process on another node, known only from the maps. */
static void check_remote_peers(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "--peer") != 0) continue;
        char host[256];
        unsigned rank = 0;
        unsigned nodeid = 0;
        if (sscanf(argv[i + 1], "%u:%255[^:]:%u", &rank, host, &nodeid) != 3) {
            ITC_CHECK(0, "bad --peer %s", argv[i + 1]);
            continue;
        }
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, rank);
        ITC_EXPECT_STRING(&peer, PMIX_HOSTNAME, host);
        ITC_EXPECT_U32(&peer, PMIX_NODEID, nodeid);
    }
}

int main(int argc, char **argv)
{
    itc_start();
    g_first_local = (uint32_t)itc_arg_long(argc, argv, "--first-local", 0);
    g_local_size = (uint32_t)itc_arg_long(argc, argv, "--local-size", 1);
    const char *hostname = itc_arg(argc, argv, "--hostname");
    uint32_t nodeid = (uint32_t)itc_arg_long(argc, argv, "--nodeid", 0);
    g_check_scopes = itc_has_flag(argc, argv, "--check-scopes");

    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s (%d)\n", itc_err(rc), rc);
        return 2;
    }
    itc_step("init");
    ITC_CHECK(PMIx_Initialized() == 1, "PMIx_Initialized after init");
    const int components = component_libraries_mapped();
    ITC_CHECK(components == 3, "%d component libraries mapped after init (one ptl, psec and gds expected)", components);
    ITC_CHECK(itc_me.rank >= g_first_local && itc_me.rank < g_first_local + g_local_size,
              "rank %u is not one of the local ranks", itc_me.rank);

    if (!itc_has_flag(argc, argv, "--no-data")) {
        put_data();
        rc = PMIx_Commit();
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Commit: %s", itc_err(rc));
        fence_with_data(!itc_has_flag(argc, argv, "--no-collect"));
        itc_step("fence");
        for (uint32_t r = g_first_local; r < g_first_local + g_local_size; ++r) check_peer_data(r);
        itc_step("peer data");
        if (itc_has_flag(argc, argv, "--extras")) check_extras(hostname);
    }
    check_job_keys(argc, argv);
    if (hostname != NULL) check_proc_keys(hostname, nodeid);
    check_remote_peers(argc, argv);
    itc_step("layout keys");

    const char *hold = itc_arg(argc, argv, "--hold");
    if (hold != NULL) itc_hold(hold);

    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    ITC_CHECK(PMIx_Initialized() == 0, "PMIx_Initialized after finalize");
    return itc_finish();
}
