// Parameters: precedence environment > user file > system file > default, the
// services table's typed accessors, file syntax, and the inventory reports.
#include "fake_components.h"
#include "stderr_capture.h"

#include "framework/src/inventory.h"
#include "framework/src/selected_modules.h"

#include <criterion/criterion.h>

#include <algorithm>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <sys/stat.h>

using namespace pmixpp;
using pmixpp::tests::FakeConfig;

namespace {

std::string make_temp_dir()
{
    char path[] = "/tmp/pmixpp-params-XXXXXX";
    cr_assert_not_null(mkdtemp(path));
    return path;
}

// System file in <sys>/pmixpp-mca-params.conf, user file in <home>/.pmix/mca-params.conf.
struct ParamFiles {
    std::string system_dir = make_temp_dir();
    std::string home = make_temp_dir();
    std::string system_file = system_dir + "/pmixpp-mca-params.conf";
    std::string user_file = home + "/.pmix/mca-params.conf";

    ParamFiles(const std::string &system_text, const std::string &user_text)
    {
        std::ofstream(system_file) << system_text;
        mkdir((home + "/.pmix").c_str(), 0700);
        std::ofstream(user_file) << user_text;
        setenv("PMIXPP_SYSCONFDIR", system_dir.c_str(), 1);
        setenv("HOME", home.c_str(), 1);
    }
    ~ParamFiles()
    {
        std::error_code ignored;
        std::filesystem::remove_all(system_dir, ignored);
        std::filesystem::remove_all(home, ignored);
    }
    ParamFiles(const ParamFiles &) = delete;
    ParamFiles &operator=(const ParamFiles &) = delete;
};

const framework::ParamReport *find_param(const framework::FrameworkReport &report, const std::string &name)
{
    for (const auto &param : report.params) {
        if (param.name == name) return &param;
    }
    return nullptr;
}

const framework::FrameworkReport *find_framework(const std::vector<framework::FrameworkReport> &reports,
                                                 const std::string &name)
{
    for (const auto &report : reports) {
        if (report.name == name) return &report;
    }
    return nullptr;
}

void select_gds()
{
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("gds", &modules), PMIX_SUCCESS);
}

}  // namespace

Test(params, environment_over_user_over_system_over_default)
{
    ParamFiles files("# site defaults\n"
                     "gds_a_color = green\n"
                     "gds_a_depth = 7\n"
                     "gds_a_fast = true\n",
                     "gds_a_color = blue\n"
                     "  gds_a_depth=8  \n");
    setenv("PMIX_MCA_gds_a_color", "black", 1);
    tests::add_fake(0, FakeConfig{"gds", "a", 10, PMIXPP_QUERY_AVAILABLE, 0, -1, true});
    select_gds();
    const auto &record = tests::fake_record(0);
    cr_assert_str_eq(record.color.c_str(), "black");
    cr_assert_eq(record.depth, 8);
    cr_assert_eq(record.fast, 1);
    framework::finalize();

    std::vector<framework::FrameworkReport> reports;
    cr_assert_eq(framework::inventory(&reports), PMIX_SUCCESS);
    const auto *gds = find_framework(reports, "gds");
    cr_assert_not_null(gds);
    const auto *color = find_param(*gds, "PMIX_MCA_gds_a_color");
    const auto *depth = find_param(*gds, "PMIX_MCA_gds_a_depth");
    const auto *fast = find_param(*gds, "PMIX_MCA_gds_a_fast");
    const auto *priority = find_param(*gds, "PMIX_MCA_gds_a_priority");
    cr_assert(color && depth && fast && priority);
    cr_assert_str_eq(color->source.c_str(), "environment");
    const std::string user_source = "user file " + files.user_file;
    const std::string system_source = "system file " + files.system_file;
    cr_assert_str_eq(depth->source.c_str(), user_source.c_str());
    cr_assert_str_eq(depth->value.c_str(), "8");
    cr_assert_str_eq(fast->source.c_str(), system_source.c_str());
    cr_assert_str_eq(priority->source.c_str(), "default");
    cr_assert_str_eq(priority->value.c_str(), "10");
    cr_assert_str_eq(color->help.c_str(), "a string");
}

