// Timers: fire once on the progress thread, cancel, and vanish at release.
#include <atomic>

#include "runtime/runtime_support.h"

Test(timer, fires_once_on_the_progress_thread)
{
    RunningEngine running;
    rt::Latch<bool> fired;
    rt::Timer timer =
        running.engine.add_timer(1ms, [&] { fired.complete(PMIX_SUCCESS, running.engine.on_progress_thread()); });
    cr_assert_eq(fired.wait_for(kGenerous), PMIX_SUCCESS);
    cr_expect(fired.payload(), "timer callback ran off the progress thread");
    // Ran already: nothing left to cancel.
    cr_assert_eq(running.engine.run_and_wait([] {}), PMIX_SUCCESS);
    cr_expect_not(timer.pending());
    cr_expect_not(timer.cancel());
}

Test(timer, cancelled_timer_never_runs)
{
    RunningEngine running;
    std::atomic<int> ran{0};
    rt::Timer far = running.engine.add_timer(1h, [&] { ++ran; });
    cr_assert(far.pending());
    cr_assert(far.cancel());
    cr_assert_not(far.cancel(), "second cancel reports nothing to do");
    cr_assert_not(far.pending());

    // Cancelled on the progress thread before its expiry is ever seen.
    cr_assert_eq(running.engine.run_and_wait([&] {
        rt::Timer soon = running.engine.add_timer(0ms, [&] { ++ran; });
        cr_expect(soon.cancel());
    }),
                 PMIX_SUCCESS);

    // A later timer runs; by then the cancelled 0 ms one would have too.
    rt::Latch<> later;
    running.engine.add_timer(5ms, [&] { later.complete(PMIX_SUCCESS); });
    cr_assert_eq(later.wait_for(kGenerous), PMIX_SUCCESS);
    cr_assert_eq(ran.load(), 0);
}

Test(timer, release_drops_pending_timers)
{
    rt::ProgressEngine engine;
    cr_assert_eq(engine.acquire(nullptr), PMIX_SUCCESS);
    std::atomic<int> ran{0};
    rt::Timer timer = engine.add_timer(1h, [&] { ++ran; });
    engine.release();
    cr_expect_eq(ran.load(), 0);
    cr_expect_not(timer.pending());
    cr_expect_not(timer.cancel());
}

Test(timer, stopped_engine_gives_an_empty_timer)
{
    rt::ProgressEngine engine;
    rt::Timer timer = engine.add_timer(1ms, [] {});
    cr_expect_not(timer.pending());
    cr_expect_not(timer.cancel());
}
