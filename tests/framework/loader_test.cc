// The loader with real fixture shared objects: each bad fixture is rejected
// with ONE line naming its path and the reason, the process goes on, and the
// two good pnet components (alpha 10, beta 30) are still selected.
#include "stderr_capture.h"

#include "framework/src/selection.h"

#include <criterion/criterion.h>

#include <cstdlib>

using namespace pmixpp;

namespace {

const std::string fixture_root = PMIXPP_FIXTURE_ROOT;

struct LoaderRun {
    pmix_status_t rc;
    std::string selected;
    std::vector<std::string> lines;
};

LoaderRun select_pnet_with(const std::string &fixture_dir) {
    const std::string path = fixture_root + "/" + fixture_dir + ":" + fixture_root + "/good";
    setenv("PMIX_MCA_mca_base_component_path", path.c_str(), 1);
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    LoaderRun run{framework::select("pnet", &modules), {}, {}};
    for (const auto &module : modules) run.selected += (run.selected.empty() ? "" : ",") + module.component;
    run.lines = capture.lines();
    return run;
}

void expect_one_rejection(const std::string &fixture, const std::string &reason) {
    const LoaderRun run = select_pnet_with(fixture);
    cr_assert_eq(run.rc, PMIX_SUCCESS);
    cr_assert_str_eq(run.selected.c_str(), "beta,alpha", "the good components are still selected");
    cr_assert_eq(run.lines.size(), 1u, "expected one line, got %zu", run.lines.size());
    const std::string &line = run.lines[0];
    const std::string file = fixture_root + "/" + fixture + "/pmixpp_pnet_" + fixture + ".so";
    cr_assert(line.starts_with("pmixpp: "), "got: %s", line.c_str());
    cr_assert(line.find(file) != std::string::npos, "no path in: %s", line.c_str());
    cr_assert(line.find(reason) != std::string::npos, "no reason \"%s\" in: %s", reason.c_str(), line.c_str());
}

} // namespace

Test(loader, good_components_in_priority_order) {
    setenv("PMIX_MCA_mca_base_component_path", (fixture_root + "/good").c_str(), 1);
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("pnet", &modules), PMIX_SUCCESS);
    cr_assert_str_eq(capture.stop().c_str(), "");
    cr_assert_eq(modules.size(), 2u);
    cr_assert_str_eq(modules[0].component.c_str(), "beta");
    cr_assert_eq(modules[0].priority, 30);
    cr_assert_str_eq(modules[1].component.c_str(), "alpha");
    cr_assert_not_null(modules[0].module);
    cr_assert_str_eq(modules[0].descriptor->version, "0.0.1");
    framework::finalize();
}

Test(loader, undefined_symbol_is_a_dlopen_error) {
    expect_one_rejection("undefsym", "pmixpp_fixture_symbol_defined_nowhere");
}

Test(loader, text_file_is_not_a_library) { expect_one_rejection("garbage", "cannot load: "); }

Test(loader, missing_entry_symbol) {
    expect_one_rejection("noentry", "missing entry symbol `pmixpp_pnet_noentry_component`");
}

Test(loader, abi_major_mismatch) { expect_one_rejection("abimajor", "component ABI major 7 != 1"); }

Test(loader, struct_size_too_small) {
    expect_one_rejection("smallsize", "descriptor struct_size 16 is smaller than the minimum");
}

Test(loader, framework_name_mismatch) {
    expect_one_rejection("wrongfw", "framework \"gds\" in file named for \"pnet\"");
}

Test(loader, framework_major_mismatch) { expect_one_rejection("fwmajor", "pnet interface major 9 != 1"); }

Test(loader, framework_minor_newer) {
    expect_one_rejection("fwminor", "pnet interface minor 5 is newer than this library's 0");
}

Test(loader, open_failure) { expect_one_rejection("openfail", "open failed with status -27"); }

Test(loader, query_fatal_stops_then_exclusion_recovers) {
    const LoaderRun run = select_pnet_with("queryfatal");
    cr_assert_eq(run.rc, PMIX_ERR_INIT);
    cr_assert_eq(run.lines.size(), 1u);
    cr_assert(run.lines[0].find(fixture_root + "/queryfatal/pmixpp_pnet_queryfatal.so") != std::string::npos,
              "got: %s", run.lines[0].c_str());
    cr_assert(run.lines[0].find("fatal error in query") != std::string::npos, "got: %s", run.lines[0].c_str());
    framework::finalize();
    setenv("PMIX_MCA_pnet", "^queryfatal", 1);
    const LoaderRun retry = select_pnet_with("queryfatal");
    cr_assert_eq(retry.rc, PMIX_SUCCESS);
    cr_assert_str_eq(retry.selected.c_str(), "beta,alpha");
}

Test(loader, query_decline_is_silent) {
    const LoaderRun run = select_pnet_with("querydecline");
    cr_assert_eq(run.rc, PMIX_SUCCESS);
    cr_assert_str_eq(run.selected.c_str(), "beta,alpha");
    cr_assert_eq(run.lines.size(), 0u);
}

Test(loader, query_decline_is_traced_when_verbose) {
    setenv("PMIX_MCA_pnet_verbose", "1", 1);
    const LoaderRun run = select_pnet_with("querydecline");
    bool traced = false;
    for (const auto &line : run.lines) traced = traced || line.find("querydecline declined") != std::string::npos;
    cr_assert(traced);
}

Test(loader, included_rejected_component_is_an_error) {
    setenv("PMIX_MCA_pnet", "abimajor", 1);
    const LoaderRun run = select_pnet_with("abimajor");
    cr_assert_eq(run.rc, PMIX_ERR_NOT_FOUND);
    cr_assert_eq(run.lines.size(), 2u);
    cr_assert(run.lines[1].find("PMIX_MCA_pnet=abimajor: pnet component abimajor cannot be used "
                                "(component ABI major 7 != 1") != std::string::npos,
              "got: %s", run.lines[1].c_str());
    cr_assert(run.lines[1].find("available: alpha, beta") != std::string::npos, "got: %s", run.lines[1].c_str());
}

Test(loader, all_bad_fixtures_at_once_do_not_stop_the_process) {
    std::string path;
    for (const char *dir : {"undefsym", "garbage", "noentry", "abimajor", "smallsize", "wrongfw", "fwmajor",
                            "fwminor", "openfail", "querydecline"}) {
        path += fixture_root + "/" + dir + ":";
    }
    setenv("PMIX_MCA_mca_base_component_path", (path + fixture_root + "/good").c_str(), 1);
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("pnet", &modules), PMIX_SUCCESS);
    cr_assert_eq(capture.lines().size(), 9u);
    cr_assert_eq(modules.size(), 2u);
    framework::finalize();
}
