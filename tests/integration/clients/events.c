/*
 * events: every rank registers a handler for a user-defined event code;
 * after a barrier rank 0 notifies the namespace and every other rank must
 * see the event, from rank 0, with the payload it attached.
 */
#include "client_util.h"

#include <stdatomic.h>

#define ITEST_EVENT (PMIX_EXTERNAL_ERR_BASE - 42)
#define PAYLOAD_KEY "itest.payload"

/* Set on the library's event thread, read by main. */
static atomic_int g_received;
static atomic_uint g_source = PMIX_RANK_UNDEF;
static atomic_int g_payload_ok;

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                     pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)results;
    (void)nresults;
    if (status == ITEST_EVENT) {
        if (source != NULL) atomic_store(&g_source, source->rank);
        for (size_t i = 0; i < ninfo; ++i) {
            if (PMIX_CHECK_KEY(&info[i], PAYLOAD_KEY) && info[i].value.type == PMIX_STRING &&
                strcmp(info[i].value.data.string, "hello") == 0) {
                atomic_store(&g_payload_ok, 1);
            }
        }
        atomic_store(&g_received, 1);
    }
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void barrier(void)
{
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Fence: %s", itc_err(rc));
}

int main(void)
{
    itc_start();
    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s (%d)\n", itc_err(rc), rc);
        return 2;
    }
    pmix_status_t code = ITEST_EVENT;
    /* No registration callback: the call blocks and returns the handler's reference. */
    rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_event, NULL, NULL);
    const pmix_status_t registered = rc;
    ITC_CHECK(registered >= 0, "PMIx_Register_event_handler: %s", itc_err(registered));
    barrier();
    itc_step("registered");

    if (itc_me.rank == 0) {
        pmix_info_t info;
        PMIX_INFO_LOAD(&info, PAYLOAD_KEY, "hello", PMIX_STRING);
        rc = PMIx_Notify_event(ITEST_EVENT, &itc_me, PMIX_RANGE_NAMESPACE, &info, 1, NULL, NULL);
        PMIX_INFO_DESTRUCT(&info);
        ITC_CHECK(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "PMIx_Notify_event: %s", itc_err(rc));
    } else {
        for (int waited = 0; !atomic_load(&g_received) && waited <= ITC_TIMEOUT_S * 1000; waited += 5) {
            itc_sleep_ms(5);
        }
        const int received = atomic_load(&g_received);
        const unsigned source = atomic_load(&g_source);
        ITC_CHECK(received, "the event of rank 0 never arrived");
        ITC_CHECK(!received || source == 0, "event source is rank %u, expected 0", source);
        ITC_CHECK(!received || atomic_load(&g_payload_ok), "the event arrived without its payload");
    }
    barrier();
    if (registered >= 0) {
        rc = PMIx_Deregister_event_handler((size_t)registered, NULL, NULL);
        ITC_CHECK(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "PMIx_Deregister_event_handler: %s",
                  itc_err(rc));
    }
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}
