// Connection churn: 10,000 clients connect, finish the handshake
// and hang up, one after another. The server's file descriptors are the same
// afterwards and its memory does not grow with the count: nothing per
// connection is kept once the connection is gone.
#include "server/server_fixture.h"
#include "support/process_usage.h"

#include <criterion/criterion.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace server_test;

namespace {

constexpr int kRanks = 64;
constexpr int kWarmUp = 1000;
constexpr int kCycles = 10000;
// Allowed growth over 10,000 cycles: far below one page per connection.
// TSan's allocator keeps freed blocks (and their shadow) for its race
// history, so its resident memory moves by a few MiB with no leak: 2.1
// MiB was seen on a run whose plain build stayed flat.
#if defined(PMIXPP_UNDER_TSAN)
[[maybe_unused]] constexpr long kMaxGrowthKb = 4096;
#else
[[maybe_unused]] constexpr long kMaxGrowthKb = 2048;
#endif

// One client's whole life: connect, handshake, hang up. A rank whose
// previous connection the server has not seen end yet is refused as
// "already connected"; it tries again (bounded).
void connect_and_hang_up(int cycle)
{
    const pmix_rank_t rank = static_cast<pmix_rank_t>(cycle % kRanks);
    for (int attempt = 0; attempt < 2000; ++attempt) {
        RawClient client;
        if (client.hello(kJob, rank, nullptr) == PMIX_SUCCESS) return;
        ::usleep(1000);
    }
    cr_assert_fail("cycle %d: rank %u was never accepted again", cycle, rank);
}

void setup()
{
    start_server(make_tmpdir(), nullptr);
    register_job(kJob, kRanks);
}

void teardown()
{
    PMIx_server_finalize();
}

}  // namespace

TestSuite(server_churn, .init = setup, .fini = teardown, .timeout = 300);

Test(server_churn, ten_thousand_connections_leave_descriptors_and_memory_flat)
{
    for (int cycle = 0; cycle < kWarmUp; ++cycle) connect_and_hang_up(cycle);
    ::usleep(200000);  // the server has seen the last hang-up
    const long fds_before = pmixpp_test::open_fd_count();
    const long rss_before = pmixpp_test::resident_kb();
    for (int cycle = 0; cycle < kCycles; ++cycle) connect_and_hang_up(kWarmUp + cycle);
    ::usleep(200000);
    const long fds_after = pmixpp_test::open_fd_count();
    const long rss_after = pmixpp_test::resident_kb();
    cr_log_info("descriptors %ld -> %ld, resident %ld -> %ld kB over %d connections", fds_before, fds_after, rss_before,
                rss_after, kCycles);
    cr_expect_eq(fds_after, fds_before, "descriptors left behind by %d connections", kCycles);
#if defined(PMIXPP_UNDER_ASAN)
    // ASan keeps freed memory in quarantine, so resident memory says nothing
    // here; LeakSanitizer checks what was not freed instead.
#else
    cr_expect_leq(rss_after - rss_before, kMaxGrowthKb, "resident memory grew by %ld kB over %d connections",
                  rss_after - rss_before, kCycles);
#endif
}
