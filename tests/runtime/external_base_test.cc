// External-base mode with the host's loop on a thread of its own: release
// from other threads, from our own work, and after the host stopped its loop.
// Whatever thread releases, the engine's events must leave the host's base
// and queued work must run on the host's thread.
#include <atomic>
#include <string>
#include <thread>

#include "framework/stderr_capture.h"
#include "runtime/host_loop.h"
#include "runtime/runtime_support.h"

namespace {

constexpr int kRounds = 25;
constexpr int kPosts = 40;

// Posts kPosts pieces of work (each posting one more from the loop) plus a
// timer that must never fire; counts what ran and what ran off the host.
struct Workload {
    std::atomic<int> ran{0};
    std::atomic<int> off_host_thread{0};
    std::atomic<int> timer_fired{0};

    void post_all(rt::ProgressEngine &engine, const HostLoop &host)
    {
        for (int i = 0; i < kPosts; ++i) {
            cr_assert_eq(engine.post([this, &engine, &host] {
                count(host);
                // Work posted by work still runs while the engine drains.
                cr_expect_eq(engine.post([this, &host] { count(host); }), PMIX_SUCCESS);
            }),
                         PMIX_SUCCESS);
        }
        rt::Timer never = engine.add_timer(1h, [this] { ++timer_fired; });
        cr_assert(never.pending());
    }

    void count(const HostLoop &host)
    {
        if (std::this_thread::get_id() != host.thread_id()) {
            ++off_host_thread;
        }
        ++ran;
    }
};

}  // namespace

Test(external_base, release_from_other_threads_waits_for_the_hosts_loop)
{
    HostLoop host;
    cr_assert(host.valid());
    const int host_events = host.added_events();
    host.start();
    rt::ProgressEngine engine;
    for (int round = 0; round < kRounds; ++round) {
        cr_assert_eq(engine.acquire(host.base()), PMIX_SUCCESS, "round %d", round);
        cr_assert(engine.external());
        Workload work;
        work.post_all(engine, host);
        if (round % 2 == 0) {
            engine.release();
        } else {
            std::thread releaser([&engine] { engine.release(); });
            releaser.join();
        }
        cr_assert_not(engine.running());
        cr_assert_eq(work.ran.load(), 2 * kPosts, "round %d: queued work runs before release returns", round);
        cr_assert_eq(work.off_host_thread.load(), 0, "round %d: work ran off the host's thread", round);
        cr_assert_eq(work.timer_fired.load(), 0);
    }
    host.stop();
    cr_assert_eq(host.added_events(), host_events, "an engine's events stayed in the host's base");
}

Test(external_base, release_from_work_on_the_hosts_thread_finishes_after_it)
{
    HostLoop host;
    cr_assert(host.valid());
    const int host_events = host.added_events();
    host.start();
    rt::ProgressEngine engine;
    for (int round = 0; round < kRounds; ++round) {
        cr_assert_eq(engine.acquire(host.base()), PMIX_SUCCESS, "round %d", round);
        rt::Latch<> released;
        rt::Latch<bool> queued_behind;
        pmix_status_t queued = PMIX_ERR_INIT;
        cr_assert_eq(engine.post([&] {
            queued = engine.post(
                [&] { queued_behind.complete(PMIX_SUCCESS, std::this_thread::get_id() == host.thread_id()); });
            engine.release();
            released.complete(PMIX_SUCCESS);
        }),
                     PMIX_SUCCESS);
        cr_assert_eq(released.wait_for(kGenerous), PMIX_SUCCESS, "round %d: release deadlocked", round);
        cr_assert_eq(queued, PMIX_SUCCESS);
        cr_assert_eq(queued_behind.wait_for(kGenerous), PMIX_SUCCESS, "round %d: queued work lost", round);
        cr_assert(queued_behind.payload(), "round %d: queued work ran off the host's thread", round);
        cr_assert_not(engine.running());
    }
    host.stop();
    cr_assert_eq(host.added_events(), host_events, "an engine's events stayed in the host's base");
}

Test(external_base, release_after_the_host_stopped_its_loop_logs_and_finishes_later)
{
    HostLoop host;
    cr_assert(host.valid());
    const int host_events = host.added_events();
    host.start();
    rt::ProgressEngine engine;
    engine.set_external_stop_wait(20ms);
    cr_assert_eq(engine.acquire(host.base()), PMIX_SUCCESS);
    // Posted work (unlike run_and_wait, which may run inline on the acquiring
    // thread) shows the engine which thread drives the base.
    rt::Latch<> seen;
    cr_assert_eq(engine.post([&] { seen.complete(PMIX_SUCCESS); }), PMIX_SUCCESS);
    cr_assert_eq(seen.wait_for(kGenerous), PMIX_SUCCESS);
    host.stop();

    rt::Latch<bool> late_work;
    cr_assert_eq(engine.post([&] { late_work.complete(PMIX_SUCCESS, std::this_thread::get_id() == host.thread_id()); }),
                 PMIX_SUCCESS);
    pmixpp::tests::StderrCapture capture;
    engine.release();
    const std::string output = capture.stop();
    cr_assert_not(engine.running());
    cr_assert(output.find("pmixpp: runtime: the host's event base (PMIX_EVENT_BASE) did not run") != std::string::npos,
              "got: %s", output.c_str());
    cr_assert_not(late_work.is_complete(), "nothing may run the host's base behind its back");

    // The host resumes: the engine finishes its shutdown there.
    host.start();
    cr_assert_eq(late_work.wait_for(kGenerous), PMIX_SUCCESS, "queued work never ran");
    cr_assert(late_work.payload(), "queued work ran off the host's thread");
    // A new cycle works while the old one is gone or going.
    cr_assert_eq(engine.acquire(host.base()), PMIX_SUCCESS);
    cr_assert_eq(engine.run_and_wait([] {}), PMIX_SUCCESS);
    engine.release();
    host.stop();
    cr_assert_eq(host.added_events(), host_events, "an engine's events stayed in the host's base");
}
