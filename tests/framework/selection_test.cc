// Selection logic with in-process fake components: include/exclude, priority,
// decline/fatal, single vs multi, ordering and the warnings for misspellings.
#include "fake_components.h"
#include "stderr_capture.h"

#include "framework/src/selected_modules.h"

#include <criterion/criterion.h>

#include <cstdlib>

using namespace pmixpp;
using pmixpp::tests::FakeConfig;

namespace {

// gds fakes a(10), b(20), c(30).
void add_three_gds()
{
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20});
    tests::add_fake(2, FakeConfig{"gds", "c", 30});
}

std::string selected_gds(pmix_status_t expected = PMIX_SUCCESS)
{
    std::vector<framework::SelectedModule> modules;
    const pmix_status_t rc = framework::select("gds", &modules);
    cr_assert_eq(rc, expected, "select returned %d, expected %d", rc, expected);
    return tests::joined(tests::names_of(modules));
}

}  // namespace

Test(selection, all_usable_in_priority_order)
{
    add_three_gds();
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "c,b,a");
    for (int i = 0; i < 3; ++i) cr_assert_eq(tests::fake_record(i).opens, 1);
}

Test(selection, include_list_keeps_only_named)
{
    setenv("PMIX_MCA_gds", "a,c", 1);
    add_three_gds();
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "c,a");
    cr_assert_eq(tests::fake_record(1).opens, 0, "an excluded component must not even be opened");
}

Test(selection, exclude_list_drops_named)
{
    setenv("PMIX_MCA_gds", "^b", 1);
    add_three_gds();
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "c,a");
    cr_assert_eq(tests::fake_record(1).registers, 0);
}

Test(selection, mixed_include_exclude_is_an_error)
{
    setenv("PMIX_MCA_gds", "a,^b", 1);
    add_three_gds();
    tests::StderrCapture capture;
    selected_gds(PMIX_ERR_BAD_PARAM);
    const std::string text = capture.stop();
    cr_assert(text.find("PMIX_MCA_gds=a,^b") != std::string::npos, "got: %s", text.c_str());
    cr_assert(text.find("mixes included and excluded") != std::string::npos, "got: %s", text.c_str());
}

Test(selection, priority_override_wins)
{
    setenv("PMIX_MCA_gds_a_priority", "100", 1);
    add_three_gds();
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "a,c,b");
}

Test(selection, query_may_adjust_priority_but_override_wins)
{
    tests::add_fake(0, FakeConfig{"gds", "a", 10, PMIXPP_QUERY_AVAILABLE, 0, 50});
    tests::add_fake(1, FakeConfig{"gds", "b", 20, PMIXPP_QUERY_AVAILABLE, 0, 40});
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "a,b");
    framework::finalize();
    setenv("PMIX_MCA_gds_b_priority", "60", 1);
    const std::string selected_again = selected_gds();
    cr_assert_str_eq(selected_again.c_str(), "b,a");
}

Test(selection, decline_is_silent_and_closed)
{
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20, PMIXPP_QUERY_DECLINE});
    tests::StderrCapture capture;
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "a");
    const std::string output = capture.stop();
    cr_assert_str_eq(output.c_str(), "", "a decline prints nothing");
    cr_assert_eq(tests::fake_record(1).queries, 1);
    cr_assert_eq(tests::fake_record(1).closes, 1, "queried but not selected: closed");
    cr_assert_eq(tests::fake_record(0).closes, 0);
}

Test(selection, decline_is_traced_when_verbose)
{
    setenv("PMIX_MCA_gds_verbose", "1", 1);
    tests::add_fake(1, FakeConfig{"gds", "b", 20, PMIXPP_QUERY_DECLINE});
    tests::StderrCapture capture;
    selected_gds();
    const std::string text = capture.stop();
    cr_assert(text.find("pmixpp: gds: component b declined") != std::string::npos, "got: %s", text.c_str());
}

Test(selection, fatal_query_stops_selection)
{
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20, PMIXPP_QUERY_FATAL});
    tests::add_fake(2, FakeConfig{"gds", "c", 30});
    tests::StderrCapture capture;
    selected_gds(PMIX_ERR_INIT);
    const std::string text = capture.stop();
    cr_assert(text.find("fatal") != std::string::npos, "got: %s", text.c_str());
    // Whatever was opened before the fatal component is closed again.
    for (int i = 0; i < 3; ++i) {
        cr_assert_eq(tests::fake_record(i).opens, tests::fake_record(i).closes, "fake %d", i);
    }
}

