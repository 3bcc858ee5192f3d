#include "common/runtime/engine_loop.h"

#include <event2/event.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <utility>

#include "common/runtime/log.h"

namespace pmixpp::runtime {

namespace {

// The progress thread takes no asynchronous signal: the application's
// handlers (SIGINT, SIGTERM, SIGCHLD, ...) run on its own threads, and a
// write of ours to a closed pipe (a warning on stderr after the launcher
// died) fails with EPIPE instead of killing the process with SIGPIPE before
// it hears PMIX_ERR_LOST_CONNECTION. Faults (SIGSEGV, ...) stay deliverable.
class AsyncSignalsBlocked {
public:
    AsyncSignalsBlocked()
    {
        sigset_t blocked;
        sigfillset(&blocked);
        for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT}) sigdelset(&blocked, fault);
        pthread_sigmask(SIG_BLOCK, &blocked, &saved_);
    }
    ~AsyncSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }
    AsyncSignalsBlocked(const AsyncSignalsBlocked &) = delete;
    AsyncSignalsBlocked &operator=(const AsyncSignalsBlocked &) = delete;

private:
    sigset_t saved_{};
};

// The loop whose libevent callback this thread is running, if any: release()
// from inside our own callback must not wait for that very callback.
thread_local const EngineLoop *running_callback_of = nullptr;

class CallbackScope {
public:
    explicit CallbackScope(const EngineLoop *loop) : previous_(running_callback_of) { running_callback_of = loop; }
    ~CallbackScope() { running_callback_of = previous_; }
    CallbackScope(const CallbackScope &) = delete;
    CallbackScope &operator=(const CallbackScope &) = delete;

private:
    const EngineLoop *previous_;
};

void wake(int fd)
{
    uint64_t one = 1;
    ssize_t ignored = ::write(fd, &one, sizeof one);  // cannot fail short of overflow
    (void)ignored;
}

}  // namespace

void run_guarded(const std::function<void()> &fn, const char *what)
{
    try {
        fn();
    } catch (const std::exception &e) {
        log_warning("runtime",
                    std::string(what) + " threw: " + e.what() + " (this is a bug in pmixpp; the work was abandoned)");
    } catch (...) {
        log_warning("runtime", std::string(what) + " threw an unknown exception (this is a bug in pmixpp)");
    }
}

std::shared_ptr<EngineLoop> EngineLoop::create(struct event_base *base, bool owns_base)
{
    auto loop = std::make_shared<EngineLoop>();
    loop->base = base;
    loop->owns_base = owns_base;
    loop->driver = std::this_thread::get_id();
    // An eventfd rather than event_active(): writing it is safe from any
    // thread even when a host's base was created without libevent locking.
    loop->wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (loop->wake_fd_ < 0) {
        log_warning("runtime", std::string("cannot create the progress engine's eventfd: ") + std::strerror(errno) +
                                   " (raise the open-file limit)");
        return nullptr;
    }
    loop->wake_event_ = event_new(base, loop->wake_fd_, EV_READ | EV_PERSIST, on_wake, loop.get());
    if (loop->wake_event_ == nullptr || event_add(loop->wake_event_, nullptr) != 0) {
        log_warning("runtime", "cannot register the progress engine's wake-up event with libevent");
        return nullptr;
    }
    if (!owns_base) {
        loop->keep_alive_ = loop;
        // The host's loop answers this at once, which tells us which thread
        // drives its base before any real work arrives.
        wake(loop->wake_fd_);
    }
    return loop;
}

EngineLoop::~EngineLoop()
{
    for (auto &entry : timers_) {
        event_free(entry.second->ev);
        entry.second->ev = nullptr;
    }
    if (wake_event_ != nullptr) {
        event_free(wake_event_);
    }
    if (wake_fd_ >= 0) {
        ::close(wake_fd_);
    }
    if (owns_base && base != nullptr) {
        event_base_free(base);
    }
}

pmix_status_t EngineLoop::post(std::function<void()> fn)
{
    std::lock_guard lock(mutex_);
    if (shut_down_ || (!accepting_ && !on_loop_thread())) {
        return PMIX_ERR_INIT;
    }
    queue_.push_back(std::move(fn));
    if (!wake_pending_) {
        wake_pending_ = true;
        wake(wake_fd_);
    }
    return PMIX_SUCCESS;
}

