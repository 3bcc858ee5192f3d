// Internals of the progress engine: one EngineLoop per acquire..release
// cycle, and the state behind a Timer handle. Not for use outside runtime/.
#ifndef PMIXPP_COMMON_RUNTIME_ENGINE_LOOP_H
#define PMIXPP_COMMON_RUNTIME_ENGINE_LOOP_H

#include <atomic>
#include <chrono>
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
    // Sets up the wake-up eventfd on base (ours when owns_base).
    static std::shared_ptr<EngineLoop> create(struct event_base *base, bool owns_base);
    ~EngineLoop();

    // Thread-safe. Refused once stopping unless called from the loop itself
    // (work posted while draining still runs).
    pmix_status_t post(std::function<void()> fn);
    bool on_loop_thread() const { return std::this_thread::get_id() == driver.load(); }

    // Starts the own thread (own-base mode).
    pmix_status_t start_thread();
    // Stops accepting work, runs what is queued, drops timers. Own-thread
    // mode: the thread leaves its loop; joined unless called from it.
    void stop();

    void schedule_timer(const std::shared_ptr<TimerState> &timer);  // loop thread
    void drop_timer(const std::shared_ptr<TimerState> &timer);      // loop thread

    struct event_base *base = nullptr;
    bool owns_base = false;
    std::atomic<std::thread::id> driver{};

private:
    static void on_wake(int fd, short what, void *arg);
    static void on_timer(int fd, short what, void *arg);
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
    std::thread thread_;
    std::map<TimerState *, std::shared_ptr<TimerState>> timers_;  // loop thread only
};

// Runs fn, turning an escaping exception into a log line: nothing may unwind
// through libevent's C frames.
void run_guarded(const std::function<void()> &fn, const char *what);

}  // namespace pmixpp::runtime

#endif
