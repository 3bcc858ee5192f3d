// What every integration test shares: the one Host of the test process,
// started and stopped around each test, the client programs, the munge
// precondition of the munge variants, and assertions on job results.
#ifndef PMIXPP_TESTS_INTEGRATION_SUPPORT_H
#define PMIXPP_TESTS_INTEGRATION_SUPPORT_H

#include "integration/host/itest_host.h"

#include <criterion/criterion.h>

#include <string>
#include <vector>

namespace pmixpp::itest {

inline constexpr int kJobTimeoutMs = 90000;

// The Host of this test process; start_host() must have succeeded.
Host &host();
// The munge variants need munged: without it they skip, unless the run
// demands munge (PMIXPP_REQUIRE_MUNGE=1), then they fail.
void require_munged();
// Skips or fails for missing munged (munge variants), then starts the host.
void start_host(const HostOptions &options = {});
// Criterion .fini of every test: kills children, finalizes, removes the temp dir.
void stop_host();

std::string client_path(const char *name);

// register_job of a job whose `nprocs` processes all run on this node; fails the test on error.
JobLayout register_local_job(const char *nspace, int nprocs);

// Launch of the exchange client with the expectations of `layout`.
Launch exchange_launch(const JobLayout &layout, uint32_t univ_size);

// Every result succeeded and printed "rank R ok" for its rank.
void expect_all_ok(const std::vector<ProcResult> &results, std::size_t expected_count);

// Waits (bounded) until every local rank of the layout created <dir>/ready.<rank>.
bool wait_until_ready(const std::string &dir, const JobLayout &layout, int timeout_ms);
// Lets the held processes finish.
void release(const std::string &dir);

}  // namespace pmixpp::itest

#endif
