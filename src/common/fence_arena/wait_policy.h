// How long a rank waiting at the fence arena's barrier watches the word
// before it sleeps on the futex, learned from the last waits of this
// process.
//
// Sleeping costs a futex wake by the last arrival and, on a busy core, the
// wait until the scheduler lets the woken rank run again: 100 us and more
// beside a compiler, where the fence itself takes about one. A rank that
// falls asleep once makes the others wait for its wake-up at the next fence,
// so a fixed short spin, once missed, is missed at every fence. So the
// budget follows what the waits have been: long enough for the longest of
// the last 16 that a spin up to kMaxSpin could have caught, short when most
// waits are longer anyway (ranks computing between fences), and zero when
// the job has more ranks than this process may use cores: a spinning waiter
// would then hold a core a rank of its job needs to arrive at all, unless
// every rank is bound to a core of its own (Arena::may_spin decides).
//
// Ranks that spin and yield never sleep, and the scheduler does not move a
// task that ran a moment ago: two ranks started on one core stay there,
// the other idle, and every fence costs a yield to the other and back
// (10 us, where it takes 0.4 us on two cores). So the policy also follows
// how the waits ended. When the release came only after yielding, the
// rank waited for shares this core: the pure spin is skipped, and after
// kYieldsBeforeSleep such waits in a row one wait sleeps, so that the
// wake-up places this rank on an idle core if there is one. Beside a busy
// neighbour, where there is none, that costs one slow wait in sixteen.
#ifndef PMIXPP_COMMON_FENCE_ARENA_WAIT_POLICY_H
#define PMIXPP_COMMON_FENCE_ARENA_WAIT_POLICY_H

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace pmixpp::arena {

// How a wait saw the release: while spinning, after yielding the core at
// least once, or asleep on the futex.
enum class Caught { spinning, after_yield, asleep };

class WaitPolicy {
public:
    static constexpr std::chrono::nanoseconds kMinSpin{4'000};
    static constexpr std::chrono::nanoseconds kMaxSpin{200'000};
    // Watching without yielding, unless the waits say the core is shared.
    static constexpr std::chrono::nanoseconds kPureSpin{3'000};
    static constexpr uint32_t kYieldsBeforeSleep = 16;

    // The budget for the next wait; zero when the waiter may not spin at
    // all (Arena::may_spin).
    std::chrono::nanoseconds spin_budget(bool may_spin) const;
    // How long to watch before the first yield.
    std::chrono::nanoseconds pure_spin() const;
    // True once per kYieldsBeforeSleep waits in a row caught after a
    // yield: this wait sleeps, to be woken onto an idle core.
    bool sleep_to_move();
    // What the last wait took, from arriving to seeing the release.
    void record(std::chrono::nanoseconds waited, Caught caught = Caught::spinning);

private:
    static constexpr std::size_t kRemembered = 16;
    // Written by the waiting thread, read by the next one; relaxed: a torn
    // view only makes one budget a little off.
    std::array<std::atomic<uint32_t>, kRemembered> recent_ns_{};
    std::atomic<uint32_t> next_{0};
    std::atomic<uint32_t> yields_in_a_row_{0};
};

// CPUs this process may run on (its affinity mask), at least 1.
uint32_t usable_cores();

}  // namespace pmixpp::arena

#endif
