/*
 * group_faults: a group construct that loses a member inside its call.
 *   --group NAME --dead R [--ft] [--notify [--leader L] [--new-leader N] [--abort]]
 * Every rank constructs a group of the whole job; rank R calls
 * PMIx_Group_construct_nb and exits (without finalizing) half a second
 * later, while the others wait in theirs, except rank 2, which calls only
 * once it heard PMIX_ERR_PROC_TERM_WO_SYNC about R (so the construct is
 * still open when R goes).
 *   (nothing)   the others get PMIX_GROUP_MEMBER_FAILED
 *   --ft        PMIX_GROUP_FT_COLLECTIVE: the others form the group without
 *               R (PMIX_SUCCESS), and hear no event
 *   --notify    PMIX_GROUP_NOTIFY_TERMINATION: the callers hear
 *               PMIX_GROUP_MEMBER_FAILED (with --leader L, only rank L,
 *               which says PMIX_GROUP_LEADER) and the group forms without R;
 *               with --abort their handlers return PMIX_GROUP_CONSTRUCT_ABORT
 *               and every construct ends with it. When R is the leader, the
 *               others hear PMIX_GROUP_LEADER_FAILED, rank N's handler
 *               returns PMIX_GROUP_LEADER and all hear
 *               PMIX_GROUP_LEADER_SELECTED from N.
 */
#include "client_util.h"

static struct {
    long dead, leader, new_leader;
    int ft, notify, abort;
} opt;

static volatile int g_member_failed = -1, g_leader_failed = -1, g_selected = -1;
static volatile int g_dead_seen; /* PMIX_ERR_PROC_TERM_WO_SYNC: the server saw rank R go */
static pmix_info_t g_lead;       /* PMIX_GROUP_LEADER = true */

