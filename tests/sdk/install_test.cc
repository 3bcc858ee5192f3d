// The installed SDK, used the way outsiders use it: `cmake --install` into a
// temporary prefix, then (a) a vendor component built out of tree with
// find_package(pmixpp) is loaded and selected by the installed pmixpp_info,
// (b) a C program builds with `pkg-config pmix`, (c) a CMake consumer links
// pmixpp::pmix. LD_LIBRARY_PATH is cleared so only the installed RUNPATHs
// (or the consumer's own choice) decide which libpmix is found.
#include "json_mini.h"
#include "shell.h"

#include <criterion/criterion.h>

// Criterion's Test() macro expands to a C-style cast.
#pragma GCC diagnostic ignored "-Wold-style-cast"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace pmixpp::tests;

namespace {

std::string work_dir;  // per test; each Criterion test runs in its own process

void make_prefix()
{
    work_dir = make_work_dir("sdk");
}

void drop_prefix()
{
    remove_tree(work_dir);
}

std::string prefix()
{
    return work_dir + "/prefix";
}
std::string log(const char *step)
{
    return work_dir + "/" + step + ".log";
}
std::string cmake()
{
    return shell_quote(env_or_empty("PMIXPP_CMAKE"));
}

void install_or_fail()
{
    cr_assert_not(work_dir.empty(), "cannot create a work directory under $PMIXPP_SDK_WORK_DIR");
    cr_assert(install_pmixpp(prefix(), log("install")), "cmake --install of the build tree failed");
}

// The -fsanitize flags the tree was built with (PMIXPP_SANITIZE), empty
// otherwise. A program or component that loads a sanitized libpmix.so.2 must
// be built with the same sanitizers, or their runtime is not loaded first.
std::string sanitize_flags()
{
    return env_or_empty("PMIXPP_SANITIZE_FLAGS");
}

std::string cmake_sanitize_args()
{
    const std::string flags = sanitize_flags();
    if (flags.empty()) return "";
    std::string args;
    for (const char *var : {"CMAKE_C_FLAGS", "CMAKE_CXX_FLAGS", "CMAKE_EXE_LINKER_FLAGS", "CMAKE_SHARED_LINKER_FLAGS",
                            "CMAKE_MODULE_LINKER_FLAGS"}) {
        args += std::string(" -D") + var + "=" + shell_quote(flags);
    }
    return args;
}

// Configures and builds the CMake project in `source` against the prefix.
void build_project(const std::string &source, const std::string &build)
{
    const std::string configure = cmake() + " -S " + shell_quote(source) + " -B " + shell_quote(build) +
                                  " -DCMAKE_PREFIX_PATH=" + shell_quote(prefix()) +
                                  " -DCMAKE_C_COMPILER=" + shell_quote(env_or_empty("PMIXPP_CC")) +
                                  " -DCMAKE_CXX_COMPILER=" + shell_quote(env_or_empty("PMIXPP_CXX")) +
                                  cmake_sanitize_args();
    cr_assert(run_logged(configure, build + ".configure.log"), "configuring %s failed", source.c_str());
    cr_assert(run_logged(cmake() + " --build " + shell_quote(build), build + ".build.log"), "building %s failed",
              source.c_str());
}

// pmixpp_info --json from the prefix, with extra environment settings.
JsonValue installed_info(const std::string &env)
{
    std::string out;
    // HOME points into the work dir so no user param file of the person
    // running the tests can change the outcome.
    const std::string command = "env -u LD_LIBRARY_PATH -u PMIXPP_SYSCONFDIR HOME=" + shell_quote(work_dir) + " " +
                                env + " " + shell_quote(prefix() + "/bin/pmixpp_info") + " --json";
    cr_assert(run_capture(command, log("info"), &out), "pmixpp_info --json failed");
    JsonValue doc;
    std::string error;
    cr_assert(json_parse(out, &doc, &error), "pmixpp_info --json is not valid JSON (%s):\n%s", error.c_str(),
              out.c_str());
    return doc;
}

const JsonValue *framework_named(const JsonValue &doc, const std::string &name)
{
    const JsonValue *frameworks = doc.member("frameworks");
    cr_assert(frameworks && frameworks->kind == JsonValue::Kind::array, "no \"frameworks\" array");
    for (const auto &fw : frameworks->array) {
        const JsonValue *fw_name = fw.member("name");
        if (fw_name && fw_name->string == name) {
            return &fw;
        }
    }
    return nullptr;
}

const JsonValue *component_named(const JsonValue &fw, const std::string &name)
{
    const JsonValue *components = fw.member("components");
    cr_assert(components && components->kind == JsonValue::Kind::array, "no \"components\" array");
    for (const auto &component : components->array) {
        const JsonValue *c_name = component.member("name");
        if (c_name && c_name->string == name) {
            return &component;
        }
    }
    return nullptr;
}

bool selected_contains(const JsonValue &fw, const std::string &name)
{
    const JsonValue *selected = fw.member("selected");
    cr_assert(selected && selected->kind == JsonValue::Kind::array, "no \"selected\" array");
    for (const auto &entry : selected->array) {
        if (entry.string == name) {
            return true;
        }
    }
    return false;
}

bool same_file(const std::string &a, const std::string &b)
{
    std::error_code ignored;
    return std::filesystem::equivalent(a, b, ignored);
}

const JsonValue *param_named(const JsonValue &fw, const std::string &name)
{
    const JsonValue *params = fw.member("params");
    cr_assert(params && params->kind == JsonValue::Kind::array, "no \"params\" array");
    for (const auto &param : params->array) {
        const JsonValue *p_name = param.member("name");
        if (p_name && p_name->string == name) {
            return &param;
        }
    }
    return nullptr;
}

// The out-of-tree example vendor component, built against the prefix.
std::string build_vendor_component()
{
    const std::string vendor_build = work_dir + "/vendor-build";
    build_project(env_or_empty("PMIXPP_SOURCE_DIR") + "/share/examples/pnet-vendor", vendor_build);
    const std::string vendor_so = vendor_build + "/pmixpp_pnet_vendor.so";
    cr_assert(std::filesystem::is_regular_file(vendor_so), "%s was not built", vendor_so.c_str());
    return vendor_so;
}

}  // namespace

