#include "integration/cases/itest_support.h"

#ifdef ITEST_HAVE_MUNGE
#include <munge.h>
#endif

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace pmixpp::itest {
namespace {

Host *g_host = nullptr;

bool env_is(const char *name, const char *value)
{
    const char *actual = std::getenv(name);
    return actual != nullptr && std::strcmp(actual, value) == 0;
}

}  // namespace

// The munge variants need munged: without it they skip, unless the run
// demands munge (scripts/test.sh sets PMIXPP_REQUIRE_MUNGE=1).
void require_munged()
{
    if (!env_is("PMIX_MCA_psec", "munge")) return;
    const char *reason = "libmunge was not found at configure time";
#ifdef ITEST_HAVE_MUNGE
    char *credential = nullptr;
    const munge_err_t rc = munge_encode(&credential, nullptr, nullptr, 0);
    std::free(credential);
    if (rc == EMUNGE_SUCCESS) return;
    reason = munge_strerror(rc);
#endif
    if (env_is("PMIXPP_REQUIRE_MUNGE", "1")) {
        cr_assert_fail("munged is unreachable (%s) but PMIXPP_REQUIRE_MUNGE=1: start it with scripts/lib/munge.sh",
                       reason);
    }
    cr_skip_test("munged is unreachable (%s); start it with scripts/lib/munge.sh", reason);
}

Host &host()
{
    return *g_host;
}

void start_host(const HostOptions &options)
{
    require_munged();
    if (g_host == nullptr) g_host = new Host;
    std::string error;
    const pmix_status_t rc = g_host->start(options, &error);
    cr_assert_eq(rc, PMIX_SUCCESS, "test host did not start: %s", error.c_str());
}

void stop_host()
{
    if (g_host == nullptr) return;
    const pmix_status_t rc = g_host->stop();
    delete g_host;
    g_host = nullptr;
    cr_expect_eq(rc, PMIX_SUCCESS, "stopping the test host: %s", status_name(rc).c_str());
}

std::string client_path(const char *name)
{
    return std::string(ITEST_CLIENT_DIR) + "/" + name;
}

Launch exchange_launch(const JobLayout &layout, uint32_t univ_size)
{
    const std::vector<pmix_rank_t> local = layout.local_ranks();
    Launch launch;
    launch.program = client_path("itest_exchange");
    launch.args = {"--job-size",    std::to_string(layout.job_size),
                   "--local-size",  std::to_string(local.size()),
                   "--first-local", std::to_string(local.empty() ? 0 : local.front()),
                   "--hostname",    layout.nodes[layout.local_node],
                   "--nodeid",      std::to_string(layout.local_node),
                   "--num-nodes",   std::to_string(layout.nodes.size())};
    if (univ_size != 0) {
        launch.args.push_back("--univ-size");
        launch.args.push_back(std::to_string(univ_size));
    }
    return launch;
}

JobLayout register_local_job(const char *nspace, int nprocs)
{
    JobSpec spec;
    spec.nspace = nspace;
    spec.local_procs = nprocs;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(spec, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    return layout;
}

void expect_all_ok(const std::vector<ProcResult> &results, std::size_t expected_count)
{
    cr_assert_eq(results.size(), expected_count, "%zu processes ran, expected %zu", results.size(), expected_count);
    for (const ProcResult &result : results) {
        const std::string ok_line = "rank " + std::to_string(result.rank) + " ok\n";
        cr_expect(result.succeeded() && result.output.find(ok_line) != std::string::npos, "%s",
                  result.describe().c_str());
    }
}

bool wait_until_ready(const std::string &dir, const JobLayout &layout, int timeout_ms)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (pmix_rank_t rank : layout.local_ranks()) {
        const std::string path = dir + "/ready." + std::to_string(rank);
        while (access(path.c_str(), F_OK) != 0) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    return true;
}

void release(const std::string &dir)
{
    const std::string path = dir + "/release";
    if (FILE *file = std::fopen(path.c_str(), "w")) std::fclose(file);
}

}  // namespace pmixpp::itest