/* What the event handler recorded, read from the main thread. */
static int seen(volatile int *flag)
{
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                     pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id, (void)info, (void)ninfo, (void)results, (void)nresults;
    const int rank = source != NULL ? (int)source->rank : -2;
    if (status == PMIX_ERR_PROC_TERM_WO_SYNC) {
        __atomic_store_n(&g_dead_seen, 1, __ATOMIC_RELEASE);
        if (cbfunc != NULL) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
        return;
    }
    pmix_status_t answer = opt.abort ? PMIX_GROUP_CONSTRUCT_ABORT : PMIX_SUCCESS;
    pmix_info_t *lead = NULL;
    if (status == PMIX_GROUP_MEMBER_FAILED) {
        /* The first: a late construct may hear of members that finished since. */
        int none = -1;
        __atomic_compare_exchange_n(&g_member_failed, &none, rank, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    } else if (status == PMIX_GROUP_LEADER_FAILED) {
        __atomic_store_n(&g_leader_failed, rank, __ATOMIC_RELEASE);
        if ((long)itc_me.rank == opt.new_leader) lead = &g_lead;
    } else {
        __atomic_store_n(&g_selected, rank, __ATOMIC_RELEASE);
        answer = PMIX_SUCCESS;
    }
    if (cbfunc != NULL) cbfunc(answer, lead, lead != NULL ? 1 : 0, NULL, NULL, cbdata);
}

static pmix_status_t expected_status(void)
{
    if (opt.ft) return PMIX_SUCCESS;
    if (!opt.notify) return PMIX_GROUP_MEMBER_FAILED;
    return opt.abort ? PMIX_GROUP_CONSTRUCT_ABORT : PMIX_SUCCESS;
}

static void check_events(void)
{
    const int i_lead = (long)itc_me.rank == opt.leader;
    if (!opt.notify) {
        ITC_CHECK(!opt.ft || seen(&g_member_failed) < 0, "PMIX_GROUP_MEMBER_FAILED under PMIX_GROUP_FT_COLLECTIVE");
        return;
    }
    if (opt.dead == opt.leader) {
        ITC_CHECK(seen(&g_leader_failed) == (int)opt.dead, "PMIX_GROUP_LEADER_FAILED named %d", seen(&g_leader_failed));
        if (opt.new_leader >= 0 && !opt.abort) {
            ITC_CHECK(seen(&g_selected) == (int)opt.new_leader, "PMIX_GROUP_LEADER_SELECTED named %d",
                      seen(&g_selected));
        }
    } else if (opt.leader < 0 || i_lead) {
        ITC_CHECK(seen(&g_member_failed) == (int)opt.dead, "PMIX_GROUP_MEMBER_FAILED named %d", seen(&g_member_failed));
    } else {
        ITC_CHECK(seen(&g_member_failed) < 0, "PMIX_GROUP_MEMBER_FAILED reached a member that does not lead");
    }
}

static size_t members_in(const pmix_info_t *results, size_t nresults)
{
    for (size_t i = 0; i < nresults; ++i) {
        if (PMIX_CHECK_KEY(&results[i], PMIX_GROUP_MEMBERSHIP) && results[i].value.type == PMIX_DATA_ARRAY) {
            return results[i].value.data.darray->size;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    itc_start();
    const char *group = itc_arg(argc, argv, "--group");
    opt.dead = itc_arg_long(argc, argv, "--dead", -1);
    opt.leader = itc_arg_long(argc, argv, "--leader", -1);
    opt.new_leader = itc_arg_long(argc, argv, "--new-leader", -1);
    opt.ft = itc_has_flag(argc, argv, "--ft");
    opt.notify = itc_has_flag(argc, argv, "--notify");
    opt.abort = itc_has_flag(argc, argv, "--abort");
    if (group == NULL || opt.dead < 0) {
        printf("rank ? FAIL: usage: group_faults --group NAME --dead R [options]\n");
        return 64;
    }
    bool yes = true;
    PMIX_INFO_LOAD(&g_lead, PMIX_GROUP_LEADER, &yes, PMIX_BOOL);
    if (!itc_init()) return 2;
    const pmix_status_t codes[] = {PMIX_GROUP_MEMBER_FAILED, PMIX_GROUP_LEADER_FAILED, PMIX_GROUP_LEADER_SELECTED,
                                   PMIX_ERR_PROC_TERM_WO_SYNC};
    pmix_status_t rc = PMIx_Register_event_handler((pmix_status_t *)codes, 4, NULL, 0, on_event, NULL, NULL);
    ITC_CHECK(rc >= 0, "PMIx_Register_event_handler: %s", itc_err(rc));
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, itc_me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Fence(&all, 1, NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "fence: %s", itc_err(rc));

    pmix_info_t info[4];
    size_t ninfo = 0;
    int timeout = ITC_TIMEOUT_S;
    PMIX_INFO_LOAD(&info[ninfo++], PMIX_TIMEOUT, &timeout, PMIX_INT);
    if (opt.ft) PMIX_INFO_LOAD(&info[ninfo++], PMIX_GROUP_FT_COLLECTIVE, &yes, PMIX_BOOL);
    if (opt.notify) PMIX_INFO_LOAD(&info[ninfo++], PMIX_GROUP_NOTIFY_TERMINATION, &yes, PMIX_BOOL);
    if ((long)itc_me.rank == opt.leader) PMIX_INFO_LOAD(&info[ninfo++], PMIX_GROUP_LEADER, &yes, PMIX_BOOL);
    if ((long)itc_me.rank == opt.dead) { /* inside its construct, then gone */
        rc = PMIx_Group_construct_nb(group, &all, 1, info, ninfo, NULL, NULL);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Group_construct_nb: %s", itc_err(rc));
        itc_sleep_ms(500);
        printf("rank %u ok\n", itc_me.rank);
        fflush(stdout);
        _exit(0);
    }
    if (itc_me.rank == 2) { /* late: only once the server saw R go (its exit may be slow, e.g. under TSan) */
        for (int waited = 0; !seen(&g_dead_seen) && waited < 10000; waited += 10) itc_sleep_ms(10);
        ITC_CHECK(seen(&g_dead_seen), "no PMIX_ERR_PROC_TERM_WO_SYNC about rank %ld", opt.dead);
    }
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    rc = PMIx_Group_construct(group, &all, 1, info, ninfo, &results, &nresults);
    ITC_CHECK(rc == expected_status(), "construct: %s, not %s", itc_err(rc), PMIx_Error_string(expected_status()));
    if (rc == PMIX_SUCCESS) {
        size_t members = members_in(results, nresults);
        ITC_CHECK(members == itc_job_size() - 1, "%zu members, not %u", members, itc_job_size() - 1);
    }
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
    check_events();
    if (rc == PMIX_SUCCESS) {
        rc = PMIx_Group_destruct(group, NULL, 0);
        ITC_CHECK(rc == PMIX_SUCCESS, "destruct: %s", itc_err(rc));
    }
    for (size_t i = 0; i < ninfo; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    PMIX_INFO_DESTRUCT(&g_lead);
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}