TestSuite(sdk_install, .init = make_prefix, .fini = drop_prefix, .timeout = 280);

Test(sdk_install, vendor_component_is_loaded_and_selected)
{
    install_or_fail();
    cr_assert(std::filesystem::is_regular_file(prefix() + "/include/pmixpp/component.hpp"));
    cr_assert(std::filesystem::is_regular_file(prefix() + "/include/pmixpp/util.hpp"));
    cr_assert_not(std::filesystem::exists(prefix() + "/include/pmixpp/inventory.h"),
                  "framework/src leaked into the SDK");

    const std::string vendor_so = build_vendor_component();
    const std::string path_env = "PMIX_MCA_mca_base_component_path=" + shell_quote(work_dir + "/vendor-build");
    const JsonValue doc = installed_info(path_env);
    const JsonValue *pnet = framework_named(doc, "pnet");
    cr_assert_not_null(pnet, "pmixpp_info lists no pnet framework");
    const JsonValue *vendor = component_named(*pnet, "vendor");
    cr_assert_not_null(vendor, "pnet lists no vendor component");
    cr_assert(same_file(vendor->member("path")->string, vendor_so), "vendor path is '%s', expected %s",
              vendor->member("path")->string.c_str(), vendor_so.c_str());
    cr_assert_str_eq(vendor->member("version")->string.c_str(), "1.0.0");
    cr_assert(vendor->member("selected")->boolean, "vendor not selected: %s", vendor->member("reason")->string.c_str());
    cr_assert(selected_contains(*pnet, "vendor"), "vendor missing from pnet's selected list");

    const JsonValue excluded_doc = installed_info(path_env + " PMIX_MCA_pnet=^vendor");
    const JsonValue *pnet_excluded = framework_named(excluded_doc, "pnet");
    cr_assert_not_null(pnet_excluded);
    cr_assert_not(selected_contains(*pnet_excluded, "vendor"), "PMIX_MCA_pnet=^vendor did not exclude vendor");
    const JsonValue *vendor_excluded = component_named(*pnet_excluded, "vendor");
    cr_assert_not_null(vendor_excluded, "an excluded component is still listed");
    cr_assert_not(vendor_excluded->member("selected")->boolean);
    cr_assert(vendor_excluded->member("reason")->string == "excluded by PMIX_MCA_pnet=^vendor", "reason '%s'",
              vendor_excluded->member("reason")->string.c_str());
    // Read from its descriptor although it was never opened.
    cr_assert(vendor_excluded->member("version")->string == "1.0.0");
    cr_assert_eq(vendor_excluded->member("priority")->number, 20);
}

