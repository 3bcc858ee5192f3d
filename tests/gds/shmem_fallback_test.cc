// gds/shmem's fallback, end to end: a real server on gds/shmem and real
// forked clients (the integration suite's exchange client, which checks the
// job data it reads). A client started in its own mount namespace, with a
// fresh tmpfs over the server's tmpdir, cannot see the segment: it must say
// so once, keep a private copy fetched from the server, and read the same
// data as everybody else. tcp is the transport (the usock socket lives in the
// hidden tmpdir too).
#include "integration/cases/itest_support.h"

#include <criterion/criterion.h>

#include <unistd.h>

#include <string>
#include <vector>

using namespace pmixpp::itest;

TestSuite(gds_shmem_fallback, .fini = stop_host, .timeout = 240);

namespace {

constexpr const char *kFallbackLine = "keeps a private copy";
constexpr const char *kUnshare = "/usr/bin/unshare";

std::vector<ProcResult> run_exchange(const char *nspace, bool hide_tmpdir)
{
    start_host();
    JobSpec spec;
    spec.nspace = nspace;
    spec.local_procs = 3;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(spec, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    Launch launch = exchange_launch(layout, 2 * layout.job_size);
    if (hide_tmpdir) {
        std::vector<std::string> args = {
            "--mount",       "--propagation", "private", "/bin/sh", "-c", "mount -t tmpfs tmpfs \"$0\" && exec \"$@\"",
            host().tmpdir(), launch.program};
        args.insert(args.end(), launch.args.begin(), launch.args.end());
        launch.program = kUnshare;
        launch.args = args;
    }
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(nspace, layout, launch, &pids), PMIX_SUCCESS);
    std::vector<ProcResult> results = host().wait(pids, kJobTimeoutMs);
    expect_all_ok(results, layout.local_ranks().size());
    return results;
}

}  // namespace

Test(gds_shmem_fallback, shared_segment_used_when_visible)
{
    for (const ProcResult &result : run_exchange("visible", false)) {
        cr_expect(result.output.find(kFallbackLine) == std::string::npos, "no fallback expected:\n%s",
                  result.describe().c_str());
    }
}

Test(gds_shmem_fallback, private_copy_when_the_segment_is_out_of_view)
{
    if (geteuid() != 0 || access(kUnshare, X_OK) != 0) {
        cr_skip_test("needs root and %s to give a client its own mount namespace", kUnshare);
    }
    for (const ProcResult &result : run_exchange("hidden", true)) {
        const std::string &out = result.output;
        const auto first = out.find(kFallbackLine);
        cr_expect(first != std::string::npos, "the fallback was not announced:\n%s", result.describe().c_str());
        cr_expect(first == std::string::npos || out.find(kFallbackLine, first + 1) == std::string::npos,
                  "the fallback was announced more than once:\n%s", result.describe().c_str());
    }
}