Test(params, defaults_and_typed_accessors)
{
    tests::add_fake(0, FakeConfig{"gds", "a", 10, PMIXPP_QUERY_AVAILABLE, 0, -1, true});
    select_gds();
    const auto &record = tests::fake_record(0);
    cr_assert_str_eq(record.color.c_str(), "red");
    cr_assert_eq(record.depth, 3);
    cr_assert_eq(record.fast, 0);
}

Test(params, invalid_int_falls_back_to_default_with_warning)
{
    setenv("PMIX_MCA_gds_a_depth", "deep", 1);
    tests::add_fake(0, FakeConfig{"gds", "a", 10, PMIXPP_QUERY_AVAILABLE, 0, -1, true});
    tests::StderrCapture capture;
    select_gds();
    const std::string text = capture.stop();
    cr_assert_eq(tests::fake_record(0).depth, 3);
    cr_assert(text.find("PMIX_MCA_gds_a_depth=deep (from environment) is not a valid integer") != std::string::npos,
              "got: %s", text.c_str());
}

Test(params, file_include_list_and_malformed_line)
{
    ParamFiles files("gds = ^b\nthis line has no equals sign\n", "");
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20});
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("gds", &modules), PMIX_SUCCESS);
    const std::string names = tests::joined(tests::names_of(modules));
    cr_assert_str_eq(names.c_str(), "a");
    const std::string text = capture.stop();
    cr_assert(text.find(files.system_file + ":2: ignored line") != std::string::npos, "got: %s", text.c_str());
}

// A parameter file that cannot be read whole is named in one warning and
// ignored, not half-read: here one past the 1 MiB the core reads.
Test(params, an_unreadable_file_is_named_and_ignored)
{
    ParamFiles files(std::string(1 << 20, '#') + "\ngds = ^b\n", "");
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20});
    tests::StderrCapture capture;
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("gds", &modules), PMIX_SUCCESS);
    const std::string names = tests::joined(tests::names_of(modules));
    const std::string text = capture.stop();
    cr_expect(names.find('b') != std::string::npos, "the file's gds = ^b was applied: %s", names.c_str());
    cr_expect(text.find(files.system_file + ": cannot be read") != std::string::npos, "got: %s", text.c_str());
}

Test(params, inventory_reports_and_closes_everything)
{
    setenv("PMIX_MCA_gds", "^b", 1);
    setenv("PMIX_MCA_gsd", "x", 1);
    tests::add_fake(0, FakeConfig{"gds", "a", 10});
    tests::add_fake(1, FakeConfig{"gds", "b", 20});
    tests::add_fake(2, FakeConfig{"gds", "c", 30, PMIXPP_QUERY_DECLINE});
    tests::add_fake(3, FakeConfig{"ptl", "p", 40});
    std::vector<framework::FrameworkReport> reports;
    tests::StderrCapture capture;
    cr_assert_eq(framework::inventory(&reports), PMIX_SUCCESS);
    capture.stop();
    cr_assert_eq(reports.size(), 4u);
    const auto *gds = find_framework(reports, "gds");
    cr_assert_not_null(gds);
    cr_assert(gds->multi_select);
    cr_assert_eq(gds->selected.size(), 1u);
    cr_assert_str_eq(gds->selected[0].c_str(), "a");
    cr_assert_eq(gds->components.size(), 3u);
    for (const auto &component : gds->components) {
        if (component.name == "a") {
            cr_assert(component.selected);
            cr_assert_str_eq(component.reason.c_str(), "");
            cr_assert_str_eq(component.version.c_str(), "9.8.7");
            cr_assert_eq(component.priority, 10);
        } else if (component.name == "b") {
            cr_assert_not(component.selected);
            cr_assert_str_eq(component.reason.c_str(), "excluded by PMIX_MCA_gds=^b");
            // Read from the descriptor, without any hook.
            cr_assert_str_eq(component.version.c_str(), "9.8.7");
            cr_assert_eq(component.priority, 20);
            cr_assert_eq(tests::fake_record(1).registers + tests::fake_record(1).opens, 0);
        } else {
            cr_assert_str_eq(component.reason.c_str(), "declined");
        }
    }
    cr_assert_not_null(find_param(*gds, "PMIX_MCA_gds"));
    cr_assert_str_eq(find_param(*gds, "PMIX_MCA_gds")->value.c_str(), "^b");
    cr_assert_not_null(find_param(*gds, "PMIX_MCA_gds_verbose"));
    // Nothing stays open after an inventory.
    for (int i : {0, 2, 3}) {
        cr_assert_eq(tests::fake_record(i).opens, tests::fake_record(i).closes, "fake %d", i);
    }
    const auto lines = framework::warnings();
    cr_assert_eq(lines.size(), 1u);
    cr_assert(lines[0].find("PMIX_MCA_gsd=x") != std::string::npos, "got: %s", lines[0].c_str());
}

