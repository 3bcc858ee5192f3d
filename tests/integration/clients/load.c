/*
 * One process of the load job: init, put a value of --bytes bytes that
 * names its rank, commit, a data-collecting fence over the whole job, get of
 * --peers peers' values (the next ranks, wrapping) and a check of each,
 * finalize; --rounds times over (a new put/commit/fence/get per round, one
 * init). Ends with "rank R ok" or one line per failure.
 */
#include "client_util.h"

static void fill(char *value, size_t bytes, pmix_rank_t rank, long round)
{
    for (size_t i = 0; i < bytes; ++i) value[i] = (char)('a' + (rank + (pmix_rank_t)round + i) % 26);
}

static void put_and_commit(pmix_rank_t rank, long round, size_t bytes)
{
    pmix_value_t value;
    char key[PMIX_MAX_KEYLEN];
    char *payload = malloc(bytes);
    fill(payload, bytes, rank, round);
    snprintf(key, sizeof key, "load.r%ld", round);
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = payload;
    value.data.bo.size = bytes;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &value);
    ITC_CHECK(rc == PMIX_SUCCESS, "put %s: %s", key, itc_err(rc));
    free(payload);
    rc = PMIx_Commit();
    ITC_CHECK(rc == PMIX_SUCCESS, "commit: %s", itc_err(rc));
}

static void fence_with_data(void)
{
    pmix_info_t info[2];
    bool collect = true;
    int timeout = ITC_TIMEOUT_S * 3;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, itc_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Fence(&all, 1, info, 2);
    ITC_CHECK(rc == PMIX_SUCCESS, "fence: %s", itc_err(rc));
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}

static void check_peers(uint32_t size, long peers, long round, size_t bytes)
{
    char key[PMIX_MAX_KEYLEN];
    char *expected = malloc(bytes);
    snprintf(key, sizeof key, "load.r%ld", round);
    for (long i = 1; i <= peers; ++i) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, (pmix_rank_t)((itc_me.rank + (uint32_t)i) % size));
        pmix_value_t *value = itc_get_typed(__LINE__, &peer, key, PMIX_BYTE_OBJECT);
        if (value == NULL) continue;
        fill(expected, bytes, peer.rank, round);
        ITC_CHECK(value->data.bo.size == bytes && memcmp(value->data.bo.bytes, expected, bytes) == 0,
                  "%s of rank %u: wrong contents (%zu bytes)", key, peer.rank, value->data.bo.size);
        PMIX_VALUE_RELEASE(value);
    }
    free(expected);
}

int main(int argc, char **argv)
{
    itc_start();
    const long peers = itc_arg_long(argc, argv, "--peers", 16);
    const long rounds = itc_arg_long(argc, argv, "--rounds", 1);
    const size_t bytes = (size_t)itc_arg_long(argc, argv, "--bytes", 256);
    if (!itc_init()) return 1;
    const uint32_t size = itc_job_size();
    for (long round = 0; round < rounds; ++round) {
        put_and_commit(itc_me.rank, round, bytes);
        fence_with_data();
        check_peers(size, peers < (long)size ? peers : (long)size - 1, round, bytes);
    }
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "finalize: %s", itc_err(rc));
    return itc_finish();
}
