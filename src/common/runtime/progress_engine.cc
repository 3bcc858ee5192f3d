#include "common/runtime/progress_engine.h"

#include <event2/event.h>
#include <event2/thread.h>
#include <pthread.h>

#include <atomic>
#include <mutex>
#include <new>
#include <utility>

#include "common/runtime/engine_loop.h"
#include "common/runtime/latch.h"
#include "common/runtime/log.h"

namespace pmixpp::runtime {

namespace {

constexpr const char *kVerboseEnv = "PMIX_MCA_pmix_verbose";

void enable_libevent_threads()
{
    // Once per process and before our base exists, so that bases made later
    // (ours, or a host's) get locking.
    static std::once_flag once;
    std::call_once(once, [] {
        if (evthread_use_pthreads() != 0) {
            log_warning("runtime", "libevent has no pthreads support (install libevent_pthreads)");
        }
    });
}

// Bumped in every child of fork(): an engine started before the fork has no
// thread in the child, and its base shares the parent's epoll instance, so
// the child must neither use nor free it.
std::atomic<unsigned> fork_generation{0};

void note_fork_in_child()
{
    fork_generation.fetch_add(1);
}

void watch_for_fork()
{
    static std::once_flag once;
    std::call_once(once, [] { (void)pthread_atfork(nullptr, nullptr, note_fork_in_child); });
}

}  // namespace

struct ProgressEngine::Impl {
    std::mutex mutex;  // guards every field
    int refs = 0;
    bool external = false;
    std::shared_ptr<EngineLoop> current;
    // The loop being stopped, so that work it drains may still post to it.
    std::shared_ptr<EngineLoop> stopping;
    unsigned generation = 0;  // fork_generation when started
    std::chrono::milliseconds external_stop_wait = kDefaultExternalStopWait;

    // Forgets a loop inherited through fork() without touching it: leaked on
    // purpose (see fork_generation). Called with mutex held.
    void forget_if_forked()
    {
        if (refs == 0 || generation == fork_generation.load()) {
            return;
        }
        new std::shared_ptr<EngineLoop>(std::move(current));
        if (stopping) {
            new std::shared_ptr<EngineLoop>(std::move(stopping));
        }
        refs = 0;
        external = false;
    }

    std::shared_ptr<EngineLoop> loop()
    {
        std::lock_guard lock(mutex);
        forget_if_forked();
        if (current) {
            return current;
        }
        if (stopping && stopping->on_loop_thread()) {
            return stopping;
        }
        return nullptr;
    }
};

ProgressEngine::ProgressEngine() : impl_(std::make_unique<Impl>()) {}

ProgressEngine::~ProgressEngine()
{
    {
        std::lock_guard lock(impl_->mutex);
        impl_->forget_if_forked();
        if (impl_->refs == 0) {
            return;
        }
        impl_->refs = 1;
    }
    release();
}

ProgressEngine &ProgressEngine::process()
{
    static ProgressEngine *engine = new ProgressEngine();
    return *engine;
}

pmix_status_t ProgressEngine::acquire(struct event_base *external_or_null)
{
    std::lock_guard lock(impl_->mutex);
    impl_->forget_if_forked();
    if (impl_->refs > 0) {
        if (external_or_null != nullptr && external_or_null != impl_->current->base) {
            log_trace(kVerboseEnv, "runtime", "PMIX_EVENT_BASE ignored: the progress engine is already running");
        }
        ++impl_->refs;
        return PMIX_SUCCESS;
    }
    enable_libevent_threads();
    watch_for_fork();
    impl_->generation = fork_generation.load();
    bool owns = external_or_null == nullptr;
    struct event_base *base = owns ? event_base_new() : external_or_null;
    if (base == nullptr) {
        log_warning("runtime", "libevent could not create an event base (out of memory or fds?)");
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    std::shared_ptr<EngineLoop> loop;
    try {
        loop = EngineLoop::create(base, owns);
    } catch (const std::bad_alloc &) {
        loop = nullptr;
    }
    if (!loop) {
        if (owns) {
            event_base_free(base);
        }
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (owns) {
        pmix_status_t status = loop->start_thread();
        if (status != PMIX_SUCCESS) {
            return status;  // loop's destructor frees the base
        }
    }
    impl_->current = std::move(loop);
    impl_->external = !owns;
    impl_->refs = 1;
    return PMIX_SUCCESS;
}

void ProgressEngine::release()
{
    std::shared_ptr<EngineLoop> loop;
    std::chrono::milliseconds wait{};
    {
        std::lock_guard lock(impl_->mutex);
        impl_->forget_if_forked();
        if (impl_->refs == 0 || --impl_->refs > 0) {
            return;
        }
        wait = impl_->external_stop_wait;
        loop = std::move(impl_->current);
        impl_->stopping = loop;
    }
    // Not under the mutex: work drained by stop() may post or add timers.
    loop->stop(wait);
    std::lock_guard lock(impl_->mutex);
    if (impl_->stopping == loop) {
        impl_->stopping.reset();
    }
}

void ProgressEngine::set_external_stop_wait(std::chrono::milliseconds wait)
{
    std::lock_guard lock(impl_->mutex);
    impl_->external_stop_wait = wait.count() < 0 ? std::chrono::milliseconds{0} : wait;
}

bool ProgressEngine::running() const
{
    std::lock_guard lock(impl_->mutex);
    impl_->forget_if_forked();
    return impl_->refs > 0;
}

pmix_status_t ProgressEngine::post(std::function<void()> fn)
{
    auto loop = impl_->loop();
    if (!loop) {
        return PMIX_ERR_INIT;
    }
    try {
        return loop->post(std::move(fn));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t ProgressEngine::run_and_wait(std::function<void()> fn)
{
    auto loop = impl_->loop();
    if (!loop) {
        return PMIX_ERR_INIT;
    }
    if (loop->on_loop_thread()) {
        run_guarded(fn, "work run on the progress engine");
        return PMIX_SUCCESS;
    }
    Latch<> done;
    pmix_status_t status = PMIX_SUCCESS;
    try {
        status = loop->post([&fn, &done] {
            run_guarded(fn, "work run on the progress engine");
            done.complete(PMIX_SUCCESS);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
    if (status != PMIX_SUCCESS) {
        return status;
    }
    return done.wait();
}

bool ProgressEngine::on_progress_thread() const
{
    auto loop = impl_->loop();
    return loop && loop->on_loop_thread();
}

Timer ProgressEngine::add_timer(std::chrono::milliseconds delay, std::function<void()> fn)
{
    auto loop = impl_->loop();
    if (!loop) {
        return Timer{};
    }
    auto state = std::make_shared<TimerState>();
    state->fn = std::move(fn);
    state->delay = delay.count() < 0 ? std::chrono::milliseconds{0} : delay;
    state->loop = loop;
    if (loop->on_loop_thread()) {
        loop->schedule_timer(state);
    } else {
        EngineLoop *raw = loop.get();
        if (loop->post([raw, state] { raw->schedule_timer(state); }) != PMIX_SUCCESS) {
            return Timer{};
        }
    }
    return Timer(std::move(state));
}

struct event_base *ProgressEngine::base() const
{
    auto loop = impl_->loop();
    return loop ? loop->base : nullptr;
}

bool ProgressEngine::external() const
{
    std::lock_guard lock(impl_->mutex);
    impl_->forget_if_forked();
    return impl_->external;
}

}  // namespace pmixpp::runtime
