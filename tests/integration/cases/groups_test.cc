// PMIx_Group_construct / PMIx_Group_destruct among real clients
// (clients/groups.c): local-only groups that the server completes itself
// (no group upcall asked), a context id through the test's own group upcall
// (the same for every member, answered after the upcall returned), members
// from two namespaces, a member that dies, one that never comes (timeout),
// and refused arguments.
#include "integration/cases/group_test_support.h"
#include "integration/cases/itest_support.h"

#include <pmix.h>

#include <atomic>
#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace pmixpp::itest;

namespace {

std::atomic<int> g_constructs{0};
std::atomic<int> g_destructs{0};
std::atomic<size_t> g_next_context_id{100};

// Counts and answers from a host thread, one context id per construct.
pmix_status_t test_group_upcall(pmix_group_operation_t op, char[], const pmix_proc_t[], size_t, const pmix_info_t[],
                                size_t, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    ++(op == PMIX_GROUP_CONSTRUCT ? g_constructs : g_destructs);
    return answer_group_upcall_later(op, op == PMIX_GROUP_CONSTRUCT ? g_next_context_id++ : 0, cbfunc, cbdata);
}

std::vector<ProcResult> run_job(const char *nspace, int nprocs, const std::vector<std::string> &args)
{
    return run_group_job("itest_groups", nspace, nprocs, args);
}

std::set<std::string> context_ids(const std::vector<ProcResult> &results)
{
    std::set<std::string> ids;
    for (const ProcResult &result : results) {
        const auto at = result.output.find(" cid ");
        if (at == std::string::npos) continue;
        ids.insert(result.output.substr(at + 5, result.output.find('\n', at) - at - 5));
    }
    return ids;
}

}  // namespace

TestSuite(groups, .fini = stop_host, .timeout = 240);

Test(groups, local_group_completes_without_the_host)
{
    HostOptions options;
    options.group_upcall = test_group_upcall;
    start_host(options);
    expect_all_ok(run_job("itest-groups-local", 3, {"--group", "ourgroup", "--bad"}), 3);
    expect_all_ok(run_job("itest-groups-local-nb", 2, {"--group", "ourgroup", "--nb"}), 2);
    cr_expect_eq(g_constructs.load(), 0, "group upcalls for a local group without a context id");
    cr_expect_eq(g_destructs.load(), 0);
}

Test(groups, without_a_group_upcall_a_local_group_still_works)
{
    start_host();
    expect_all_ok(run_job("itest-groups-nohost", 2, {"--group", "g1"}), 2);
}

Test(groups, context_id_comes_from_the_host_and_is_the_same_for_every_member)
{
    HostOptions options;
    options.group_upcall = test_group_upcall;
    start_host(options);
    const auto results = run_job("itest-groups-cid", 4, {"--group", "cidgroup", "--cid"});
    expect_all_ok(results, 4);
    cr_expect_eq(g_constructs.load(), 1, "one construct upcall for the whole group");
    cr_expect_eq(g_destructs.load(), 1, "one destruct upcall for the whole group");
    const auto ids = context_ids(results);
    cr_expect_eq(ids.size(), 1u, "every member got the same context id");
}

Test(groups, context_id_without_a_group_upcall_is_not_supported)
{
    start_host();
    const auto results = run_job("itest-groups-nocid", 1, {"--group", "cidgroup", "--cid"});
    cr_assert_eq(results.size(), 1u);
    cr_expect(!results[0].succeeded(), "a construct asking a context id of no host succeeded: %s",
              results[0].describe().c_str());
    const std::string expected = std::string("construct: ") + PMIx_Error_string(PMIX_ERR_NOT_SUPPORTED);
    cr_expect(results[0].output.find(expected) != std::string::npos, "%s", results[0].describe().c_str());
}

