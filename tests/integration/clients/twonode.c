/*
 * twonode: one process of a job spread over two nodes (two host processes
 * on this machine, each with its own server). Puts one key per scope,
 * commits, fences across both nodes, then reads every other process's keys:
 * a peer on the same node must show its PMIX_LOCAL and PMIX_GLOBAL keys and
 * never its PMIX_REMOTE one; a peer on the other node its PMIX_REMOTE and
 * PMIX_GLOBAL keys and never its PMIX_LOCAL one. Then the layout keys of
 * both nodes, a second (empty) fence, finalize.
 *
 *   --job-size N --first-local F --local-size L --nodes A,B --ppn P
 *   --hostname H --nodeid K [--no-collect] (peers' data fetched on demand,
 *   from the other node through its host: direct modex) [--group] (a group
 *   construct of the whole job instead of the first fence: the data comes
 *   with it)
 */
#include "client_util.h"

#define BIG_SIZE 40000u

static uint32_t g_first_local;
static uint32_t g_local_size;
static uint32_t g_ppn;
static char g_nodes[8][64];
static int g_nnodes;

static int is_local(uint32_t rank)
{
    return rank >= g_first_local && rank < g_first_local + g_local_size;
}

static void split_nodes(const char *list)
{
    char copy[512];
    snprintf(copy, sizeof(copy), "%s", list != NULL ? list : "");
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name != NULL && g_nnodes < 8;
         name = strtok_r(NULL, ",", &save)) {
        snprintf(g_nodes[g_nnodes++], sizeof(g_nodes[0]), "%s", name);
    }
}

static void put_one(pmix_scope_t scope, const char *key, pmix_value_t *value)
{
    pmix_status_t rc = PMIx_Put(scope, key, value);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Put %s: %s", key, itc_err(rc));
    PMIX_VALUE_DESTRUCT(value);
}

static void put_data(void)
{
    char text[64];
    pmix_value_t value;
    snprintf(text, sizeof(text), "global-%u", itc_me.rank);
    PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
    put_one(PMIX_GLOBAL, "tn.global", &value);

    uint32_t local = 1000 + itc_me.rank;
    PMIX_VALUE_LOAD(&value, &local, PMIX_UINT32);
    put_one(PMIX_LOCAL, "tn.local", &value);

    uint64_t remote = 2000 + itc_me.rank;
    PMIX_VALUE_LOAD(&value, &remote, PMIX_UINT64);
    put_one(PMIX_REMOTE, "tn.remote", &value);

    uint8_t *big = malloc(BIG_SIZE);
    itc_pattern(itc_me.rank, big, BIG_SIZE);
    pmix_byte_object_t bytes = {(char *)big, BIG_SIZE};
    PMIX_VALUE_LOAD(&value, &bytes, PMIX_BYTE_OBJECT);
    put_one(PMIX_GLOBAL, "tn.big", &value);
    free(big);
}

