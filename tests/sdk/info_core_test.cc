// pmixpp_info --json from the build tree: the top-level "core" object shows
// the component path parameter with its value and source, the component
// directories in search order (canonical) and the param files, while the
// "frameworks" array stays as scripts expect it.
#include "json_mini.h"
#include "shell.h"

#include <criterion/criterion.h>

#include <filesystem>
#include <string>

using namespace pmixpp::tests;

namespace {

std::string work_dir;

void make_work()
{
    work_dir = make_work_dir("core");
}
void drop_work()
{
    remove_tree(work_dir);
}

JsonValue build_tree_info(const std::string &env)
{
    const std::string program = env_or_empty("PMIXPP_BUILD_DIR") + "/bin/pmixpp_info";
    std::string out;
    cr_assert(run_capture("env " + env + " " + shell_quote(program) + " --json", work_dir + "/info.log", &out),
              "pmixpp_info --json failed");
    JsonValue doc;
    std::string error;
    cr_assert(json_parse(out, &doc, &error), "not valid JSON (%s):\n%s", error.c_str(), out.c_str());
    return doc;
}

const JsonValue &member_of_kind(const JsonValue &parent, const char *name, JsonValue::Kind kind)
{
    const JsonValue *value = parent.member(name);
    cr_assert(value != nullptr && value->kind == kind, "no \"%s\" of the expected kind", name);
    return *value;
}

}  // namespace

TestSuite(info_core, .init = make_work, .fini = drop_work);

Test(info_core, json_has_core_params_and_directories)
{
    cr_assert_not(work_dir.empty());
    const std::string vendor_dir = work_dir + "/vendor";
    std::filesystem::create_directories(vendor_dir);
    const std::string winding = vendor_dir + "/../vendor";
    const JsonValue doc =
        build_tree_info("HOME=" + shell_quote(work_dir) + " PMIXPP_SYSCONFDIR=" + shell_quote(work_dir) +
                        " PMIX_MCA_mca_base_component_path=" + shell_quote(winding));

    const JsonValue &core = member_of_kind(doc, "core", JsonValue::Kind::object);
    const JsonValue &params = member_of_kind(core, "params", JsonValue::Kind::array);
    cr_assert_eq(params.array.size(), 2u, "the component path and its fallback switch");
    cr_assert(params.array[0].member("name")->string == "PMIX_MCA_mca_base_component_fallback");
    const JsonValue &path_param = params.array[1];
    cr_assert(path_param.member("name")->string == "PMIX_MCA_mca_base_component_path");
    cr_assert(path_param.member("value")->string == winding, "value %s", path_param.member("value")->string.c_str());
    cr_assert(path_param.member("source")->string == "environment");

    const JsonValue &directories = member_of_kind(core, "component_directories", JsonValue::Kind::array);
    cr_assert_eq(directories.array.size(), 2u, "the given directory, then the default one");
    const std::string canonical = std::filesystem::canonical(vendor_dir).string();
    cr_assert(directories.array[0].string == canonical, "got %s", directories.array[0].string.c_str());
    const std::string build_components =
        std::filesystem::canonical(env_or_empty("PMIXPP_BUILD_DIR") + "/lib").string() + "/pmixpp";
    cr_assert(directories.array[1].string == build_components, "got %s", directories.array[1].string.c_str());

    const JsonValue &files = member_of_kind(core, "param_files", JsonValue::Kind::object);
    cr_assert(files.member("system")->string == work_dir + "/pmixpp-mca-params.conf");
    cr_assert(files.member("user")->string == work_dir + "/.pmix/mca-params.conf");

    const JsonValue &frameworks = member_of_kind(doc, "frameworks", JsonValue::Kind::array);
    cr_assert_eq(frameworks.array.size(), 4u);
    cr_assert(frameworks.array[0].member("components") != nullptr);
}

// The command line (CLI11): an unknown option is one line naming it and
// --help, with exit code 2; --help lists every option.
Test(info_core, command_line_errors_name_the_option)
{
    const std::string program = shell_quote(env_or_empty("PMIXPP_BUILD_DIR") + "/bin/pmixpp_info");
    const std::string log = work_dir + "/usage.log";
    std::string out;
    cr_expect_not(run_capture(program + " --no-such-option", log, &out), "an unknown option was accepted");
    cr_expect(run_capture(program + " --no-such-option 2>&1; test $? -eq 2", log, &out), "exit code is not 2");
    cr_expect(out.find("--no-such-option") != std::string::npos && out.find("--help") != std::string::npos, "%s",
              out.c_str());
    cr_assert(run_capture(program + " --help", log, &out));
    for (const char *option : {"--json", "--version", "--help"}) {
        cr_expect(out.find(option) != std::string::npos, "--help does not mention %s", option);
    }
}
