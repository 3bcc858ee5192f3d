/*
 * group_invites: PMIx_Group_invite / PMIx_Group_join among real clients.
 *   --group NAME [--cid] [--optional] [--timeout S] [--decline R] [--die R]
 *   [--silent R] [--slow R] [--leader-dies] [--abort-on-decline]
 * Rank 0 invites every other rank (blocking); each invitee hears
 * PMIX_GROUP_INVITED (rank 1 registers for it only a second after the
 * invitation went out: the server keeps the event for it while the
 * invitation is open) and answers with
 * the blocking PMIx_Group_join from its main thread. Every member checks the
 * results (status, PMIX_GROUP_MEMBERSHIP, with --cid PMIX_GROUP_CONTEXT_ID)
 * and PMIX_GROUP_CONSTRUCT_COMPLETE, fences over the group and destructs it.
 *   --decline R        rank R declines: the leader hears _INVITE_DECLINED,
 *                      the group forms without R
 *   --die R            rank R exits without answering: the leader hears
 *                      _INVITE_FAILED; the invite aborts
 *                      (PMIX_GROUP_CONSTRUCT_ABORT) unless --optional
 *   --silent R         rank R never answers: with --timeout the invite ends
 *                      PMIX_ERR_TIMEOUT for all, or without R if --optional
 *   --slow R           rank R answers late: after _LEADER_FAILED with
 *                      --leader-dies, after _CONSTRUCT_ABORT with
 *                      --abort-on-decline, else 2 s after the invitation
 *   --leader-dies      rank 0 exits 0.5 s after inviting (non-blocking): the
 *                      rest hear _LEADER_FAILED, rank 1's handler returns
 *                      PMIX_GROUP_LEADER, all hear _LEADER_SELECTED from
 *                      rank 1 and the group forms without rank 0
 *   --abort-on-decline the leader's _INVITE_DECLINED handler returns
 *                      PMIX_GROUP_CONSTRUCT_ABORT: everybody waiting gets it,
 *                      all hear _CONSTRUCT_ABORT
 * After an abort an invitee that answers late gets PMIX_ERR_NOT_FOUND.
 */
#include "client_util.h"

#include <pthread.h>

static struct {
    long decline, die, silent, slow;
    int leader_dies, abort_on_decline, optional, cid;
    long timeout;
} opt;

static volatile int g_invited, g_complete, g_aborted, g_accepted, g_declined, g_failed, g_leader_failed;
static volatile int g_selected = -1; /* the rank PMIX_GROUP_LEADER_SELECTED named */
static pmix_proc_t g_leader;

/* The flags the event handlers set, read from the main thread. */
static int seen(volatile int *flag)
{
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}
static char g_group[PMIX_MAX_NSLEN + 1];

static void done_with(pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata, pmix_status_t status,
                      pmix_info_t *results, size_t nresults)
{
    if (cbfunc != NULL) cbfunc(status, results, nresults, NULL, NULL, cbdata);
}

static void on_invited(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                       pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id, (void)status, (void)results, (void)nresults;
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ID) && info[i].value.type == PMIX_STRING) {
            snprintf(g_group, sizeof(g_group), "%s", info[i].value.data.string);
        }
    }
    if (source != NULL) g_leader = *source;
    __atomic_store_n(&g_invited, 1, __ATOMIC_RELEASE);
    done_with(cbfunc, cbdata, PMIX_EVENT_ACTION_COMPLETE, NULL, 0);
}

static pmix_info_t g_lead; /* PMIX_GROUP_LEADER = true, rank 1's answer to _LEADER_FAILED */

/* One handler for the other group events: counts them; the leader's
 * _DECLINED handler may abort, rank 1's _LEADER_FAILED one takes the lead. */
