// A stand-in for a host that passes PMIX_EVENT_BASE: it owns a libevent base
// and drives it from a thread of its own, the way an RM daemon would.
#ifndef PMIXPP_TESTS_RUNTIME_HOST_LOOP_H
#define PMIXPP_TESTS_RUNTIME_HOST_LOOP_H

#include <event2/event.h>
#include <event2/thread.h>

#include <atomic>
#include <thread>

class HostLoop {
public:
    HostLoop()
    {
        // Like any threaded host: locking on before the base exists.
        (void)evthread_use_pthreads();
        base_ = event_base_new();
        // Keeps EVLOOP_ONCE waiting for work instead of returning at once.
        idle_ = event_new(
            base_, -1, EV_PERSIST, [](evutil_socket_t, short, void *) {}, nullptr);
        struct timeval hour = {3600, 0};
        (void)event_add(idle_, &hour);
        // Activated to make the loop thread look at running_ again; unlike
        // event_base_loopbreak it is not lost when the thread is between
        // two loop calls.
        stop_ = event_new(
            base_, -1, 0, [](evutil_socket_t, short, void *) {}, nullptr);
    }
    ~HostLoop()
    {
        stop();
        event_free(stop_);
        event_free(idle_);
        event_base_free(base_);
    }
    HostLoop(const HostLoop &) = delete;
    HostLoop &operator=(const HostLoop &) = delete;

    bool valid() const { return base_ != nullptr && idle_ != nullptr && stop_ != nullptr; }
    struct event_base *base() const { return base_; }
    std::thread::id thread_id() const { return thread_id_.load(); }

    void start()
    {
        running_ = true;
        thread_ = std::thread([this] {
            thread_id_ = std::this_thread::get_id();
            while (running_.load()) {
                (void)event_base_loop(base_, EVLOOP_ONCE);
            }
        });
    }

    // Returns once the host's thread has left its loop for good.
    void stop()
    {
        if (!thread_.joinable()) {
            return;
        }
        running_ = false;
        event_active(stop_, EV_READ, 0);
        thread_.join();
        // The thread may have left its loop before it saw that activation; an
        // active event counts as added, so take it back for added_events().
        (void)event_del(stop_);
    }

    // Events registered with the base right now (the host's own included).
    int added_events() const { return event_base_get_num_events(base_, EVENT_BASE_COUNT_ADDED); }

private:
    struct event_base *base_ = nullptr;
    struct event *idle_ = nullptr;
    struct event *stop_ = nullptr;
    std::atomic<bool> running_{false};
    std::atomic<std::thread::id> thread_id_{};
    std::thread thread_;
};

#endif
