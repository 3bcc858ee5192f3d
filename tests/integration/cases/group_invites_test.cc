// PMIx_Group_invite / PMIx_Group_join among real clients
// (clients/group_invites.c, 4 ranks, rank 0 invites the others): accepted
// by all (a late handler still hears the invitation), a context id from the
// host's group upcall, a decline, an invitee that dies (abort, or left out
// when optional), one that never answers (PMIX_TIMEOUT), a leader that dies
// and is replaced by the invitee whose handler takes the lead, and a leader
// that aborts from its decline handler.
#include "integration/cases/group_test_support.h"
#include "integration/cases/itest_support.h"

#include <pmix.h>

#include <atomic>
#include <string>
#include <vector>

using namespace pmixpp::itest;

namespace {

std::vector<ProcResult> run_invites(const char *nspace, const std::vector<std::string> &args)
{
    return run_group_job("itest_group_invites", nspace, 4, args);
}

std::atomic<int> g_constructs{0};

// Gives each construct context id 4242, from a host thread.
pmix_status_t assign_context_id(pmix_group_operation_t op, char[], const pmix_proc_t[], size_t, const pmix_info_t[],
                                size_t, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    if (op == PMIX_GROUP_CONSTRUCT) ++g_constructs;
    return answer_group_upcall_later(op, 4242, cbfunc, cbdata);
}

}  // namespace

TestSuite(group_invites, .fini = stop_host, .timeout = 240);

Test(group_invites, every_invitee_accepts)
{
    start_host();
    expect_all_ok(run_invites("itest-invite-all", {"--group", "invited"}), 4);
}

Test(group_invites, the_host_gives_the_invited_group_a_context_id)
{
    HostOptions options;
    options.group_upcall = assign_context_id;
    start_host(options);
    expect_all_ok(run_invites("itest-invite-cid", {"--group", "cid", "--cid"}), 4);
    cr_expect_eq(g_constructs.load(), 1, "one construct upcall for the invited group");
}

Test(group_invites, a_declining_invitee_is_left_out)
{
    start_host();
    expect_all_ok(run_invites("itest-invite-decline", {"--group", "declined", "--decline", "2"}), 4);
}

Test(group_invites, an_invitee_that_dies_aborts_the_invitation)
{
    start_host();
    expect_all_ok(run_invites("itest-invite-die", {"--group", "dies", "--die", "2"}), 4);
}

Test(group_invites, an_optional_invitee_that_dies_is_left_out)
{
    start_host();
    expect_all_ok(run_invites("itest-invite-die-opt", {"--group", "dies", "--die", "2", "--optional"}), 4);
}

Test(group_invites, an_invitee_that_never_answers_times_out)
{
    start_host();
    expect_all_ok(run_invites("itest-invite-silent", {"--group", "silent", "--silent", "3", "--timeout", "2"}), 4);
    expect_all_ok(
        run_invites("itest-invite-silent-opt", {"--group", "silent", "--silent", "3", "--timeout", "2", "--optional"}),
        4);
}

Test(group_invites, a_new_leader_takes_over_from_one_that_died)
{
    start_host();
    expect_all_ok(run_invites("itest-invite-leader", {"--group", "led", "--leader-dies", "--slow", "3"}), 4);
}

Test(group_invites, the_leader_aborts_from_its_decline_handler)
{
    start_host();
    expect_all_ok(run_invites("itest-invite-abort",
                              {"--group", "aborted", "--decline", "2", "--slow", "3", "--abort-on-decline"}),
                  4);
}