static void on_group_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                           pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                           void *cbdata)
{
    (void)id, (void)info, (void)ninfo, (void)results, (void)nresults;
    switch (status) {
    case PMIX_GROUP_CONSTRUCT_COMPLETE: __atomic_store_n(&g_complete, 1, __ATOMIC_RELEASE); break;
    case PMIX_GROUP_CONSTRUCT_ABORT: __atomic_store_n(&g_aborted, 1, __ATOMIC_RELEASE); break;
    case PMIX_GROUP_INVITE_ACCEPTED: __atomic_add_fetch(&g_accepted, 1, __ATOMIC_ACQ_REL); break;
    case PMIX_GROUP_INVITE_FAILED: __atomic_add_fetch(&g_failed, 1, __ATOMIC_ACQ_REL); break;
    case PMIX_GROUP_LEADER_SELECTED:
        if (source != NULL) __atomic_store_n(&g_selected, (int)source->rank, __ATOMIC_RELEASE);
        break;
    case PMIX_GROUP_INVITE_DECLINED:
        __atomic_add_fetch(&g_declined, 1, __ATOMIC_ACQ_REL);
        if (opt.abort_on_decline) return done_with(cbfunc, cbdata, PMIX_GROUP_CONSTRUCT_ABORT, NULL, 0);
        break;
    case PMIX_GROUP_LEADER_FAILED:
        __atomic_store_n(&g_leader_failed, 1, __ATOMIC_RELEASE);
        if (itc_me.rank == 1) return done_with(cbfunc, cbdata, PMIX_SUCCESS, &g_lead, 1);
        break;
    default: break;
    }
    done_with(cbfunc, cbdata, PMIX_SUCCESS, NULL, 0);
}

static void register_for(pmix_status_t code, pmix_notification_fn_t fn)
{
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, fn, NULL, NULL);
    ITC_CHECK(rc >= 0, "PMIx_Register_event_handler(%s): %s", PMIx_Error_string(code), itc_err(rc));
}

static int wait_for(volatile int *flag, long ms)
{
    for (long waited = 0; !seen(flag) && waited < ms; waited += 10) itc_sleep_ms(10);
    return seen(flag);
}

static size_t membership_in(const pmix_info_t *results, size_t nresults, int *has_cid)
{
    size_t members = 0;
    *has_cid = 0;
    for (size_t i = 0; i < nresults; ++i) {
        if (PMIX_CHECK_KEY(&results[i], PMIX_GROUP_MEMBERSHIP) && results[i].value.type == PMIX_DATA_ARRAY) {
            members = results[i].value.data.darray->size;
        } else if (PMIX_CHECK_KEY(&results[i], PMIX_GROUP_CONTEXT_ID)) {
            *has_cid = 1;
        }
    }
    return members;
}

/* What every invitee and the leader expect the invitation to end with. */
static pmix_status_t expected_status(void)
{
    if (opt.abort_on_decline) return PMIX_GROUP_CONSTRUCT_ABORT;
    if (opt.die >= 0 && !opt.optional) return PMIX_GROUP_CONSTRUCT_ABORT;
    if (opt.silent >= 0 && !opt.optional) return PMIX_ERR_TIMEOUT;
    return PMIX_SUCCESS;
}

static size_t expected_members(uint32_t size)
{
    return size - (opt.decline >= 0) - (opt.die >= 0) - (opt.silent >= 0) - (opt.leader_dies ? 1 : 0);
}

static void check_ending(const char *what, pmix_status_t rc, pmix_info_t *results, size_t nresults, uint32_t size)
{
    const pmix_status_t expected = expected_status();
    ITC_CHECK(rc == expected, "%s: %s, not %s", what, itc_err(rc), PMIx_Error_string(expected));
    if (rc == PMIX_SUCCESS) {
        int has_cid = 0;
        size_t members = membership_in(results, nresults, &has_cid);
        ITC_CHECK(members == expected_members(size), "%s: %zu members, not %zu", what, members, expected_members(size));
        ITC_CHECK(has_cid == opt.cid, "%s: PMIX_GROUP_CONTEXT_ID %s", what, opt.cid ? "missing" : "unasked for");
    }
    if (results != NULL) PMIX_INFO_FREE(results, nresults);
}

