// A one-shot completion: how a blocking PMIx call waits for its _nb form.
//
//   auto done = std::make_shared<runtime::Latch<>>();
//   start_nb(..., [done](pmix_status_t st) { done->complete(st); });
//   return done->wait();
//
// Threading: complete() from any thread (usually the progress thread), wait()
// and wait_for() from any other thread. The first complete() wins; later ones
// are ignored, so a timeout racing a reply is harmless. Share it through a
// shared_ptr when the completing callback may outlive the waiter (wait_for
// gave up).
#ifndef PMIXPP_COMMON_RUNTIME_LATCH_H
#define PMIXPP_COMMON_RUNTIME_LATCH_H

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>
#include <variant>

#include <pmix_common.h>

namespace pmixpp::runtime {

template <typename Payload = std::monostate>
class Latch {
public:
    // Returns false when the latch had already been completed.
    bool complete(pmix_status_t status, Payload payload = Payload{})
    {
        std::lock_guard lock(mutex_);
        if (done_) {
            return false;
        }
        status_ = status;
        payload_ = std::move(payload);
        done_ = true;
        // Notified under the lock: a waiter may destroy the latch as soon as
        // it sees done_, and a latch on the waiter's stack is the common case.
        cond_.notify_all();
        return true;
    }

    pmix_status_t wait()
    {
        std::unique_lock lock(mutex_);
        cond_.wait(lock, [this] { return done_; });
        return status_;
    }

    // PMIX_ERR_TIMEOUT when not completed in time; the latch stays usable.
    pmix_status_t wait_for(std::chrono::milliseconds timeout)
    {
        std::unique_lock lock(mutex_);
        if (!cond_.wait_for(lock, timeout, [this] { return done_; })) {
            return PMIX_ERR_TIMEOUT;
        }
        return status_;
    }

    bool is_complete() const
    {
        std::lock_guard lock(mutex_);
        return done_;
    }

    // Valid after wait() returned or is_complete() is true; take it with
    // std::move(latch.payload()).
    Payload &payload() { return payload_; }

private:
    mutable std::mutex mutex_;
    std::condition_variable cond_;
    bool done_ = false;
    pmix_status_t status_ = PMIX_ERR_INIT;
    Payload payload_{};
};

}  // namespace pmixpp::runtime

#endif