// `cmake --install` writes the component index beside the installed
// components (the copies are new files: the build tree's index would be
// stale), one line per component file, so that a client of the installed
// library loads only what it selects.
Test(sdk_install, installed_components_have_a_fresh_index)
{
    install_or_fail();
    const std::string directory = prefix() + "/lib/pmixpp";
    std::ifstream index(directory + "/pmixpp-components.index");
    cr_assert(index.good(), "no pmixpp-components.index in %s", directory.c_str());
    std::string header;
    std::getline(index, header);
    cr_assert(header == "pmixpp-component-index 1", "index header is '%s'", header.c_str());
    std::vector<std::string> indexed;
    for (std::string line; std::getline(index, line);) {
        std::istringstream fields(line);
        std::string framework, name;
        long long priority = 0, size = 0;
        fields >> framework >> name >> priority >> size;
        cr_assert_not(fields.fail(), "malformed index line '%s'", line.c_str());
        const std::string file = directory + "/pmixpp_" + framework + "_" + name + ".so";
        cr_assert(std::filesystem::is_regular_file(file), "the index names %s, which is not installed", file.c_str());
        cr_assert_eq(static_cast<long long>(std::filesystem::file_size(file)), size, "the index's size of %s is stale",
                     file.c_str());
        indexed.push_back(file);
    }
    for (const auto &entry : std::filesystem::directory_iterator(directory)) {
        const std::string file = entry.path().string();
        if (!file.ends_with(".so")) continue;
        cr_assert(std::find(indexed.begin(), indexed.end(), file) != indexed.end(), "%s is installed but not indexed",
                  file.c_str());
    }
    cr_assert_geq(indexed.size(), 4u, "too few components indexed");
}

// The vendor component through a whole job: the hello job's host runs the
// RFC's steps, so the component reserves a VNI, writes its configuration
// into the job's session directory and removes it when the job ends.
Test(sdk_install, vendor_component_prepares_a_job_and_cleans_up)
{
    install_or_fail();
    build_vendor_component();
    const std::string build = work_dir + "/hello-build";
    build_project(env_or_empty("PMIXPP_SOURCE_DIR") + "/share/examples/hello-job", build);
    const std::string tmpdir = work_dir + "/tmp";
    std::filesystem::create_directories(tmpdir);
    std::string out;
    const std::string command = "env -u LD_LIBRARY_PATH -u PMIXPP_SYSCONFDIR -u PMIX_SERVER_TMPDIR -u TEMP -u TMP"
                                " HOME=" +
                                shell_quote(work_dir) + " TMPDIR=" + shell_quote(tmpdir) +
                                " PMIX_MCA_mca_base_component_path=" + shell_quote(work_dir + "/vendor-build") +
                                " PMIX_MCA_pnet_vendor_vni_base=4242 " + shell_quote(build + "/hello_host") + " -n 2 " +
                                shell_quote(build + "/hello_client");
    cr_assert(run_capture(command, log("hello-vendor"), &out), "the hello job failed:\n%s", out.c_str());
    cr_expect(out.find("VENDOR_FABRIC_KEY VENDOR_VNI") != std::string::npos, "the vendor's envars are missing:\n%s",
              out.c_str());
    cr_expect(out.find("2 of 2 processes succeeded") != std::string::npos, "unexpected output:\n%s", out.c_str());
    std::error_code ignored;
    cr_expect(std::filesystem::is_empty(tmpdir, ignored), "the job left files in %s (the vendor's configuration?)",
              tmpdir.c_str());
}

// The system param file belongs to the prefix the tree was installed to with
// `cmake --install --prefix`, not to the prefix configured at build time.
Test(sdk_install, system_param_file_of_the_installed_prefix)
{
    install_or_fail();
    build_vendor_component();
    const std::string system_file = prefix() + "/etc/pmixpp-mca-params.conf";
    std::filesystem::create_directories(prefix() + "/etc");
    std::ofstream(system_file) << "# site policy\npnet = ^vendor\n";

    const JsonValue doc = installed_info("PMIX_MCA_mca_base_component_path=" + shell_quote(work_dir + "/vendor-build"));
    const JsonValue *files = doc.member("core") ? doc.member("core")->member("param_files") : nullptr;
    cr_assert_not_null(files, "no core.param_files in pmixpp_info --json");
    cr_assert(same_file(files->member("system")->string, system_file), "system file is '%s', expected %s",
              files->member("system")->string.c_str(), system_file.c_str());

    const JsonValue *pnet = framework_named(doc, "pnet");
    cr_assert_not_null(pnet);
    const JsonValue *vendor = component_named(*pnet, "vendor");
    cr_assert_not_null(vendor);
    cr_assert_not(vendor->member("selected")->boolean, "pnet = ^vendor in %s was not applied", system_file.c_str());
    cr_assert(vendor->member("reason")->string == "excluded by PMIX_MCA_pnet=^vendor", "reason '%s'",
              vendor->member("reason")->string.c_str());
    const JsonValue *filter = param_named(*pnet, "PMIX_MCA_pnet");
    cr_assert_not_null(filter);
    const std::string source = filter->member("source")->string;
    const std::string kind = "system file ";
    cr_assert(source.starts_with(kind) && same_file(source.substr(kind.size()), system_file), "source '%s'",
              source.c_str());
}