Test(selection, open_failure_skips_with_reason)
{
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20, PMIXPP_QUERY_AVAILABLE, -5});
    tests::StderrCapture capture;
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "a");
    const std::string text = capture.stop();
    cr_assert(text.find("open failed with status -5") != std::string::npos, "got: %s", text.c_str());
    cr_assert_eq(tests::fake_record(1).queries, 0);
    cr_assert_eq(tests::fake_record(1).closes, 0, "close pairs with a successful open only");
}

Test(selection, stable_order_by_name_on_equal_priority)
{
    tests::add_fake(0, FakeConfig{"gds", "zeta", 10});
    tests::add_fake(1, FakeConfig{"gds", "beta", 10});
    tests::add_fake(2, FakeConfig{"gds", "alpha", 10});
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "alpha,beta,zeta");
}

Test(selection, multi_select_keeps_all_ptl)
{
    tests::add_fake(0, FakeConfig{"ptl", "x", 5});
    tests::add_fake(1, FakeConfig{"ptl", "y", 50});
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("ptl", &modules), PMIX_SUCCESS);
    const std::string names = tests::joined(tests::names_of(modules));
    cr_assert_str_eq(names.c_str(), "y,x");
}

Test(selection, single_select_keeps_best_and_closes_rest)
{
    tests::add_fake(0, FakeConfig{"ptl", "x", 5});
    tests::add_fake(1, FakeConfig{"ptl", "y", 50});
    framework::SelectedModule best{};
    cr_assert_eq(framework::select_best("ptl", &best), PMIX_SUCCESS);
    cr_assert_str_eq(best.component.c_str(), "y");
    cr_assert_not_null(best.module);
    cr_assert_eq(tests::fake_record(0).closes, 1);
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("ptl", &modules), PMIX_SUCCESS);
    const std::string names = tests::joined(tests::names_of(modules));
    cr_assert_str_eq(names.c_str(), "y");
}

Test(selection, select_best_without_components_is_not_found)
{
    framework::SelectedModule best{};
    tests::StderrCapture capture;
    cr_assert_eq(framework::select_best("psec", &best), PMIX_ERR_NOT_FOUND);
}

Test(selection, unknown_framework_is_bad_param)
{
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("nosuch", &modules), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(framework::select("gds", nullptr), PMIX_ERR_BAD_PARAM);
}

Test(selection, unknown_component_in_include_list_names_available)
{
    setenv("PMIX_MCA_gds", "a,nosuch", 1);
    add_three_gds();
    tests::StderrCapture capture;
    selected_gds(PMIX_ERR_NOT_FOUND);
    const std::string text = capture.stop();
    cr_assert(text.find("nosuch was not found; available: a, b, c") != std::string::npos, "got: %s", text.c_str());
    cr_assert_eq(tests::fake_record(0).opens, tests::fake_record(0).closes);
}

Test(selection, declined_included_component_is_an_error)
{
    setenv("PMIX_MCA_gds", "b", 1);
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20, PMIXPP_QUERY_DECLINE});
    tests::StderrCapture capture;
    selected_gds(PMIX_ERR_NOT_FOUND);
    const std::string text = capture.stop();
    cr_assert(text.find("component b cannot be used (declined); available: a, b") != std::string::npos, "got: %s",
              text.c_str());
}

Test(selection, unknown_component_in_exclude_list_warns)
{
    setenv("PMIX_MCA_gds", "^hsah", 1);
    add_three_gds();
    tests::StderrCapture capture;
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "c,b,a");
    const std::string text = capture.stop();
    cr_assert(text.find("no gds component named hsah; available: a, b, c") != std::string::npos, "got: %s",
              text.c_str());
}

Test(selection, unknown_framework_env_var_warns)
{
    setenv("PMIX_MCA_gsd", "hash", 1);
    add_three_gds();
    tests::StderrCapture capture;
    selected_gds();
    const std::string text = capture.stop();
    cr_assert(text.find("pmixpp: PMIX_MCA_gsd=hash (environment) names no framework") != std::string::npos, "got: %s",
              text.c_str());
    cr_assert(text.find("valid frameworks: gds, pnet, psec, ptl") != std::string::npos, "got: %s", text.c_str());
}

