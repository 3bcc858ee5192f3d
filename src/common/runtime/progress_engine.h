// The progress engine: the one libevent loop that owns every connection,
// timer and piece of server/client state in a process.
//
// Threading rules
// - post(), run_and_wait(), add_timer(), Timer::cancel(), acquire() and
//   release() may be called from any thread.
// - Everything posted, every timer callback and every Connection handler runs
//   on the progress thread, one at a time, so that state touched only there
//   needs no locks.
// - Work posted by one thread runs in the order that thread posted it.
// - Own-thread mode (acquire(nullptr)): the engine starts one thread running
//   its own event_base.
// - External mode (acquire(host_base), the host's PMIX_EVENT_BASE): no thread
//   is started; the host drives its base and "the progress thread" is whichever
//   thread runs it (the engine remembers the last one that ran its work, and
//   starts with the thread that called acquire; acquire pokes the base so
//   the host's first loop iteration corrects that guess). Posting wakes the
//   base through an eventfd, so it works even if the host's base has no
//   locking. Blocking on a Latch from the thread that drives the base would
//   deadlock: callers in external mode that run on that thread must not wait
//   for posted work. The host drives its base from one thread at a time.
// - Release in external mode: the last release() may come from any thread,
//   but the shutdown (running queued work, dropping timers, unregistering our
//   events from the host's base) always happens on the thread driving the
//   base, never concurrently with it:
//     * from work or a timer we are running: deferred until it returns;
//     * from the host's loop thread outside our callbacks (or after its loop
//       returned on that thread): done inline;
//     * from any other thread: handed to the host's loop, and release() waits
//       for it at most external_stop_wait (set_external_stop_wait, default
//       kDefaultExternalStopWait). If the host's loop is not running, release
//       logs one line after that wait and returns; the engine's state stays
//       alive and registered with the base, and finishes shutting down the
//       next time the host runs it. Nothing is freed under the host's feet,
//       but work posted before release has then not run yet: hosts should
//       keep driving the base until finalize returns.
// - Close every Connection and drop every Timer before the last release():
//   the base they are registered with goes away then.
// - fork(): a child does not inherit a running engine. running() is false in
//   it and its first acquire() starts a fresh loop; the parent's loop is left
//   alone (never freed in the child: its epoll instance is the parent's).
#ifndef PMIXPP_COMMON_RUNTIME_PROGRESS_ENGINE_H
#define PMIXPP_COMMON_RUNTIME_PROGRESS_ENGINE_H

#include <chrono>
#include <functional>
#include <memory>

#include <pmix_common.h>

struct event_base;

namespace pmixpp::runtime {

struct TimerState;
struct EngineLoop;

// Handle of one scheduled callback. Copies share the same timer. Dropping the
// handle does NOT cancel the timer.
class Timer {
public:
    Timer() = default;
    explicit Timer(std::shared_ptr<TimerState> state) : state_(std::move(state)) {}

    // Returns true when this call prevented the callback from running; false
    // when it already ran, is running, or was cancelled before. Called on the
    // progress thread, the callback is guaranteed not to run afterwards.
    bool cancel();
    // True until the callback has started or the timer was cancelled.
    bool pending() const;

private:
    std::shared_ptr<TimerState> state_;
};

// How long an external-mode release waits for the host's loop (see above).
inline constexpr std::chrono::milliseconds kDefaultExternalStopWait{5000};

class ProgressEngine {
public:
    ProgressEngine();
    ~ProgressEngine();  // releases everything still acquired
    ProgressEngine(const ProgressEngine &) = delete;
    ProgressEngine &operator=(const ProgressEngine &) = delete;

    // The engine shared by PMIx_Init, PMIx_server_init and PMIx_tool_init of
    // one process. Created on first use and never destroyed (its thread must
    // not be joined from a static destructor).
    static ProgressEngine &process();

    // Reference-counted start. The first acquire decides the mode: nullptr
    // starts our own thread, a base switches to external mode. A later acquire
    // with a different base keeps the running mode (logged at verbose level).
    // PMIX_ERR_OUT_OF_RESOURCE if libevent or the thread cannot be set up.
    pmix_status_t acquire(struct event_base *external_or_null);
    // Drops one reference; the last one stops the loop after running the work
    // already posted, joins the thread (unless called from it) and frees the
    // engine's own base. Pending timers are dropped without running. In
    // external mode see "Release in external mode" above.
    void release();
    // Bound on an external-mode release's wait for the host's loop.
    void set_external_stop_wait(std::chrono::milliseconds wait);
    bool running() const;

    // Queues fn to run on the progress thread. PMIX_ERR_INIT (fn dropped)
    // when the engine is not running.
    pmix_status_t post(std::function<void()> fn);
    // Runs fn on the progress thread and returns once it has run: inline when
    // already on it, else posts and blocks. PMIX_ERR_INIT when not running.
    pmix_status_t run_and_wait(std::function<void()> fn);
    bool on_progress_thread() const;

    // Runs fn once on the progress thread after delay. An empty Timer when
    // the engine is not running.
    Timer add_timer(std::chrono::milliseconds delay, std::function<void()> fn);

    // The base everything is registered with (ours or the host's); nullptr
    // when not running. Touch it only on the progress thread.
    struct event_base *base() const;
    bool external() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace pmixpp::runtime

#endif
