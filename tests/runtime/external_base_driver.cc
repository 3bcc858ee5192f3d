// External-base release scenarios as a plain program, for sanitizer builds
// (Criterion does not start under ThreadSanitizer). Exit status 0 when every
// check held; a sanitizer reports races and use-after-free on its own.
//
//   runtime_external_base_driver [rounds]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "common/runtime/latch.h"
#include "common/runtime/progress_engine.h"
#include "runtime/host_loop.h"

namespace rt = pmixpp::runtime;
using namespace std::chrono_literals;

namespace {

int failures = 0;

void check(bool ok, const char *what, int round)
{
    if (!ok) {
        std::fprintf(stderr, "FAILED (round %d): %s\n", round, what);
        ++failures;
    }
}

// Work from the caller, work posted by work, a timer that must not fire;
// then the last release from the caller, another thread, or our own work.
// Returns that timer: a release from our own work finishes only after the
// work returns, so the caller checks it once the next cycle has run there.
rt::Timer one_cycle(rt::ProgressEngine &engine, const HostLoop &host, int round)
{
    check(engine.acquire(host.base()) == PMIX_SUCCESS, "acquire", round);
    std::atomic<int> ran{0};
    std::atomic<int> off_host{0};
    auto count = [&] {
        off_host += std::this_thread::get_id() != host.thread_id() ? 1 : 0;
        ++ran;
    };
    for (int i = 0; i < 20; ++i) {
        (void)engine.post([&] {
            count();
            (void)engine.post(count);
        });
    }
    std::atomic<int> fired{0};
    rt::Timer never = engine.add_timer(1h, [&] { ++fired; });
    rt::Timer soon = engine.add_timer(0ms, [&] { ++fired; });
    (void)soon;
    switch (round % 3) {
    case 0:
        engine.release();
        check(ran.load() == 40, "queued work ran before release returned", round);
        break;
    case 1: {
        std::thread releaser([&] { engine.release(); });
        releaser.join();
        check(ran.load() == 40, "queued work ran before release returned", round);
        break;
    }
    default: {
        // Queued from the loop before the release, so it must still run.
        rt::Latch<> done;
        (void)engine.post([&] {
            (void)engine.post([&] { done.complete(PMIX_SUCCESS); });
            engine.release();
        });
        check(done.wait_for(20s) == PMIX_SUCCESS, "work queued behind a release ran", round);
        break;
    }
    }
    check(off_host.load() == 0, "work ran on the host's thread", round);
    check(!engine.running(), "engine stopped", round);
    return never;
}

}  // namespace

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 60;
    HostLoop host;
    if (!host.valid()) {
        std::fprintf(stderr, "cannot set up the host's event base\n");
        return 2;
    }
    const int host_events = host.added_events();
    host.start();
    rt::ProgressEngine engine;
    rt::Timer previous;
    for (int round = 0; round < rounds; ++round) {
        rt::Timer never = one_cycle(engine, host, round);
        check(!previous.pending(), "pending timer dropped", round - 1);
        previous = never;
    }
    host.stop();
    check(!previous.pending(), "pending timer dropped", rounds - 1);
    check(host.added_events() == host_events, "no engine event left in the host's base", rounds);
    std::printf("%d rounds, %d failures\n", rounds, failures);
    return failures == 0 ? 0 : 1;
}