Test(selection, upper_case_framework_gets_a_hint)
{
    setenv("PMIX_MCA_GDS", "a", 1);
    add_three_gds();
    tests::StderrCapture capture;
    selected_gds();
    const std::string text = capture.stop();
    cr_assert(text.find("did you mean PMIX_MCA_gds?") != std::string::npos, "got: %s", text.c_str());
}

Test(selection, miscased_prefix_warns_with_right_spelling)
{
    setenv("PMIx_MCA_gds", "a", 1);
    setenv("pmix_mca_gds_verbose", "1", 1);
    add_three_gds();
    tests::StderrCapture capture;
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "c,b,a", "a mis-cased variable is not used");
    const std::string text = capture.stop();
    cr_assert(text.find("PMIx_MCA_gds is ignored") != std::string::npos, "got: %s", text.c_str());
    cr_assert(text.find("did you mean PMIX_MCA_gds?") != std::string::npos, "got: %s", text.c_str());
    cr_assert(text.find("did you mean PMIX_MCA_gds_verbose?") != std::string::npos, "got: %s", text.c_str());
}

Test(selection, misspelled_component_in_param_name_warns)
{
    setenv("PMIX_MCA_gds_hsah_priority", "5", 1);
    add_three_gds();
    tests::StderrCapture capture;
    selected_gds();
    const std::string text = capture.stop();
    cr_assert(text.find("PMIX_MCA_gds_hsah_priority=5 (environment) names no gds component; available: a, b, c") !=
                  std::string::npos,
              "got: %s", text.c_str());
}

Test(selection, openpmix_only_frameworks_are_accepted_silently)
{
    setenv("PMIX_MCA_pcompress_base_silence_warning", "1", 1);
    setenv("PMIX_MCA_mca_base_component_show_load_errors", "0", 1);
    add_three_gds();
    tests::StderrCapture capture;
    selected_gds();
    const std::string output = capture.stop();
    cr_assert_str_eq(output.c_str(), "");
}

Test(selection, close_then_select_again)
{
    add_three_gds();
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "c,b,a");
    framework::close("gds");
    for (int i = 0; i < 3; ++i) cr_assert_eq(tests::fake_record(i).closes, 1);
    const std::string selected_again = selected_gds();
    cr_assert_str_eq(selected_again.c_str(), "c,b,a");
    framework::finalize();
    for (int i = 0; i < 3; ++i) cr_assert_eq(tests::fake_record(i).closes, 2);
}

Test(selection, verbose_shows_component_trace)
{
    tests::add_fake(0, FakeConfig{"gds", "a", 10, PMIXPP_QUERY_AVAILABLE, 0, -1, false, true});
    {
        tests::StderrCapture capture;
        selected_gds();
        const std::string text = capture.stop();
        cr_assert(text.find("trace from a") == std::string::npos, "got: %s", text.c_str());
        cr_assert(text.find("pmixpp: gds/a: info: info from a") != std::string::npos, "got: %s", text.c_str());
    }
    framework::finalize();
    setenv("PMIX_MCA_gds_verbose", "5", 1);
    tests::StderrCapture capture;
    selected_gds();
    const std::string text = capture.stop();
    cr_assert(text.find("pmixpp: gds/a: trace: trace from a") != std::string::npos, "got: %s", text.c_str());
}

// The hook runs under the core's lock; a nested select() must be refused, not
// wait forever (the timeout only turns a regression into a failure).
Test(selection, hook_calling_select_is_refused, .timeout = 60)
{
    FakeConfig config{"gds", "a", 10};
    config.reenters_select = true;
    tests::add_fake(0, config);
    tests::add_fake(1, FakeConfig{"gds", "b", 20});
    tests::StderrCapture capture;
    const std::string selected = selected_gds();
    cr_assert_str_eq(selected.c_str(), "b,a", "the outer selection goes on");
    const std::string text = capture.stop();
    cr_assert_eq(tests::fake_record(0).reentry_rc, PMIX_ERR_NOT_SUPPORTED);
    cr_assert(text.find("pmixpp: select(\"gds\") was called from a component hook") != std::string::npos, "got: %s",
              text.c_str());
    // The refusal leaves the core usable: the flag is per thread and per call.
    framework::finalize();
    const std::string selected_again = selected_gds();
    cr_assert_str_eq(selected_again.c_str(), "b,a");
}
