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
//
// Why a futex and not a mutex + condition variable: the wake-up is on the
// critical path of every blocking call. The completing thread makes one
// FUTEX_WAKE system call, and only when the waiter is actually asleep; the
// waiter then returns without taking any lock the completer may still hold.
#ifndef PMIXPP_COMMON_RUNTIME_LATCH_H
#define PMIXPP_COMMON_RUNTIME_LATCH_H

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <utility>
#include <variant>

#include <pmix_common.h>

namespace pmixpp::runtime {

namespace latch_detail {

// The futex word's states. A waiter marks the word before it sleeps, so the
// completer knows from the word alone (its last access to the latch)
// whether a FUTEX_WAKE is needed.
inline constexpr uint32_t kPending = 0;
inline constexpr uint32_t kPendingSleeping = 1;
inline constexpr uint32_t kCompleting = 2;  // a complete() won and is filling in the result
inline constexpr uint32_t kCompletingSleeping = 3;
inline constexpr uint32_t kDone = 4;

// Sleeps while *word == expected, at most timeout when given. Spurious
// returns are fine: callers re-check.
inline void futex_wait(std::atomic<uint32_t> *word, uint32_t expected, const struct timespec *timeout)
{
    static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));
    (void)::syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAIT_PRIVATE, expected, timeout, nullptr, 0);
}

inline void futex_wake_all(std::atomic<uint32_t> *word)
{
    (void)::syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
}

}  // namespace latch_detail

template <typename Payload = std::monostate> class Latch {
public:
    // Returns false when the latch had already been completed.
    bool complete(pmix_status_t status, Payload payload = Payload{})
    {
        using namespace latch_detail;
        // Claim first, so that exactly one completer writes the result and
        // no waiter reads it before kDone.
        uint32_t claimed_from = state_.load(std::memory_order_relaxed);
        do {
            if (claimed_from != kPending && claimed_from != kPendingSleeping) {
                return false;
            }
        } while (!state_.compare_exchange_weak(claimed_from, kCompleting, std::memory_order_acquire,
                                               std::memory_order_relaxed));
        status_ = status;
        payload_ = std::move(payload);
        const uint32_t before_done = state_.exchange(kDone, std::memory_order_acq_rel);
        // Nothing of the latch is touched after the exchange: the waiter may
        // return and free it at once (one on its stack is the common case).
        // A wake of an address that is gone is harmless: the kernel finds no
        // waiter there, and futex users re-check their condition anyway.
        if (claimed_from == kPendingSleeping || before_done == kCompletingSleeping) {
            futex_wake_all(&state_);
        }
        return true;
    }

    pmix_status_t wait()
    {
        while (!wait_step(nullptr)) {
        }
        return status_;
    }

    // PMIX_ERR_TIMEOUT when not completed in time; the latch stays usable.
    pmix_status_t wait_for(std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (is_complete()) {
                return status_;
            }
            const auto left = deadline - std::chrono::steady_clock::now();
            if (left <= std::chrono::steady_clock::duration::zero()) {
                return PMIX_ERR_TIMEOUT;
            }
            const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
            struct timespec relative = {static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
            if (wait_step(&relative)) {
                return status_;
            }
        }
    }

    bool is_complete() const { return state_.load(std::memory_order_acquire) == latch_detail::kDone; }

    // Valid after wait() returned or is_complete() is true; take it with
    // std::move(latch.payload()).
    Payload &payload() { return payload_; }

private:
    // One sleep (or none); true once the latch is done.
    bool wait_step(const struct timespec *timeout)
    {
        using namespace latch_detail;
        uint32_t seen = state_.load(std::memory_order_acquire);
        if (seen == kDone) {
            return true;
        }
        uint32_t marked = seen == kPending ? kPendingSleeping : seen == kCompleting ? kCompletingSleeping : seen;
        if (marked != seen && !state_.compare_exchange_strong(seen, marked, std::memory_order_acquire)) {
            return seen == kDone;  // moved on under us: look again
        }
        // Returns at once if the word is no longer `marked`.
        futex_wait(&state_, marked, timeout);
        return state_.load(std::memory_order_acquire) == kDone;
    }

    std::atomic<uint32_t> state_{latch_detail::kPending};
    pmix_status_t status_ = PMIX_ERR_INIT;
    Payload payload_{};
};

}  // namespace pmixpp::runtime

#endif