pmix_status_t EngineLoop::start_thread()
{
    try {
        const AsyncSignalsBlocked inherited_by_the_thread;
        thread_ = std::thread([self = shared_from_this()] {
            self->driver = std::this_thread::get_id();
            if (event_base_dispatch(self->base) < 0) {
                log_warning("runtime", "the progress thread's libevent loop failed");
            }
        });
        // Before acquire() returns: until then the acquiring thread must not
        // look like the progress thread.
        driver = thread_.get_id();
    } catch (const std::exception &e) {
        log_warning("runtime", std::string("cannot start the progress thread: ") + e.what() +
                                   " (check the process's thread limit)");
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    return PMIX_SUCCESS;
}

void EngineLoop::stop(std::chrono::milliseconds external_wait)
{
    if (!request_stop()) {
        return;
    }
    if (!owns_base) {
        stop_external(external_wait);
        return;
    }
    if (on_loop_thread()) {
        // Released from work running on the loop: it ends once that work
        // returns; the thread keeps the loop alive until then.
        thread_.detach();
        return;
    }
    thread_.join();
}

// False when a stop was already requested.
bool EngineLoop::request_stop()
{
    std::lock_guard lock(mutex_);
    if (stop_requested_) {
        return false;
    }
    accepting_ = false;
    stop_requested_ = true;
    wake_pending_ = true;
    wake(wake_fd_);
    return true;
}

// Everything that touches the host's base or our events happens on the
// thread that drives it: libevent gives no other guarantee for a base the
// host may have created without locking, and the host's thread may be inside
// on_wake right now.
void EngineLoop::stop_external(std::chrono::milliseconds wait)
{
    if (running_callback_of == this) {
        // Work we are running released us: the wake-up just written finishes
        // the shutdown on this thread once it returns; on_wake keeps us alive.
        return;
    }
    if (driver_seen_.load() && on_loop_thread()) {
        // The host's loop thread between its own callbacks (or after its loop
        // ended): nothing else can be running the base, so finish here.
        drain();
        return;
    }
    std::unique_lock lock(mutex_);
    if (finished_cv_.wait_for(lock, wait, [this] { return finished_; })) {
        return;
    }
    log_warning("runtime", "the host's event base (PMIX_EVENT_BASE) did not run for " + std::to_string(wait.count()) +
                               " ms after the progress engine was released; its shutdown and "
                               "queued work will complete the next time that base runs (keep "
                               "driving the base until PMIx finalize returns)");
}

void EngineLoop::note_driver()
{
    if (!owns_base) {
        driver = std::this_thread::get_id();
        driver_seen_ = true;
    }
}

void EngineLoop::on_wake(int fd, short, void *arg)
{
    auto *raw = static_cast<EngineLoop *>(arg);
    // Shutting down drops keep_alive_ and a releasing thread may drop its
    // reference meanwhile: hold the loop until this callback is done.
    std::shared_ptr<EngineLoop> loop = raw->shared_from_this();
    CallbackScope scope(raw);
    uint64_t count = 0;
    ssize_t ignored = ::read(fd, &count, sizeof count);
    (void)ignored;
    loop->note_driver();
    loop->drain();
}

void EngineLoop::drain()
{
    for (;;) {
        std::deque<std::function<void()>> batch;
        bool stopping = false;
        {
            std::lock_guard lock(mutex_);
            if (shut_down_) {
                return;
            }
            batch.swap(queue_);
            wake_pending_ = false;
            stopping = stop_requested_;
        }
        if (batch.empty()) {
            if (stopping) {
                shutdown_on_loop();
            }
            return;
        }
        for (auto &fn : batch) {
            run_guarded(fn, "work posted to the progress engine");
        }
        // One batch per wake-up keeps sockets and timers served under a flood
        // of posts; work posted meanwhile re-armed the eventfd. While stopping
        // keep going until nothing is left.
        std::lock_guard lock(mutex_);
        if (!stop_requested_) {
            return;
        }
    }
}

void EngineLoop::shutdown_on_loop()
{
    {
        std::lock_guard lock(mutex_);
        shut_down_ = true;
    }
    for (auto &entry : timers_) {
        entry.second->state.store(TimerState::kCancelled);
        event_free(entry.second->ev);
        entry.second->ev = nullptr;
        entry.second->fn = nullptr;
    }
    timers_.clear();
    event_free(wake_event_);
    wake_event_ = nullptr;
    if (owns_base) {
        event_base_loopbreak(base);
    }
    // Never the last reference: on_wake or the releasing caller holds one.
    keep_alive_.reset();
    std::lock_guard lock(mutex_);
    finished_ = true;
    finished_cv_.notify_all();
}

void EngineLoop::schedule_timer(const std::shared_ptr<TimerState> &timer)
{
    if (shut_down_ || timer->state.load() != TimerState::kPending) {
        return;
    }
    timer->ev = evtimer_new(base, on_timer, timer.get());
    if (timer->ev == nullptr) {
        log_warning("runtime", "libevent could not create a timer (out of memory?)");
        return;
    }
    auto ms = timer->delay.count();
    struct timeval tv = {static_cast<time_t>(ms / 1000), static_cast<suseconds_t>((ms % 1000) * 1000)};
    timers_[timer.get()] = timer;
    evtimer_add(timer->ev, &tv);
}

void EngineLoop::drop_timer(const std::shared_ptr<TimerState> &timer)
{
    auto it = timers_.find(timer.get());
    if (it == timers_.end()) {
        return;
    }
    event_free(timer->ev);
    timer->ev = nullptr;
    timer->fn = nullptr;
    timers_.erase(it);
}

void EngineLoop::on_timer(int, short, void *arg)
{
    auto *raw = static_cast<TimerState *>(arg);
    auto loop = raw->loop.lock();
    if (!loop) {
        return;
    }
    auto it = loop->timers_.find(raw);
    if (it == loop->timers_.end()) {
        return;
    }
    std::shared_ptr<TimerState> timer = std::move(it->second);
    loop->timers_.erase(it);
    event_free(timer->ev);
    timer->ev = nullptr;
    CallbackScope scope(loop.get());
    loop->note_driver();
    int expected = TimerState::kPending;
    if (timer->state.compare_exchange_strong(expected, TimerState::kFired)) {
        run_guarded(timer->fn, "a progress engine timer");
    }
    timer->fn = nullptr;  // release what the callback captured
}

}  // namespace pmixpp::runtime