/* Members of a formed group fence over it and destruct it. */
static void use_and_destruct(const char *group)
{
    pmix_proc_t whole;
    PMIX_LOAD_PROCID(&whole, group, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Fence(&whole, 1, NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "fence over the group: %s", itc_err(rc));
    rc = PMIx_Group_destruct(group, NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "destruct: %s", itc_err(rc));
    itc_step("destructed");
}

static void check_bad_arguments(const char *group, const pmix_proc_t *procs, size_t nprocs)
{
    pmix_status_t rc = PMIx_Group_invite(NULL, procs, nprocs, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "invite without a name: %s", itc_err(rc));
    rc = PMIx_Group_invite(group, NULL, 0, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "invite of nobody: %s", itc_err(rc));
    rc = PMIx_Group_join("no-such-invitation", procs, PMIX_GROUP_ACCEPT, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_NOT_FOUND, "join of no invitation: %s", itc_err(rc));
    rc = PMIx_Group_join(group, procs, (pmix_group_opt_t)7, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "join neither accepting nor declining: %s", itc_err(rc));
    pmix_proc_t elsewhere;
    PMIX_LOAD_PROCID(&elsewhere, "no-such-job", 0);
    rc = PMIx_Group_invite("elsewhere", &elsewhere, 1, NULL, 0, NULL, NULL);
    ITC_CHECK(rc == PMIX_ERR_NOT_SUPPORTED, "invite of a proc elsewhere: %s", itc_err(rc));
}

static void lead(const char *group, uint32_t size)
{
    pmix_proc_t *procs = calloc(size, sizeof(pmix_proc_t));
    for (uint32_t r = 1; r < size; ++r) PMIX_LOAD_PROCID(&procs[r - 1], itc_me.nspace, r);
    check_bad_arguments(group, procs, size - 1);
    pmix_info_t info[3];
    size_t ninfo = 0;
    bool yes = true;
    int seconds = (int)opt.timeout;
    if (opt.cid) PMIX_INFO_LOAD(&info[ninfo++], PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
    if (opt.optional) PMIX_INFO_LOAD(&info[ninfo++], PMIX_GROUP_OPTIONAL, &yes, PMIX_BOOL);
    if (opt.timeout > 0) PMIX_INFO_LOAD(&info[ninfo++], PMIX_TIMEOUT, &seconds, PMIX_INT);
    if (opt.leader_dies) {
        pmix_status_t rc = PMIx_Group_invite_nb(group, procs, size - 1, info, ninfo, NULL, NULL);
        ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Group_invite_nb: %s", itc_err(rc));
        itc_sleep_ms(500);
        printf("rank %u ok\n", itc_me.rank);
        fflush(stdout);
        _exit(0); /* gone while rank --slow has not answered */
    }
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Group_invite(group, procs, size - 1, info, ninfo, &results, &nresults);
    check_ending("invite", rc, results, nresults, size);
    if (rc == PMIX_SUCCESS) {
        ITC_CHECK(seen(&g_accepted) == (int)expected_members(size) - 1, "%d PMIX_GROUP_INVITE_ACCEPTED events",
                  seen(&g_accepted));
        pmix_status_t again = PMIx_Group_invite(group, procs, size - 1, NULL, 0, NULL, NULL);
        ITC_CHECK(again == PMIX_ERR_EXISTS, "invite to a group that exists: %s", itc_err(again));
    }
    ITC_CHECK(seen(&g_declined) == (opt.decline >= 0), "%d PMIX_GROUP_INVITE_DECLINED events", seen(&g_declined));
    if (opt.die >= 0) ITC_CHECK(wait_for(&g_failed, 5000), "no PMIX_GROUP_INVITE_FAILED event");
    if (rc == PMIX_SUCCESS) use_and_destruct(group);
    free(procs);
}

/* Rank 1 registers for PMIX_GROUP_INVITED a second after the invitation;
 * not when the leader aborts at once (nothing is replayed then), nor when
 * rank 1 takes the lead from a leader that died (the invitation may be
 * complete by then). */
static int late_registration(void)
{
    return itc_me.rank == 1 && !opt.abort_on_decline && !opt.leader_dies;
}

static void be_invited(uint32_t size)
{
    if (late_registration()) { /* the server kept the invitation for it */
        itc_sleep_ms(1000);
        register_for(PMIX_GROUP_INVITED, on_invited);
    }
    /* An invitation aborted before the late one registered is not replayed. */
    for (long waited = 0; !seen(&g_invited) && !seen(&g_aborted) && waited < 10000; waited += 10) itc_sleep_ms(10);
    if (!seen(&g_invited) && expected_status() != PMIX_SUCCESS) return;
    ITC_CHECK(seen(&g_invited), "no PMIX_GROUP_INVITED event");
    itc_step("invited");
    if ((long)itc_me.rank == opt.silent) {
        itc_sleep_ms(3000 + 1000 * opt.timeout);
        return;
    }
    if ((long)itc_me.rank == opt.slow) { /* answers after what it waits for, however slow the machine */
        if (opt.leader_dies) {
            ITC_CHECK(wait_for(&g_leader_failed, 10000), "no PMIX_GROUP_LEADER_FAILED event");
        } else if (opt.abort_on_decline) {
            ITC_CHECK(wait_for(&g_aborted, 10000), "no PMIX_GROUP_CONSTRUCT_ABORT event");
        } else {
            itc_sleep_ms(2000);
        }
    }
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    if ((long)itc_me.rank == opt.decline) {
        pmix_status_t rc = PMIx_Group_join(g_group, &g_leader, PMIX_GROUP_DECLINE, NULL, 0, &results, &nresults);
        ITC_CHECK(rc == PMIX_SUCCESS, "declining join: %s", itc_err(rc));
        return;
    }
    pmix_status_t rc = PMIx_Group_join(g_group, &g_leader, PMIX_GROUP_ACCEPT, NULL, 0, &results, &nresults);
    if (rc == PMIX_ERR_NOT_FOUND && expected_status() != PMIX_SUCCESS) {
        itc_step("joined after the abort"); /* e.g. --slow, or the invitation failed at once */
    } else {
        check_ending("join", rc, results, nresults, size);
    }
    if (expected_status() != PMIX_SUCCESS) {
        ITC_CHECK(wait_for(&g_aborted, 5000), "no PMIX_GROUP_CONSTRUCT_ABORT event");
        return;
    }
    ITC_CHECK(wait_for(&g_complete, 5000), "no PMIX_GROUP_CONSTRUCT_COMPLETE event");
    if (opt.leader_dies) {
        ITC_CHECK(seen(&g_leader_failed), "no PMIX_GROUP_LEADER_FAILED event");
        ITC_CHECK(seen(&g_selected) == 1, "PMIX_GROUP_LEADER_SELECTED named rank %d, not 1", seen(&g_selected));
    }
    use_and_destruct(g_group);
}

int main(int argc, char **argv)
{
    itc_start();
    const char *group = itc_arg(argc, argv, "--group");
    if (group == NULL) {
        printf("rank ? FAIL: usage: group_invites --group NAME [options]\n");
        return 64;
    }
    opt.decline = itc_arg_long(argc, argv, "--decline", -1);
    opt.die = itc_arg_long(argc, argv, "--die", -1);
    opt.silent = itc_arg_long(argc, argv, "--silent", -1);
    opt.slow = itc_arg_long(argc, argv, "--slow", -1);
    opt.timeout = itc_arg_long(argc, argv, "--timeout", 0);
    opt.leader_dies = itc_has_flag(argc, argv, "--leader-dies");
    opt.abort_on_decline = itc_has_flag(argc, argv, "--abort-on-decline");
    opt.optional = itc_has_flag(argc, argv, "--optional");
    opt.cid = itc_has_flag(argc, argv, "--cid");
    bool yes = true;
    PMIX_INFO_LOAD(&g_lead, PMIX_GROUP_LEADER, &yes, PMIX_BOOL);
    if (!itc_init()) return 2;
    if (!late_registration()) register_for(PMIX_GROUP_INVITED, on_invited);
    const pmix_status_t codes[] = {PMIX_GROUP_CONSTRUCT_COMPLETE, PMIX_GROUP_CONSTRUCT_ABORT,
                                   PMIX_GROUP_INVITE_ACCEPTED,    PMIX_GROUP_INVITE_DECLINED,
                                   PMIX_GROUP_INVITE_FAILED,      PMIX_GROUP_LEADER_FAILED,
                                   PMIX_GROUP_LEADER_SELECTED};
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); ++i) register_for(codes[i], on_group_event);
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, itc_me.nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Fence(&all, 1, NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "fence: %s", itc_err(rc));
    if ((long)itc_me.rank == opt.die) { /* gone without answering */
        printf("rank %u ok\n", itc_me.rank);
        fflush(stdout);
        _exit(0);
    }
    if (itc_me.rank == 0) {
        lead(group, itc_job_size());
    } else {
        be_invited(itc_job_size());
    }
    PMIX_INFO_DESTRUCT(&g_lead);
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}
