// The loader with real fixture shared objects: each bad fixture is rejected
// with ONE line naming its path and the reason, the process goes on, and the
// two good pnet components (alpha 10, beta 30) are still selected.
#include "stderr_capture.h"

#include "framework/src/inventory.h"
#include "framework/src/selected_modules.h"

#include <pmixpp/pnet.h>

#include <criterion/criterion.h>

#include <climits>
#include <cstdlib>

using namespace pmixpp;

namespace {

const std::string fixture_root = PMIXPP_FIXTURE_ROOT;

struct LoaderRun {
    pmix_status_t rc;
    std::string selected;
    std::vector<std::string> lines;
};

LoaderRun select_pnet_with(const std::string &fixture_dir)
{
    const std::string path = fixture_root + "/" + fixture_dir + ":" + fixture_root + "/good";
    setenv("PMIX_MCA_mca_base_component_path", path.c_str(), 1);
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    LoaderRun run{framework::select("pnet", &modules), {}, {}};
    for (const auto &module : modules) run.selected += (run.selected.empty() ? "" : ",") + module.component;
    run.lines = capture.lines();
    return run;
}

void expect_one_rejection(const std::string &fixture, const std::string &reason)
{
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

std::string real_path(const std::string &path)
{
    char resolved[PATH_MAX];
    cr_assert_not_null(realpath(path.c_str(), resolved), "%s does not exist", path.c_str());
    return resolved;
}

const framework::ComponentReport *pnet_component(const std::vector<framework::FrameworkReport> &reports,
                                                 const std::string &name)
{
    for (const auto &report : reports) {
        if (report.name != "pnet") continue;
        for (const auto &component : report.components) {
            if (component.name == name) return &component;
        }
    }
    return nullptr;
}

}  // namespace

Test(loader, good_components_in_priority_order)
{
    setenv("PMIX_MCA_mca_base_component_path", (fixture_root + "/good").c_str(), 1);
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("pnet", &modules), PMIX_SUCCESS);
    const std::string output = capture.stop();
    cr_assert_str_eq(output.c_str(), "");
    cr_assert_eq(modules.size(), 2u);
    cr_assert_str_eq(modules[0].component.c_str(), "beta");
    cr_assert_eq(modules[0].priority, 30);
    cr_assert_str_eq(modules[1].component.c_str(), "alpha");
    cr_assert_not_null(modules[0].module);
    cr_assert_str_eq(modules[0].descriptor->version, "0.0.1");
    framework::finalize();
}

// A client keeps only what it uses: the others are closed and unloaded, and
// a later select() returns what was kept. Nothing changes while another
// role of the process holds the framework.
Test(loader, retain_only_unloads_the_unnamed_components)
{
    setenv("PMIX_MCA_mca_base_component_path", (fixture_root + "/good").c_str(), 1);
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("pnet", &modules), PMIX_SUCCESS);
    cr_assert_eq(modules.size(), 2u);
    framework::acquire("pnet");
    framework::acquire("pnet");
    cr_assert_eq(framework::retain_only("pnet", {"alpha"}), PMIX_ERR_NOT_SUPPORTED, "two roles hold pnet");
    cr_assert_eq(framework::select("pnet", &modules), PMIX_SUCCESS);
    cr_assert_eq(modules.size(), 2u);
    framework::release("pnet");
    cr_assert_eq(framework::retain_only("pnet", {"alpha"}), PMIX_SUCCESS);
    cr_assert_eq(framework::select("pnet", &modules), PMIX_SUCCESS);
    cr_assert_eq(modules.size(), 1u);
    cr_assert_str_eq(modules[0].component.c_str(), "alpha");
    cr_assert_eq(framework::retain_only("nonesuch", {"alpha"}), PMIX_ERR_NOT_SUPPORTED);
    framework::release("pnet");
    framework::finalize();
}

Test(loader, undefined_symbol_is_a_dlopen_error)
{
    expect_one_rejection("undefsym", "pmixpp_fixture_symbol_defined_nowhere");
}

