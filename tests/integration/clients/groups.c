/*
 * groups: PMIx_Group_construct / PMIx_Group_destruct among real clients.
 *   --group NAME [--nb] [--cid] [--other NSPACE --other-size M]
 *   [--die RANK [--late] [--optional]] [--absent RANK] [--leave RANK] [--bad]
 * Every rank of its job (and of the other job, when named) constructs the
 * group, checks PMIX_GROUP_MEMBERSHIP (and with --cid a PMIX_GROUP_CONTEXT_ID,
 * printed as "cid N"), reads a value each member committed, then destructs.
 * --die RANK: that rank exits without finalizing before the construct, the
 * others expect PMIX_GROUP_MEMBER_FAILED (status and event); with --late it
 * dies a second after the others started the construct; with --optional
 * (PMIX_GROUP_OPTIONAL) the others form the group without it
 * (PMIX_ERR_PARTIAL_SUCCESS, no event). --absent RANK: that rank never
 * constructs, the others expect PMIX_ERR_TIMEOUT (PMIX_TIMEOUT 2).
 * --leave RANK: after the fence that rank leaves the group; the others hear
 * PMIX_GROUP_LEFT and destruct it without it. --bad:
 * refused arguments first (NULL name, no members, a list without the caller,
 * destruct of an unknown group).
 */
#include "client_util.h"

#define VALUE_KEY "itest.groups.value"

struct info_wait {
    volatile int done;
    pmix_status_t status;
    size_t cid;
    int has_cid;
    size_t members;
};

static void read_results(struct info_wait *wait, const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_CONTEXT_ID) && info[i].value.type == PMIX_SIZE) {
            wait->cid = info[i].value.data.size;
            wait->has_cid = 1;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_MEMBERSHIP) && info[i].value.type == PMIX_DATA_ARRAY &&
                   info[i].value.data.darray != NULL && info[i].value.data.darray->type == PMIX_PROC) {
            wait->members = info[i].value.data.darray->size;
        }
    }
}

static void construct_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                           pmix_release_cbfunc_t release, void *release_cbdata)
{
    struct info_wait *wait = cbdata;
    wait->status = status;
    read_results(wait, info, ninfo);
    if (release != NULL) release(release_cbdata);
    __atomic_store_n(&wait->done, 1, __ATOMIC_RELEASE);
}

static volatile int g_member_failed = -1; /* the rank PMIX_GROUP_MEMBER_FAILED named */

