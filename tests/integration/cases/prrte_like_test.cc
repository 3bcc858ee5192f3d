// A host that is a client of itself (host/prrte_like_host.c), doing what
// PRRTE's prterun does on our library: its own id, its own PMIX_PARENT_ID
// NOT_FOUND at once, the user's job spawned through its own spawn upcall,
// a topology freed right after init, the children's output printed by the
// library (tagged, as the job asked) and pulled by the host, stdin closed.
// PRRTE v2.0.2 itself is built outside the repository (docs/compat.md).
#include <criterion/criterion.h>

#include <string>

#include "../../support/child_process.h"

namespace {

std::string program(const char *name)
{
    return std::string(ITEST_CLIENT_DIR) + "/" + name;
}

}  // namespace

Test(prrte_like_host, runs_its_job_through_itself, .timeout = 120)
{
    const std::string tmpdir = test_support::scratch_dir("pmixpp-prrte-like");
    const test_support::Result result =
        test_support::run(program("itest_prrte_like_host").c_str(), {tmpdir, program("itest_hello"), "3"}, "", 90);
    test_support::remove_tree(tmpdir);
    const std::string all = result.out + result.err;
    cr_assert_eq(result.code, 0, "the host exited %d:\n%s", result.code, all.c_str());
    cr_expect(test_support::has_line(result.out, "host: my id prrtelike.0"), "%s", all.c_str());
    cr_expect(test_support::has_line(result.out, "host: my parent: NOT-FOUND"), "%s", all.c_str());
    cr_expect(test_support::has_line(result.out, "host: spawn upcall from prrtelike.0, 1 app(s), cwd given"), "%s",
              all.c_str());
    cr_expect(test_support::has_line(result.out, "host: spawned prrtelike.1"), "%s", all.c_str());
    for (int rank = 0; rank < 3; ++rank) {
        const std::string line = "[prrtelike.1," + std::to_string(rank) + "]<stdout>: hello from rank " +
                                 std::to_string(rank) + " of 3; rank " + std::to_string((rank + 1) % 3) + " put " +
                                 std::to_string(100 + (rank + 1) % 3);
        cr_expect(test_support::has_line(result.out, line), "missing \"%s\" in:\n%s", line.c_str(), all.c_str());
    }
    cr_expect(test_support::has_line(result.out, "host: stdin closed: OPERATION-SUCCEEDED"), "%s", all.c_str());
    cr_expect(test_support::count_lines_with(result.out, "host: pulled 0 bytes") == 0,
              "the host's own pull got nothing:\n%s", all.c_str());
}