// Lazy binding would accept this file and crash the process at open.
Test(loader, undefined_function_is_rejected_at_load)
{
    expect_one_rejection("undeffn", "undefined symbol: pmixpp_fixture_function_defined_nowhere");
}

Test(loader, text_file_is_not_a_library)
{
    expect_one_rejection("garbage", "cannot load: ");
}

Test(loader, missing_entry_symbol)
{
    expect_one_rejection("noentry", "missing entry symbol `pmixpp_pnet_noentry_component`");
}

Test(loader, abi_major_mismatch)
{
    expect_one_rejection("abimajor", "component ABI major 7 != 1");
}

Test(loader, struct_size_too_small)
{
    expect_one_rejection("smallsize", "descriptor struct_size 16 is smaller than the minimum");
}

Test(loader, framework_name_mismatch)
{
    expect_one_rejection("wrongfw", "framework \"gds\" in file named for \"pnet\"");
}

Test(loader, framework_major_mismatch)
{
    expect_one_rejection("fwmajor", "pnet interface major 9 != 1");
}

Test(loader, framework_minor_newer)
{
    expect_one_rejection("fwminor", "pnet interface minor 5 is newer than this library's " +
                                        std::to_string(PMIXPP_PNET_API_MINOR));
}

// Operations added in a later minor are optional: a component built against
// an older minor, whose module table ends before them, still loads.
Test(loader, a_module_table_of_an_older_minor_is_accepted)
{
    const LoaderRun run = select_pnet_with("oldminor");
    cr_assert_eq(run.rc, PMIX_SUCCESS);
    cr_assert_str_eq(run.selected.c_str(), "beta,alpha,oldminor");
    cr_assert(run.lines.empty(), "unexpected lines, first: %s", run.lines.empty() ? "" : run.lines[0].c_str());
    framework::finalize();
}

Test(loader, open_failure)
{
    expect_one_rejection("openfail", "open failed with status -27");
}

Test(loader, query_fatal_stops_then_exclusion_recovers)
{
    const LoaderRun run = select_pnet_with("queryfatal");
    cr_assert_eq(run.rc, PMIX_ERR_INIT);
    cr_assert_eq(run.lines.size(), 1u);
    cr_assert(run.lines[0].find(fixture_root + "/queryfatal/pmixpp_pnet_queryfatal.so") != std::string::npos, "got: %s",
              run.lines[0].c_str());
    cr_assert(run.lines[0].find("fatal error in query") != std::string::npos, "got: %s", run.lines[0].c_str());
    framework::finalize();
    setenv("PMIX_MCA_pnet", "^queryfatal", 1);
    const LoaderRun retry = select_pnet_with("queryfatal");
    cr_assert_eq(retry.rc, PMIX_SUCCESS);
    cr_assert_str_eq(retry.selected.c_str(), "beta,alpha");
}

Test(loader, query_decline_is_silent)
{
    const LoaderRun run = select_pnet_with("querydecline");
    cr_assert_eq(run.rc, PMIX_SUCCESS);
    cr_assert_str_eq(run.selected.c_str(), "beta,alpha");
    cr_assert_eq(run.lines.size(), 0u);
}

Test(loader, query_decline_is_traced_when_verbose)
{
    setenv("PMIX_MCA_pnet_verbose", "1", 1);
    const LoaderRun run = select_pnet_with("querydecline");
    bool traced = false;
    for (const auto &line : run.lines) traced = traced || line.find("querydecline declined") != std::string::npos;
    cr_assert(traced);
}

Test(loader, included_rejected_component_is_an_error)
{
    setenv("PMIX_MCA_pnet", "abimajor", 1);
    const LoaderRun run = select_pnet_with("abimajor");
    cr_assert_eq(run.rc, PMIX_ERR_NOT_FOUND);
    cr_assert_eq(run.lines.size(), 2u);
    cr_assert(run.lines[1].find("PMIX_MCA_pnet=abimajor: pnet component abimajor cannot be used "
                                "(component ABI major 7 != 1") != std::string::npos,
              "got: %s", run.lines[1].c_str());
    cr_assert(run.lines[1].find("available: alpha, beta") != std::string::npos, "got: %s", run.lines[1].c_str());
}