static void on_member_failed(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                             size_t ninfo, pmix_info_t results[], size_t nresults,
                             pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id, (void)status, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (source != NULL) __atomic_store_n(&g_member_failed, (int)source->rank, __ATOMIC_RELEASE);
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static volatile int g_left = -1; /* the rank PMIX_GROUP_LEFT named */

static void on_left(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                    pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id, (void)status, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (source != NULL) __atomic_store_n(&g_left, (int)source->rank, __ATOMIC_RELEASE);
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* --leave RANK: that rank leaves the group; the others hear PMIX_GROUP_LEFT
 * before they destruct it without the leaver. True for the leaver. */
static int leave_or_hear_it(const char *group, long leaver)
{
    if ((long)itc_me.rank == leaver) {
        pmix_status_t rc = PMIx_Group_leave(group, NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Group_leave: %s", itc_err(rc));
        rc = PMIx_Group_leave(group, NULL, 0);
        ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "leave again: %s", itc_err(rc));
        itc_step("left");
        return 1;
    }
    for (int waited = 0; __atomic_load_n(&g_left, __ATOMIC_ACQUIRE) < 0 && waited < 10000; waited += 10) {
        itc_sleep_ms(10);
    }
    int seen = __atomic_load_n(&g_left, __ATOMIC_ACQUIRE);
    ITC_CHECK(seen == (int)leaver, "PMIX_GROUP_LEFT named rank %d, not %ld", seen, leaver);
    return 0;
}

static void expect_member_failed_event(long rank)
{
    for (int waited = 0; __atomic_load_n(&g_member_failed, __ATOMIC_ACQUIRE) < 0 && waited < 10000; waited += 10) {
        itc_sleep_ms(10);
    }
    /* The dead rank, or a member that already finished after hearing of it. */
    int seen = __atomic_load_n(&g_member_failed, __ATOMIC_ACQUIRE);
    ITC_CHECK(seen >= 0 && seen != (int)itc_me.rank, "PMIX_GROUP_MEMBER_FAILED named rank %d (dead: %ld)", seen, rank);
}

static void op_done(pmix_status_t status, void *cbdata)
{
    struct info_wait *wait = cbdata;
    wait->status = status;
    __atomic_store_n(&wait->done, 1, __ATOMIC_RELEASE);
}

static pmix_status_t wait_for(pmix_status_t rc, struct info_wait *wait)
{
    if (rc != PMIX_SUCCESS) return rc;
    for (int waited = 0; !__atomic_load_n(&wait->done, __ATOMIC_ACQUIRE); waited += 5) {
        if (waited > ITC_TIMEOUT_S * 1000) return PMIX_ERR_TIMEOUT;
        itc_sleep_ms(5);
    }
    return wait->status;
}

static int g_optional; /* --optional: PMIX_GROUP_OPTIONAL */

static pmix_status_t construct(const char *group, const pmix_proc_t *procs, size_t nprocs, int nb, int cid, int timeout,
                               struct info_wait *wait)
{
    pmix_info_t info[3];
    size_t ninfo = 0;
    bool yes = true;
    PMIX_INFO_LOAD(&info[ninfo], PMIX_TIMEOUT, &timeout, PMIX_INT);
    ++ninfo;
    if (cid) {
        PMIX_INFO_LOAD(&info[ninfo], PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
        ++ninfo;
    }
    if (g_optional) {
        PMIX_INFO_LOAD(&info[ninfo], PMIX_GROUP_OPTIONAL, &yes, PMIX_BOOL);
        ++ninfo;
    }
    pmix_status_t rc;
    if (nb) {
        rc = wait_for(PMIx_Group_construct_nb(group, procs, nprocs, info, ninfo, construct_done, wait), wait);
    } else {
        pmix_info_t *results = NULL;
        size_t nresults = 0;
        rc = PMIx_Group_construct(group, procs, nprocs, info, ninfo, &results, &nresults);
        read_results(wait, results, nresults);
        if (results != NULL) PMIX_INFO_FREE(results, nresults);
    }
    for (size_t i = 0; i < ninfo; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    return rc;
}

static pmix_status_t destruct(const char *group, int nb)
{
    struct info_wait wait = {0, PMIX_ERROR, 0, 0, 0};
    return nb ? wait_for(PMIx_Group_destruct_nb(group, NULL, 0, op_done, &wait), &wait)
              : PMIx_Group_destruct(group, NULL, 0);
}

static void check_bad_arguments(const char *group)
{
    pmix_info_t *results = (pmix_info_t *)1;
    size_t nresults = 7;
    pmix_status_t rc = PMIx_Group_construct(NULL, &itc_me, 1, NULL, 0, &results, &nresults);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "construct(NULL name): %s", itc_err(rc));
    ITC_CHECK(results == NULL && nresults == 0, "construct(NULL name) left results set");
    rc = PMIx_Group_construct(group, NULL, 0, NULL, 0, &results, &nresults);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "construct(no members): %s", itc_err(rc));
    pmix_proc_t other;
    PMIX_LOAD_PROCID(&other, itc_me.nspace, itc_me.rank + 1000);
    rc = PMIx_Group_construct(group, &other, 1, NULL, 0, &results, &nresults);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "construct(without the caller): %s", itc_err(rc));
    rc = PMIx_Group_destruct("itest-no-such-group", NULL, 0);
    ITC_CHECK(rc == PMIX_ERR_NOT_FOUND, "destruct(unknown group): %s", itc_err(rc));
    rc = PMIx_Group_destruct(NULL, NULL, 0);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "destruct(NULL): %s", itc_err(rc));
}