static void fence(bool collect)
{
    pmix_proc_t all;
    pmix_info_t info;
    PMIX_LOAD_PROCID(&all, itc_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Fence(collect=%d): %s", (int)collect, itc_err(rc));
}

/* --group: a group of the whole job instead of the collecting fence; its
 * construct brings the other node's data (PMIX_GROUP_ENDPT_DATA). */
static void construct_whole_job(void)
{
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, itc_me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Group_construct("tn.group", &all, 1, NULL, 0, &results, &nresults);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Group_construct over both nodes: %s", itc_err(rc));
    for (size_t i = 0; i < nresults; ++i) {
        ITC_CHECK(!PMIX_CHECK_KEY(&results[i], PMIX_GROUP_ENDPT_DATA), "the endpoint data reached the member");
    }
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
}

static void expect_hidden(const pmix_proc_t *peer, const char *key, const char *why)
{
    pmix_value_t *value = NULL;
    pmix_status_t rc = itc_get(peer, key, 0, &value);
    ITC_CHECK(rc != PMIX_SUCCESS, "read %s of rank %u (%s)", key, peer->rank, why);
    if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static void expect_big(const pmix_proc_t *peer)
{
    pmix_value_t *value = itc_get_typed(__LINE__, peer, "tn.big", PMIX_BYTE_OBJECT);
    if (value == NULL) return;
    uint8_t *expected = malloc(BIG_SIZE);
    itc_pattern(peer->rank, expected, BIG_SIZE);
    ITC_CHECK(value->data.bo.size == BIG_SIZE && memcmp(value->data.bo.bytes, expected, BIG_SIZE) == 0,
              "tn.big of rank %u: %zu bytes, or wrong ones", peer->rank, value->data.bo.size);
    free(expected);
    PMIX_VALUE_RELEASE(value);
}

static void check_peer(uint32_t rank)
{
    pmix_proc_t peer;
    char text[64];
    PMIX_LOAD_PROCID(&peer, itc_me.nspace, rank);
    snprintf(text, sizeof(text), "global-%u", rank);
    /* The first read of a remote peer is the one that may go through direct modex. */
    ITC_EXPECT_STRING(&peer, "tn.global", text);
    expect_big(&peer);
    if (is_local(rank)) {
        ITC_EXPECT_U32(&peer, "tn.local", 1000 + rank);
        expect_hidden(&peer, "tn.remote", "PMIX_REMOTE data of a peer on the same node");
    } else {
        pmix_value_t *value = itc_get_typed(__LINE__, &peer, "tn.remote", PMIX_UINT64);
        if (value != NULL) {
            ITC_CHECK(value->data.uint64 == 2000 + rank, "tn.remote of rank %u is %lu", rank,
                      (unsigned long)value->data.uint64);
            PMIX_VALUE_RELEASE(value);
        }
        expect_hidden(&peer, "tn.local", "PMIX_LOCAL data of a peer on another node");
    }
}

static void check_layout(uint32_t job_size, const char *hostname, uint32_t nodeid)
{
    pmix_proc_t job;
    char peers[256];
    PMIX_LOAD_PROCID(&job, itc_me.nspace, PMIX_RANK_WILDCARD);
    ITC_EXPECT_U32(&job, PMIX_JOB_SIZE, job_size);
    ITC_EXPECT_U32(&job, PMIX_LOCAL_SIZE, g_local_size);
    ITC_EXPECT_U32(&job, PMIX_NUM_NODES, (uint32_t)g_nnodes);
    itc_rank_list(g_first_local, g_local_size, peers, sizeof(peers));
    ITC_EXPECT_STRING(&job, PMIX_LOCAL_PEERS, peers);
    ITC_EXPECT_STRING(&itc_me, PMIX_HOSTNAME, hostname);
    ITC_EXPECT_U32(&itc_me, PMIX_NODEID, nodeid);
    for (uint32_t r = 0; r < job_size; ++r) {
        pmix_proc_t peer;
        uint32_t node = r / g_ppn;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, r);
        if (node < (uint32_t)g_nnodes) ITC_EXPECT_STRING(&peer, PMIX_HOSTNAME, g_nodes[node]);
        ITC_EXPECT_U32(&peer, PMIX_NODEID, node);
        if (is_local(r)) {
            ITC_EXPECT_U16(&peer, PMIX_LOCAL_RANK, (uint16_t)(r - g_first_local));
            ITC_EXPECT_U16(&peer, PMIX_NODE_RANK, (uint16_t)(r - g_first_local));
        }
    }
}

int main(int argc, char **argv)
{
    itc_start();
    uint32_t job_size = (uint32_t)itc_arg_long(argc, argv, "--job-size", 0);
    g_first_local = (uint32_t)itc_arg_long(argc, argv, "--first-local", 0);
    g_local_size = (uint32_t)itc_arg_long(argc, argv, "--local-size", 1);
    g_ppn = (uint32_t)itc_arg_long(argc, argv, "--ppn", 1);
    split_nodes(itc_arg(argc, argv, "--nodes"));
    const char *hostname = itc_arg(argc, argv, "--hostname");
    uint32_t nodeid = (uint32_t)itc_arg_long(argc, argv, "--nodeid", 0);
    bool collect = !itc_has_flag(argc, argv, "--no-collect");
    bool group = itc_has_flag(argc, argv, "--group");
    if (job_size == 0 || g_ppn == 0 || hostname == NULL || g_nnodes == 0) {
        printf("rank ? FAIL: bad arguments\n");
        return 64;
    }

    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s (%d)\n", itc_err(rc), rc);
        return 2;
    }
    itc_step("init");
    put_data();
    rc = PMIx_Commit();
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Commit: %s", itc_err(rc));
    if (group) {
        construct_whole_job();
    } else {
        fence(collect);
    }
    itc_step(group ? "group construct" : "fence");
    for (uint32_t r = 0; r < job_size; ++r) {
        if (r != itc_me.rank) check_peer(r);
    }
    itc_step("peer data");
    check_layout(job_size, hostname, nodeid);
    itc_step("layout keys");
    if (group) {
        rc = PMIx_Group_destruct("tn.group", NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Group_destruct: %s", itc_err(rc));
    }
    fence(false);
    itc_step("second fence");
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}
