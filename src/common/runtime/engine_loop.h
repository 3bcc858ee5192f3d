// Internals of the progress engine: one EngineLoop per acquire..release
// cycle, and the state behind a Timer handle. Not for use outside runtime/.
#ifndef PMIXPP_COMMON_RUNTIME_ENGINE_LOOP_H
#define PMIXPP_COMMON_RUNTIME_ENGINE_LOOP_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <map>
#include <thread>

#include <pmix_common.h>

struct event;
struct event_base;

namespace pmixpp::runtime {

struct EngineLoop;

struct TimerState {
    enum : int { kPending = 0, kFired = 1, kCancelled = 2 };

    std::atomic<int> state{kPending};
    std::function<void()> fn;
    std::chrono::milliseconds delay{0};
    struct event *ev = nullptr;  // progress thread only
    std::weak_ptr<EngineLoop> loop;
};

struct EngineLoop : std::enable_shared_from_this<EngineLoop> {
    // Sets up the wake-up eventfd on base (ours when owns_base). An external
    // loop keeps itself alive until it has shut down on the host's thread.
    static std::shared_ptr<EngineLoop> create(struct event_base *base, bool owns_base);
    ~EngineLoop();

    // Thread-safe. Refused once stopping unless called from the loop itself
    // (work posted while draining still runs).
    pmix_status_t post(std::function<void()> fn);
    bool on_loop_thread() const { return std::this_thread::get_id() == driver.load(); }

    // Starts the own thread (own-base mode).
    pmix_status_t start_thread();
    // Stops accepting work, runs what is queued, drops timers, always on the
    // thread that runs the base. Own-thread mode: the thread leaves its loop;
    // joined unless called from it. External mode: finished inline on the
    // host's loop thread, deferred when called from our own callback, else
    // handed to the host's thread and waited for at most external_wait.
    void stop(std::chrono::milliseconds external_wait);

    void schedule_timer(const std::shared_ptr<TimerState> &timer);  // loop thread
    void drop_timer(const std::shared_ptr<TimerState> &timer);      // loop thread

    struct event_base *base = nullptr;
    bool owns_base = false;
    std::atomic<std::thread::id> driver{};

private:
    static void on_wake(int fd, short what, void *arg);
    static void on_timer(int fd, short what, void *arg);
    bool request_stop();
    void stop_external(std::chrono::milliseconds wait);
    void note_driver();
    void drain();
    void shutdown_on_loop();

    int wake_fd_ = -1;
    struct event *wake_event_ = nullptr;
    std::mutex mutex_;
    std::deque<std::function<void()>> queue_;
    bool wake_pending_ = false;
    bool accepting_ = true;
    bool stop_requested_ = false;
    bool shut_down_ = false;  // written under mutex_, on the loop thread
    bool finished_ = false;   // shut_down_ and every event freed; under mutex_
    std::condition_variable finished_cv_;
    // External mode: set once one of our callbacks ran on the host's thread,
    // so driver is known rather than guessed.
    std::atomic<bool> driver_seen_{false};
    // External mode: the host's base calls us through a raw pointer until
    // shutdown_on_loop() unregisters us, so we own ourselves until then.
    std::shared_ptr<EngineLoop> keep_alive_;
    std::thread thread_;
    std::map<TimerState *, std::shared_ptr<TimerState>> timers_;  // loop thread only
};

// Runs fn, turning an escaping exception into a log line: nothing may unwind
// through libevent's C frames.
void run_guarded(const std::function<void()> &fn, const char *what);

}  // namespace pmixpp::runtime

#endif