/* The server answers group queries itself: count, names, membership. */
static void check_queries(const char *group, size_t nprocs)
{
    pmix_query_t queries[3];
    pmix_status_t rc_unused;
    for (int i = 0; i < 3; ++i) PMIX_QUERY_CONSTRUCT(&queries[i]);
    PMIX_ARGV_APPEND(rc_unused, queries[0].keys, PMIX_QUERY_NUM_GROUPS);
    PMIX_ARGV_APPEND(rc_unused, queries[1].keys, PMIX_QUERY_GROUP_NAMES);
    PMIX_ARGV_APPEND(rc_unused, queries[2].keys, PMIX_QUERY_GROUP_MEMBERSHIP);
    PMIX_QUERY_QUALIFIERS_CREATE(&queries[2], 1);
    PMIX_INFO_LOAD(&queries[2].qualifiers[0], PMIX_GROUP_ID, group, PMIX_STRING);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Query_info(queries, 3, &results, &nresults);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Query_info about groups: %s", itc_err(rc));
    int seen = 0;
    for (size_t i = 0; i < nresults; ++i) {
        const pmix_value_t *v = &results[i].value;
        if (PMIX_CHECK_KEY(&results[i], PMIX_QUERY_NUM_GROUPS)) {
            ITC_CHECK(v->type == PMIX_SIZE && v->data.size >= 1, "PMIX_QUERY_NUM_GROUPS wrong");
            seen |= 1;
        } else if (PMIX_CHECK_KEY(&results[i], PMIX_QUERY_GROUP_NAMES)) {
            ITC_CHECK(v->type == PMIX_STRING && strstr(v->data.string, group) != NULL,
                      "PMIX_QUERY_GROUP_NAMES lacks %s", group);
            seen |= 2;
        } else if (PMIX_CHECK_KEY(&results[i], PMIX_QUERY_GROUP_MEMBERSHIP)) {
            ITC_CHECK(v->type == PMIX_DATA_ARRAY && v->data.darray->type == PMIX_PROC && v->data.darray->size == nprocs,
                      "PMIX_QUERY_GROUP_MEMBERSHIP wrong");
            seen |= 4;
        }
    }
    ITC_CHECK(seen == 7, "group queries answered %d of 7", seen);
    (void)rc_unused;
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
    for (int i = 0; i < 3; ++i) PMIX_QUERY_DESTRUCT(&queries[i]);
}

/* The group's own data through PMIx_Get: its membership (and context id)
 * for the proc {group, PMIX_RANK_WILDCARD}. */
static void check_group_gets(const char *group, size_t nprocs, const size_t *cid)
{
    pmix_proc_t whole;
    PMIX_LOAD_PROCID(&whole, group, PMIX_RANK_WILDCARD);
    pmix_value_t *value = NULL;
    pmix_status_t rc = PMIx_Get(&whole, PMIX_GROUP_MEMBERSHIP, NULL, 0, &value);
    ITC_CHECK(rc == PMIX_SUCCESS && value->type == PMIX_DATA_ARRAY && value->data.darray->type == PMIX_PROC &&
                  value->data.darray->size == nprocs,
              "PMIx_Get(PMIX_GROUP_MEMBERSHIP): %s", itc_err(rc));
    if (value != NULL) PMIX_VALUE_RELEASE(value);
    value = NULL;
    rc = PMIx_Get(&whole, PMIX_GROUP_CONTEXT_ID, NULL, 0, &value);
    if (cid == NULL) {
        ITC_CHECK(rc == PMIX_ERR_NOT_FOUND, "PMIx_Get(PMIX_GROUP_CONTEXT_ID) of a group with none: %s", itc_err(rc));
    } else {
        ITC_CHECK(rc == PMIX_SUCCESS && value->type == PMIX_SIZE && value->data.size == *cid,
                  "PMIx_Get(PMIX_GROUP_CONTEXT_ID): %s", itc_err(rc));
    }
    if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static void put_own_value(void)
{
    pmix_value_t value;
    uint32_t mine = 1000 + itc_me.rank;
    PMIX_VALUE_LOAD(&value, &mine, PMIX_UINT32);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, VALUE_KEY, &value);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Put: %s", itc_err(rc));
    rc = PMIx_Commit();
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Commit: %s", itc_err(rc));
}