Test(sdk_install, pkg_config_program_builds_and_runs)
{
    install_or_fail();
    const std::string pc_env = "PKG_CONFIG_PATH=" + shell_quote(prefix() + "/lib/pkgconfig") + " PKG_CONFIG_LIBDIR=";
    std::string modversion;
    cr_assert(run_capture(pc_env + " " + shell_quote(env_or_empty("PMIXPP_PKG_CONFIG")) + " --modversion pmix",
                          log("modversion"), &modversion));
    cr_assert_str_eq(modversion.c_str(), "4.2.2\n");

    const std::string program = work_dir + "/print_version";
    const std::string compile = shell_quote(env_or_empty("PMIXPP_CC")) + " " +
                                shell_quote(env_or_empty("PMIXPP_SOURCE_DIR") + "/tests/sdk/consumer/print_version.c") +
                                " " + sanitize_flags() + " -o " + shell_quote(program) + " $(" + pc_env + " " +
                                shell_quote(env_or_empty("PMIXPP_PKG_CONFIG")) + " --cflags --libs pmix)";
    cr_assert(run_logged(compile, log("compile")), "compiling with pkg-config pmix failed");

    std::string version;
    cr_assert(run_capture("env LD_LIBRARY_PATH=" + shell_quote(prefix() + "/lib") + " " + shell_quote(program),
                          log("run"), &version));
    cr_assert(version.size() > 1 && version[0] > '2', "PMIx_Get_version() printed '%s'", version.c_str());
}

Test(sdk_install, cmake_consumer_builds_and_runs)
{
    install_or_fail();
    const std::string build = work_dir + "/consumer-build";
    build_project(env_or_empty("PMIXPP_SOURCE_DIR") + "/tests/sdk/consumer", build);

    std::string version;
    cr_assert(run_capture("env -u LD_LIBRARY_PATH " + shell_quote(build + "/print_version"), log("run"), &version),
              "the consumer built with pmixpp::pmix does not run");
    cr_assert(version.size() > 1 && version[0] > '2', "PMIx_Get_version() printed '%s'", version.c_str());
}

// The demo job (share/examples/hello-job): a host and its client built
// against the prefix run 3 processes, and everything the library made in
// the tmpdir they used (session directories, rendezvous files, the files the
// clients registered for cleanup) is gone afterwards.
Test(sdk_install, hello_job_runs_and_leaves_its_tmpdir_empty)
{
    install_or_fail();
    const std::string build = work_dir + "/hello-build";
    build_project(env_or_empty("PMIXPP_SOURCE_DIR") + "/share/examples/hello-job", build);
    const std::string tmpdir = work_dir + "/tmp";
    std::filesystem::create_directories(tmpdir);

    std::string out;
    const std::string command = "env -u LD_LIBRARY_PATH -u PMIXPP_SYSCONFDIR -u PMIX_SERVER_TMPDIR -u TEMP -u TMP"
                                " HOME=" +
                                shell_quote(work_dir) + " TMPDIR=" + shell_quote(tmpdir) + " " +
                                shell_quote(build + "/hello_host") + " -n 3 " + shell_quote(build + "/hello_client");
    cr_assert(run_capture(command, log("hello"), &out), "the hello job failed:\n%s", out.c_str());
    cr_expect(out.find("3 of 3 processes succeeded") != std::string::npos, "unexpected output:\n%s", out.c_str());
    cr_expect(out.find("my neighbour says \"hello from rank") != std::string::npos, "no exchange:\n%s", out.c_str());

    std::string left;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(tmpdir)) {
        left += entry.path().string() + "\n";
    }
    cr_assert(left.empty(), "the hello job left files behind in its tmpdir:\n%s", left.c_str());
}
