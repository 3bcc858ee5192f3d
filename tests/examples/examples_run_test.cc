// OpenPMIx's own example programs, built against our headers and library,
// run under pmixrun in three modes: (ours) pmixrun and the examples on our
// libpmix.so.2; (openpmix) the same binaries on Debian's OpenPMIx 4.2
// libpmix.so.2, which they reach through LD_LIBRARY_PATH; (interop) pmixrun
// on ours and the examples on OpenPMIx's, talking its wire protocol. Each case is judged
// by the example's own output and exit code (example_cases.cc); a case known
// to fail says why and does not fail the test (docs/openpmix-examples.md).
#include "example_runner.h"

#include "support/child_process.h"

#include <criterion/criterion.h>

#include <dirent.h>

#include <cstdlib>
#include <set>
#include <string>

using namespace examples_test;

namespace {

// (An X-macro list, laid out by hand.)
// clang-format off
// The cases of example_cases.cc, each with a test per mode.
#define EXAMPLE_CASES(X)                                                                                \
    X(hello) X(hello_refresh) X(client) X(client2) X(dmodex) X(dynamic) X(bad_exit) X(pub) X(pubi)      \
    X(log) X(jctrl) X(alloc) X(nodeinfo) X(fault) X(group) X(group_below_4) X(group_dmodex)           \
    X(group_lcl_cid) X(asyncgroup) X(asyncgroup_below_4) X(abi_no_init) X(abi_with_init) X(tool)      \
    X(tool_nspace) X(tool_uri) X(tool_spawn) X(debugger) X(debugger_attach) X(launcher)
// clang-format on

// Each case gets a test per mode; a whole case (both -n) takes at most
// 2 x (kCaseSeconds + 10) s.
#define EXAMPLE_TESTS(name)                                                                                            \
    Test(examples_ours, name, .timeout = 120)                                                                          \
    {                                                                                                                  \
        run_and_judge(#name, Mode::kOurs);                                                                             \
    }                                                                                                                  \
    Test(examples_openpmix, name, .timeout = 120)                                                                      \
    {                                                                                                                  \
        run_and_judge(#name, Mode::kOpenPmix);                                                                         \
    }                                                                                                                  \
    Test(examples_interop, name, .timeout = 120)                                                                       \
    {                                                                                                                  \
        run_and_judge(#name, Mode::kInterop);                                                                          \
    }                                                                                                                  \
    Test(examples_reverse, name, .timeout = 120)                                                                       \
    {                                                                                                                  \
        run_and_judge(#name, Mode::kReverse);                                                                          \
    }

// Which libpmix.so.2 `program` would load, as the dynamic loader resolves it
// with the current environment.
std::string libpmix_of(const std::string &program)
{
    ::setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
    const test_support::Result result = test_support::run(program.c_str(), {}, "", 20);
    ::unsetenv("LD_TRACE_LOADED_OBJECTS");
    for (const std::string &line : test_support::lines_with(result.out, "libpmix.so.2 => ")) {
        return line.substr(line.find("=> ") + 3, line.find(" (") - line.find("=> ") - 3);
    }
    return "(none: " + result.out + ")";
}

void expect_libraries(Mode mode, const char *version_word)
{
    const std::string scratch = enter_mode(mode);
    const std::string dir = std::getenv("LD_LIBRARY_PATH");
    const std::string pmixrun = std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/bin/pmixrun";
    for (const std::string &program : {pmixrun, std::string("./hello"), std::string("./tool")}) {
        const std::string loaded = libpmix_of(program);
        cr_expect_eq(loaded.rfind(dir + "/", 0), 0u, "%s loads %s, not the one in %s", program.c_str(), loaded.c_str(),
                     dir.c_str());
    }
    const test_support::Result version = test_support::run(pmixrun.c_str(), {"--version"}, "", 20);
    cr_expect(version.out.find(version_word) != std::string::npos, "pmixrun --version: %s", version.out.c_str());
    test_support::remove_tree(scratch);
}

}  // namespace

// The two modes are what they say.
Test(examples_ours, pmixrun_and_examples_load_our_libpmix)
{
    expect_libraries(Mode::kOurs, "pmixpp");
}
Test(examples_openpmix, pmixrun_and_examples_load_openpmix)
{
    expect_libraries(Mode::kOpenPmix, "OpenPMIx");
}

// Every example Debian ships has a row, or a reason it is not run.
Test(examples_table, covers_every_installed_example)
{
    const char *dir_name = std::getenv("PMIXPP_EXAMPLES_DIR");
    DIR *dir = ::opendir(dir_name);
    cr_assert_not_null(dir, "no OpenPMIx examples in '%s' (Debian package libpmix-dev)", dir_name);
    std::set<std::string> covered;
    for (const ExampleCase &example : example_cases()) covered.insert(example.program + ".c");
    for (const SkippedExample &skipped : skipped_examples()) covered.insert(skipped.file);
    while (const dirent *entry = ::readdir(dir)) {
        const std::string file = entry->d_name;
        if (file.size() < 3 || file.compare(file.size() - 2, 2, ".c") != 0) continue;
        cr_expect(covered.count(file) == 1, "%s/%s has no row in example_cases.cc and no reason to skip it", dir_name,
                  file.c_str());
    }
    ::closedir(dir);
}

// Every known failure names a case of the table.
Test(examples_table, known_failures_name_cases)
{
    for (const KnownFailure &known : known_failures()) {
        cr_expect_not_null(find_case(known.name), "known failure for '%s', which is no case", known.name.c_str());
        cr_expect(known.kind != Known::kPending || known.reason.rfind("pending: ", 0) == 0,
                  "a pending case says \"pending: <feature>\": %s", known.reason.c_str());
    }
}

EXAMPLE_CASES(EXAMPLE_TESTS)

// Every row has its three tests above.
Test(examples_table, every_case_has_its_tests)
{
#define EXAMPLE_NAME(name) #name,
    static const std::set<std::string> tested = {EXAMPLE_CASES(EXAMPLE_NAME)};
#undef EXAMPLE_NAME
    for (const ExampleCase &example : example_cases()) {
        cr_expect(tested.count(example.name) == 1, "case %s has no EXAMPLE_TESTS line", example.name.c_str());
    }
}
