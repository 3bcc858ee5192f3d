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
// would then hold a core a rank of its job needs to arrive at all.
#ifndef PMIXPP_COMMON_FENCE_ARENA_WAIT_POLICY_H
#define PMIXPP_COMMON_FENCE_ARENA_WAIT_POLICY_H

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace pmixpp::arena {

class WaitPolicy {
public:
    static constexpr std::chrono::nanoseconds kMinSpin{4'000};
    static constexpr std::chrono::nanoseconds kMaxSpin{200'000};

    // The budget for the next wait of a job of nprocs ranks.
    std::chrono::nanoseconds spin_budget(uint32_t nprocs) const;
    // What the last wait took, from arriving to seeing the release.
    void record(std::chrono::nanoseconds waited);

private:
    static constexpr std::size_t kRemembered = 16;
    // Written by the waiting thread, read by the next one; relaxed: a torn
    // view only makes one budget a little off.
    std::array<std::atomic<uint32_t>, kRemembered> recent_ns_{};
    std::atomic<uint32_t> next_{0};
};

// CPUs this process may run on (its affinity mask), at least 1.
uint32_t usable_cores();

}  // namespace pmixpp::arena

#endif
