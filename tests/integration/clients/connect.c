/*
 * connect: PMIx_Connect between two jobs on one server.
 *   --other NSPACE --other-size M [--nb]
 * Puts and commits a value of its own, connects its whole job with the
 * other whole job, then reads the other job's size (job level) and rank 0's
 * committed value, and disconnects (with the _nb forms when --nb is given).
 * Bad arguments are refused before anything is sent.
 */
#include "client_util.h"

#define VALUE_KEY "itest.connect.value"

struct op_wait {
    volatile int done;
    pmix_status_t status;
};

static void op_done(pmix_status_t status, void *cbdata)
{
    struct op_wait *wait = cbdata;
    wait->status = status;
    __atomic_store_n(&wait->done, 1, __ATOMIC_RELEASE);
}

/* Waits (bounded) for an _nb call's callback. */
static pmix_status_t wait_op(pmix_status_t rc, struct op_wait *wait)
{
    if (rc != PMIX_SUCCESS) return rc;
    for (int waited = 0; !__atomic_load_n(&wait->done, __ATOMIC_ACQUIRE); waited += 5) {
        if (waited > ITC_TIMEOUT_S * 1000) return PMIX_ERR_TIMEOUT;
        itc_sleep_ms(5);
    }
    return wait->status;
}

static pmix_status_t connect_or_disconnect(int disconnect, int nb, const pmix_proc_t *procs, size_t nprocs)
{
    pmix_info_t info;
    int timeout = ITC_TIMEOUT_S;
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    struct op_wait wait = {0, PMIX_ERROR};
    pmix_status_t rc;
    if (disconnect) {
        rc = nb ? wait_op(PMIx_Disconnect_nb(procs, nprocs, &info, 1, op_done, &wait), &wait)
                : PMIx_Disconnect(procs, nprocs, &info, 1);
    } else {
        rc = nb ? wait_op(PMIx_Connect_nb(procs, nprocs, &info, 1, op_done, &wait), &wait)
                : PMIx_Connect(procs, nprocs, &info, 1);
    }
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

static void put_own_value(void)
{
    char text[PMIX_MAX_NSLEN + 32];
    snprintf(text, sizeof(text), "from %s:%u", itc_me.nspace, itc_me.rank);
    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, VALUE_KEY, &value);
    PMIX_VALUE_DESTRUCT(&value);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Put: %s", itc_err(rc));
    rc = PMIx_Commit();
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Commit: %s", itc_err(rc));
}

static void check_bad_arguments(void)
{
    pmix_status_t rc = PMIx_Connect(NULL, 1, NULL, 0);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "PMIx_Connect(NULL procs): %s", itc_err(rc));
    rc = PMIx_Disconnect(&itc_me, 0, NULL, 0);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "PMIx_Disconnect(0 procs): %s", itc_err(rc));
}

static void check_other_job(const char *other, uint32_t other_size)
{
    pmix_proc_t job, first;
    PMIX_LOAD_PROCID(&job, other, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&first, other, 0);
    ITC_EXPECT_U32(&job, PMIX_JOB_SIZE, other_size);
    char expected[PMIX_MAX_NSLEN + 32];
    snprintf(expected, sizeof(expected), "from %s:0", other);
    ITC_EXPECT_STRING(&first, VALUE_KEY, expected);
}

int main(int argc, char **argv)
{
    itc_start();
    const char *other = itc_arg(argc, argv, "--other");
    uint32_t other_size = (uint32_t)itc_arg_long(argc, argv, "--other-size", 0);
    int nb = itc_has_flag(argc, argv, "--nb");
    if (other == NULL) {
        printf("rank ? FAIL: usage: connect --other NSPACE --other-size M [--nb]\n");
        return 64;
    }
    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s (%d)\n", itc_err(rc), rc);
        return 2;
    }
    put_own_value();
    check_bad_arguments();
    pmix_proc_t both[2];
    PMIX_LOAD_PROCID(&both[0], itc_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&both[1], other, PMIX_RANK_WILDCARD);
    rc = connect_or_disconnect(0, nb, both, 2);
    ITC_CHECK(rc == PMIX_SUCCESS, "connect: %s", itc_err(rc));
    itc_step("connected");
    check_other_job(other, other_size);
    itc_step("read the other job");
    rc = connect_or_disconnect(1, nb, both, 2);
    ITC_CHECK(rc == PMIX_SUCCESS, "disconnect: %s", itc_err(rc));
    itc_step("disconnected");
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}
