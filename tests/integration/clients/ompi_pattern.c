/*
 * ompi_pattern: what Open MPI 4.1 does with PMIx. PMIx_Init twice, then
 * PMIx_Finalize once right away and keep using the library; store the
 * non-"pmix." key opal.puri with PMIx_Store_internal; put a btl.* byte
 * object; run the modex as PMIx_Fence_nb(NULL, 0, {pmix.collect=true});
 * read what ess/pmi reads without pmix.optional; a barrier; the final
 * PMIx_Finalize.
 */
#include "client_util.h"

#include <stdatomic.h>

/* Set on the library's callback thread, read by main. */
static atomic_int g_fence_done;
static atomic_int g_fence_status = PMIX_ERROR;

static void fence_done(pmix_status_t status, void *cbdata)
{
    (void)cbdata;
    atomic_store(&g_fence_status, status);
    atomic_store(&g_fence_done, 1);
}

static void modex(void)
{
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence_nb(NULL, 0, &info, 1, fence_done, NULL);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Fence_nb: %s", itc_err(rc));
    for (int waited = 0; rc == PMIX_SUCCESS && !atomic_load(&g_fence_done); waited += 1) {
        if (waited > ITC_TIMEOUT_S * 1000) {
            ITC_CHECK(0, "PMIx_Fence_nb never called back");
            break;
        }
        itc_sleep_ms(1);
    }
    const int done = atomic_load(&g_fence_done);
    const pmix_status_t status = atomic_load(&g_fence_status);
    ITC_CHECK(!done || status == PMIX_SUCCESS, "modex fence: %s", itc_err(status));
    /* The info must stay valid until the callback: destruct only now. */
    if (done) PMIX_INFO_DESTRUCT(&info);
}

static void store_internal(void)
{
    char uri[64];
    pmix_value_t value;
    snprintf(uri, sizeof(uri), "1234.0;tcp://127.0.0.1:%u", 40000 + itc_me.rank);
    PMIX_VALUE_LOAD(&value, uri, PMIX_STRING);
    pmix_status_t rc = PMIx_Store_internal(&itc_me, "opal.puri", &value);
    PMIX_VALUE_DESTRUCT(&value);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Store_internal(opal.puri): %s", itc_err(rc));
    ITC_EXPECT_STRING(&itc_me, "opal.puri", uri);
}

static void put_endpoint(void)
{
    uint8_t address[24];
    itc_pattern(itc_me.rank, address, sizeof(address));
    pmix_byte_object_t bytes = {(char *)address, sizeof(address)};
    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, &bytes, PMIX_BYTE_OBJECT);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "btl.tcp.4.1", &value);
    PMIX_VALUE_DESTRUCT(&value);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Put(btl.tcp.4.1): %s", itc_err(rc));
    rc = PMIx_Commit();
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Commit: %s", itc_err(rc));
}

static void read_endpoints(uint32_t job_size)
{
    for (uint32_t r = 0; r < job_size; ++r) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, itc_me.nspace, r);
        pmix_value_t *value = itc_get_typed(__LINE__, &peer, "btl.tcp.4.1", PMIX_BYTE_OBJECT);
        if (value == NULL) continue;
        uint8_t expected[24];
        itc_pattern(r, expected, sizeof(expected));
        ITC_CHECK(value->data.bo.size == sizeof(expected) &&
                      memcmp(value->data.bo.bytes, expected, sizeof(expected)) == 0,
                  "btl.tcp.4.1 of rank %u differs", r);
        PMIX_VALUE_RELEASE(value);
    }
}

/* ess/pmi reads these without pmix.optional: they must exist. */
static uint32_t read_layout(void)
{
    pmix_proc_t job;
    uint32_t job_size = 0;
    PMIX_LOAD_PROCID(&job, itc_me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *value = itc_get_typed(__LINE__, &job, PMIX_JOB_SIZE, PMIX_UINT32);
    if (value != NULL) {
        job_size = value->data.uint32;
        PMIX_VALUE_RELEASE(value);
    }
    const char *job_keys[] = {PMIX_LOCAL_SIZE, PMIX_MAX_PROCS, PMIX_UNIV_SIZE};
    for (size_t i = 0; i < sizeof(job_keys) / sizeof(job_keys[0]); ++i) {
        value = itc_get_typed(__LINE__, &job, job_keys[i], PMIX_UINT32);
        if (value != NULL) PMIX_VALUE_RELEASE(value);
    }
    value = itc_get_typed(__LINE__, &job, PMIX_LOCAL_PEERS, PMIX_STRING);
    if (value != NULL) PMIX_VALUE_RELEASE(value);
    ITC_EXPECT_U16(&itc_me, PMIX_LOCAL_RANK, (uint16_t)itc_me.rank);
    ITC_EXPECT_U16(&itc_me, PMIX_NODE_RANK, (uint16_t)itc_me.rank);
    ITC_EXPECT_U32(&itc_me, PMIX_APPNUM, 0);
    value = itc_get_typed(__LINE__, &itc_me, PMIX_HOSTNAME, PMIX_STRING);
    if (value != NULL) PMIX_VALUE_RELEASE(value);
    return job_size;
}

int main(void)
{
    itc_start();
    pmix_proc_t again;
    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s (%d)\n", itc_err(rc), rc);
        return 2;
    }
    rc = PMIx_Init(&again, NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "second PMIx_Init: %s", itc_err(rc));
    ITC_CHECK(rc != PMIX_SUCCESS || (PMIX_CHECK_PROCID(&again, &itc_me)), "second PMIx_Init gave another identity");
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "first PMIx_Finalize: %s", itc_err(rc));
    ITC_CHECK(PMIx_Initialized() == 1, "one PMIx_Finalize after two PMIx_Init ended the library");
    itc_step("init twice, finalize once");

    uint32_t job_size = read_layout();
    store_internal();
    put_endpoint();
    modex();
    itc_step("modex");
    read_endpoints(job_size);
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "barrier PMIx_Fence: %s", itc_err(rc));

    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "final PMIx_Finalize: %s", itc_err(rc));
    ITC_CHECK(PMIx_Initialized() == 0, "PMIx_Initialized after the final finalize");
    return itc_finish();
}