Test(groups, members_from_two_namespaces)
{
    start_host();
    const JobLayout first = register_local_job("itest-groups-a", 2);
    const JobLayout second = register_local_job("itest-groups-b", 1);
    Launch a;
    a.program = client_path("itest_groups");
    a.args = {"--group", "twojobs", "--other", "itest-groups-b", "--other-size", "1"};
    Launch b = a;
    b.args = {"--group", "twojobs", "--other", "itest-groups-a", "--other-size", "2", "--nb"};
    std::vector<pid_t> pids, more;
    cr_assert_eq(host().spawn_job("itest-groups-a", first, a, &pids), PMIX_SUCCESS);
    cr_assert_eq(host().spawn_job("itest-groups-b", second, b, &more), PMIX_SUCCESS);
    pids.insert(pids.end(), more.begin(), more.end());
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 3);
}

Test(groups, a_member_that_dies_fails_the_construct)
{
    start_host();
    // Rank 1 exits (status 0) without finalizing; the others hear of it.
    expect_all_ok(run_job("itest-groups-die", 3, {"--group", "dying", "--die", "1"}), 3);
}

// Rank 1 dies while the others wait in the construct: they are not left
// waiting (no PMIX_TIMEOUT is given beyond the client's own bound).
Test(groups, a_member_that_dies_during_the_construct_fails_it_at_once)
{
    start_host();
    expect_all_ok(run_job("itest-groups-die-late", 3, {"--group", "dying", "--die", "1", "--late"}), 3);
}

// PMIX_GROUP_OPTIONAL: the members left form the group without the dead
// one, before (rank 1 exits at once) or during the construct, and hear
// PMIX_ERR_PARTIAL_SUCCESS (no event), as the standard says.
Test(groups, an_optional_member_that_dies_is_left_out)
{
    start_host();
    expect_all_ok(run_job("itest-groups-optional", 3, {"--group", "opt", "--die", "1", "--optional"}), 3);
    expect_all_ok(run_job("itest-groups-optional-late", 3, {"--group", "opt2", "--die", "1", "--optional", "--late"}),
                  3);
}

// Rank 2 leaves; ranks 0 and 1 hear PMIX_GROUP_LEFT and destruct the rest.
Test(groups, a_member_leaves_and_the_others_hear_it)
{
    start_host();
    expect_all_ok(run_job("itest-groups-leave", 3, {"--group", "lv", "--leave", "2"}), 3);
}

Test(groups, a_member_that_never_comes_times_out)
{
    start_host();
    expect_all_ok(run_job("itest-groups-absent", 3, {"--group", "late", "--absent", "2"}), 3);
}

// A member lost inside its own construct call (clients/group_faults.c, 4
// ranks, rank 3 or the leader goes): the directives decide.
std::vector<ProcResult> run_faults(const char *nspace, const std::vector<std::string> &args)
{
    return run_group_job("itest_group_faults", nspace, 4, args);
}

Test(groups, a_member_lost_inside_its_call_fails_the_construct)
{
    start_host();
    expect_all_ok(run_faults("itest-faults-plain", {"--group", "f", "--dead", "3"}), 4);
}

Test(groups, ft_collective_goes_on_without_a_member_lost_inside_its_call)
{
    start_host();
    expect_all_ok(run_faults("itest-faults-ft", {"--group", "f", "--dead", "3", "--ft"}), 4);
}

Test(groups, notify_termination_asks_the_members_and_goes_on)
{
    start_host();
    expect_all_ok(run_faults("itest-faults-notify", {"--group", "f", "--dead", "3", "--notify"}), 4);
    expect_all_ok(run_faults("itest-faults-leader", {"--group", "f2", "--dead", "3", "--notify", "--leader", "0"}), 4);
}

Test(groups, a_member_failed_handler_aborts_the_construct)
{
    start_host();
    expect_all_ok(run_faults("itest-faults-abort", {"--group", "f", "--dead", "3", "--notify", "--abort"}), 4);
}

Test(groups, a_lost_leader_is_replaced_by_the_member_that_takes_the_lead)
{
    start_host();
    expect_all_ok(run_faults("itest-faults-newleader",
                             {"--group", "f", "--dead", "0", "--notify", "--leader", "0", "--new-leader", "1"}),
                  4);
}
