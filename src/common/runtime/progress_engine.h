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
//   starts with the thread that called acquire). Posting wakes the base through
//   an eventfd, so it works even if the host's base has no locking. Blocking
//   on a Latch from the thread that drives the base would deadlock: callers in
//   external mode that run on that thread must not wait for posted work.
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
    // engine's own base. Pending timers are dropped without running.
    void release();
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