int main(int argc, char **argv)
{
    itc_start();
    const char *group = itc_arg(argc, argv, "--group");
    const char *other = itc_arg(argc, argv, "--other");
    uint32_t other_size = (uint32_t)itc_arg_long(argc, argv, "--other-size", 0);
    long die = itc_arg_long(argc, argv, "--die", -1);
    long absent = itc_arg_long(argc, argv, "--absent", -1);
    int nb = itc_has_flag(argc, argv, "--nb");
    int cid = itc_has_flag(argc, argv, "--cid");
    if (group == NULL) {
        printf("rank ? FAIL: usage: groups --group NAME [options]\n");
        return 64;
    }
    g_optional = itc_has_flag(argc, argv, "--optional");
    if (!itc_init()) return 2;
    pmix_status_t failed_code = PMIX_GROUP_MEMBER_FAILED;
    pmix_status_t reg = PMIx_Register_event_handler(&failed_code, 1, NULL, 0, on_member_failed, NULL, NULL);
    ITC_CHECK(reg >= 0, "PMIx_Register_event_handler: %s", itc_err(reg));
    pmix_status_t left_code = PMIX_GROUP_LEFT;
    reg = PMIx_Register_event_handler(&left_code, 1, NULL, 0, on_left, NULL, NULL);
    ITC_CHECK(reg >= 0, "PMIx_Register_event_handler: %s", itc_err(reg));
    long leaver = itc_arg_long(argc, argv, "--leave", -1);
    if (itc_has_flag(argc, argv, "--bad")) check_bad_arguments(group);
    put_own_value();
    if ((long)itc_me.rank == die) {                                 /* gone without finalize, its part done */
        if (itc_has_flag(argc, argv, "--late")) itc_sleep_ms(1000); /* the others wait in the construct */
        printf("rank %u ok\n", itc_me.rank);
        fflush(stdout);
        _exit(0);
    }
    uint32_t size = itc_job_size();
    size_t nprocs = size + (other != NULL ? other_size : 0);
    pmix_proc_t *procs = calloc(nprocs, sizeof(pmix_proc_t));
    for (uint32_t r = 0; r < size; ++r) PMIX_LOAD_PROCID(&procs[r], itc_me.nspace, r);
    for (uint32_t r = 0; other != NULL && r < other_size; ++r) PMIX_LOAD_PROCID(&procs[size + r], other, r);
    if ((long)itc_me.rank == absent) {
        itc_sleep_ms(4000); /* the others time out meanwhile */
        free(procs);
        pmix_status_t rc = PMIx_Finalize(NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
        return itc_finish();
    }
    struct info_wait wait = {0, PMIX_ERROR, 0, 0, 0};
    pmix_status_t rc = construct(group, procs, nprocs, nb, cid, absent >= 0 ? 2 : ITC_TIMEOUT_S, &wait);
    /* An optional member that died is left out; the others form the group. */
    size_t members = nprocs - (g_optional && die >= 0 ? 1 : 0);
    if (die >= 0 && !g_optional) {
        ITC_CHECK(rc == PMIX_GROUP_MEMBER_FAILED, "construct with a dead member: %s", itc_err(rc));
        expect_member_failed_event(die);
    } else if (absent >= 0) {
        ITC_CHECK(rc == PMIX_ERR_TIMEOUT, "construct with an absent member: %s", itc_err(rc));
    } else {
        /* The standard: partial success without the optional one, and no event. */
        const pmix_status_t expected = die >= 0 ? PMIX_ERR_PARTIAL_SUCCESS : PMIX_SUCCESS;
        ITC_CHECK(rc == expected, "construct: %s", itc_err(rc));
        ITC_CHECK(die < 0 || g_member_failed < 0, "PMIX_GROUP_MEMBER_FAILED about an optional member");
        itc_step("constructed");
        ITC_CHECK(wait.members == members, "PMIX_GROUP_MEMBERSHIP has %zu procs, not %zu", wait.members, members);
        ITC_CHECK(wait.has_cid == cid, "PMIX_GROUP_CONTEXT_ID %s", cid ? "missing" : "unasked for");
        if (wait.has_cid) printf("rank %u cid %zu\n", itc_me.rank, wait.cid);
        for (size_t i = 0; i < nprocs; ++i) {
            if ((long)procs[i].rank != die) ITC_EXPECT_U32(&procs[i], VALUE_KEY, 1000 + procs[i].rank);
        }
        check_queries(group, members);
        check_group_gets(group, members, wait.has_cid ? &wait.cid : NULL);
        pmix_proc_t whole_group;
        PMIX_LOAD_PROCID(&whole_group, group, PMIX_RANK_WILDCARD);
        rc = PMIx_Fence(&whole_group, 1, NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "fence over the group: %s", itc_err(rc));
        itc_step("fenced over the group");
        rc = PMIx_Group_construct(group, procs, nprocs, NULL, 0, NULL, NULL);
        ITC_CHECK(rc == PMIX_ERR_EXISTS, "construct again: %s", itc_err(rc));
        if (leaver < 0 || !leave_or_hear_it(group, leaver)) {
            rc = destruct(group, nb);
            ITC_CHECK(rc == PMIX_SUCCESS, "destruct: %s", itc_err(rc));
            itc_step("destructed");
        }
    }
    free(procs);
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}