Test(loader, all_bad_fixtures_at_once_do_not_stop_the_process)
{
    std::string path;
    for (const char *dir : {"undefsym", "undeffn", "garbage", "noentry", "abimajor", "smallsize", "wrongfw", "fwmajor",
                            "fwminor", "openfail", "querydecline"}) {
        path += fixture_root + "/" + dir + ":";
    }
    setenv("PMIX_MCA_mca_base_component_path", (path + fixture_root + "/good").c_str(), 1);
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("pnet", &modules), PMIX_SUCCESS);
    cr_assert_eq(capture.lines().size(), 10u);
    cr_assert_eq(modules.size(), 2u);
    framework::finalize();
}

Test(loader, component_paths_are_canonical_and_searched_once)
{
    const std::string good = real_path(fixture_root + "/good");
    const std::string winding = fixture_root + "/good/../good";
    setenv("PMIX_MCA_mca_base_component_path", (winding + ":" + good + ":" + winding + "/").c_str(), 1);
    setenv("PMIX_MCA_pnet_verbose", "1", 1);  // would trace "found earlier" for a second search
    tests::StderrCapture capture;
    std::vector<framework::FrameworkReport> reports;
    cr_assert_eq(framework::inventory(&reports), PMIX_SUCCESS);
    framework::CoreReport core;
    cr_assert_eq(framework::core_inventory(&core), PMIX_SUCCESS);
    const std::string text = capture.stop();
    const auto *alpha = pnet_component(reports, "alpha");
    cr_assert_not_null(alpha);
    const std::string expected = good + "/pmixpp_pnet_alpha.so";
    cr_assert_str_eq(alpha->path.c_str(), expected.c_str());
    cr_assert_eq(core.component_directories.size(), 2u, "the fixture directory and the default one");
    cr_assert_str_eq(core.component_directories[0].c_str(), good.c_str());
    cr_assert(core.component_directories[1].find("/../") == std::string::npos, "got %s",
              core.component_directories[1].c_str());
    cr_assert(text.find("found earlier") == std::string::npos, "got: %s", text.c_str());
}

Test(loader, excluded_component_still_shows_its_descriptor)
{
    setenv("PMIX_MCA_mca_base_component_path", (fixture_root + "/good").c_str(), 1);
    setenv("PMIX_MCA_pnet", "^alpha", 1);
    std::vector<framework::FrameworkReport> reports;
    cr_assert_eq(framework::inventory(&reports), PMIX_SUCCESS);
    const auto *alpha = pnet_component(reports, "alpha");
    cr_assert_not_null(alpha);
    cr_assert_not(alpha->selected);
    cr_assert_str_eq(alpha->version.c_str(), "0.0.1");
    cr_assert_eq(alpha->priority, 10);
    cr_assert_str_eq(alpha->reason.c_str(), "excluded by PMIX_MCA_pnet=^alpha");
}

Test(loader, excluding_a_broken_component_silences_it)
{
    setenv("PMIX_MCA_mca_base_component_path", (fixture_root + "/undeffn:" + fixture_root + "/good").c_str(), 1);
    setenv("PMIX_MCA_pnet", "^undeffn", 1);
    tests::StderrCapture capture;
    std::vector<framework::FrameworkReport> reports;
    cr_assert_eq(framework::inventory(&reports), PMIX_SUCCESS);
    const std::string output = capture.stop();
    cr_assert_str_eq(output.c_str(), "");
    const auto *broken = pnet_component(reports, "undeffn");
    cr_assert_not_null(broken);
    cr_assert_str_eq(broken->version.c_str(), "", "its descriptor cannot be read");
    cr_assert_str_eq(broken->reason.c_str(), "excluded by PMIX_MCA_pnet=^undeffn");
}
