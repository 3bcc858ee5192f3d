// libpmix.so.2 reached by a path that says nothing about where its
// components are (Slurm dlopens OpenPMIx's file, over which a site
// bind-mounts ours; a copy behaves the same): the library still finds them,
// through the directories fixed when it was built, and when it cannot, it
// says in one line where it looked and what to do.
#include "support/child_process.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

std::string g_scratch;

void make_scratch()
{
    g_scratch = test_support::scratch_dir("pmixpp-relocated");
}
void drop_scratch()
{
    if (!g_scratch.empty()) test_support::remove_tree(g_scratch);
}

// A copy of this build's library in a directory with no pmixpp/ beside it.
std::string copied_library()
{
    const char *build = std::getenv("PMIXPP_BUILD_DIR");
    cr_assert(build != nullptr, "PMIXPP_BUILD_DIR is not set: run this test through ctest");
    const std::filesystem::path lib = g_scratch + "/elsewhere/lib";
    std::filesystem::create_directories(lib);
    std::filesystem::create_directories(g_scratch + "/tmp");
    std::filesystem::copy_file(std::filesystem::canonical(std::string(build) + "/lib/libpmix.so.2"),
                               lib / "libpmix.so.2");
    cr_assert_not(std::filesystem::exists(lib / "pmixpp"));
    // The server's files go to a directory of this test's own.
    setenv("TMPDIR", (g_scratch + "/tmp").c_str(), 1);
    setenv("HOME", g_scratch.c_str(), 1);
    unsetenv("PMIX_MCA_mca_base_component_path");
    return (lib / "libpmix.so.2").string();
}

test_support::Result probe(const std::string &library)
{
    return test_support::run(RELOCATED_PROBE, {library}, "", 60);
}

}  // namespace

TestSuite(relocated_library, .init = make_scratch, .fini = drop_scratch);

Test(relocated_library, a_copy_finds_the_components_of_its_build)
{
    const std::string library = copied_library();
    const test_support::Result result = probe(library);
    cr_expect_eq(result.code, 0, "PMIx_server_init through %s failed:\n%s%s", library.c_str(), result.out.c_str(),
                 result.err.c_str());
    cr_expect_eq(test_support::count_lines_with(result.err, "no components found"), 0, "%s", result.err.c_str());
}

Test(relocated_library, without_the_fallback_it_says_where_it_looked)
{
    const std::string library = copied_library();
    setenv("PMIX_MCA_mca_base_component_fallback", "0", 1);
    const test_support::Result result = probe(library);
    cr_expect_eq(result.code, 1, "exit %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    const auto lines = test_support::lines_with(result.err, "no components found");
    cr_assert_eq(lines.size(), 1u, "one line, not one per framework:\n%s", result.err.c_str());
    const std::string searched = std::filesystem::canonical(g_scratch).string() + "/elsewhere/lib/pmixpp";
    cr_expect(lines[0].find("searched " + searched) != std::string::npos, "names the directory searched: %s",
              lines[0].c_str());
    cr_expect(lines[0].find("PMIX_MCA_mca_base_component_path") != std::string::npos, "names the fix: %s",
              lines[0].c_str());
}