Test(params, core_report_shows_component_path_and_files)
{
    ParamFiles files("mca_base_component_path = /from/system/file\n", "");
    const std::string extra = make_temp_dir();
    setenv("PMIX_MCA_mca_base_component_path", (extra + ":/no/such/dir").c_str(), 1);
    framework::CoreReport core;
    cr_assert_eq(framework::core_inventory(&core), PMIX_SUCCESS);
    cr_assert_eq(core.params.size(), 2u, "the path and the fallback switch");
    cr_assert_str_eq(core.params[0].name.c_str(), "PMIX_MCA_mca_base_component_fallback");
    cr_assert_str_eq(core.params[1].name.c_str(), "PMIX_MCA_mca_base_component_path");
    cr_assert(core.params[1].value == extra + ":/no/such/dir", "got %s", core.params[1].value.c_str());
    cr_assert_str_eq(core.params[1].source.c_str(), "environment");
    cr_assert_eq(core.component_directories.size(), 3u, "no fallback (PMIX_MCA_mca_base_component_fallback=0)");
    cr_assert_str_eq(core.component_directories[0].c_str(), extra.c_str());
    cr_assert_str_eq(core.component_directories[1].c_str(), "/no/such/dir");
    cr_assert_str_eq(core.system_param_file.c_str(), files.system_file.c_str());
    cr_assert_str_eq(core.user_param_file.c_str(), files.user_file.c_str());
    framework::finalize();
    rmdir(extra.c_str());

    unsetenv("PMIX_MCA_mca_base_component_path");
    cr_assert_eq(framework::core_inventory(&core), PMIX_SUCCESS);
    const std::string system_source = "system file " + files.system_file;
    cr_assert_str_eq(core.params[1].source.c_str(), system_source.c_str());
}

// No component in the given directories nor beside the program: then where
// a server's children are told to look, then the directories fixed at build.
Test(params, without_components_the_fallbacks_are_searched_last)
{
    const std::string extra = make_temp_dir();
    setenv("PMIX_MCA_mca_base_component_path", extra.c_str(), 1);
    setenv("PMIX_MCA_mca_base_component_fallback", "1", 1);
    setenv("PMIXPP_SERVER_COMPONENT_PATH", "/the/servers/components", 1);
    framework::CoreReport core;
    cr_assert_eq(framework::core_inventory(&core), PMIX_SUCCESS);
    const auto &dirs = core.component_directories;
    cr_assert_geq(dirs.size(), 4u);
    cr_expect_str_eq(dirs[0].c_str(), extra.c_str());
    cr_expect_str_eq(dirs[2].c_str(), "/the/servers/components", "after the default directory");
    const char *build = std::getenv("PMIXPP_BUILD_DIR");
    cr_assert_not_null(build);
    const std::string built = std::string(build) + "/lib/pmixpp";
    cr_expect(std::find(dirs.begin() + 3, dirs.end(), built) != dirs.end(), "the build's %s is searched last",
              built.c_str());
    framework::finalize();
    rmdir(extra.c_str());
}

// Without the test override, the system file belongs to the installation the
// core was loaded from: this program is <dir>/bin/<test>, so <dir>/etc.
Test(params, system_file_is_found_from_the_core_location)
{
    unsetenv("PMIXPP_SYSCONFDIR");
    char exe[PATH_MAX];
    cr_assert_not_null(realpath("/proc/self/exe", exe));
    std::string prefix = exe;
    prefix.resize(prefix.rfind('/'));
    prefix.resize(prefix.rfind('/'));
    framework::CoreReport core;
    cr_assert_eq(framework::core_inventory(&core), PMIX_SUCCESS);
    const std::string expected = prefix + "/etc/pmixpp-mca-params.conf";
    cr_assert_str_eq(core.system_param_file.c_str(), expected.c_str());
}
