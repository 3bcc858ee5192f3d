#include "common/fence_arena/wait_policy.h"

#include <sched.h>

#include <algorithm>
#include <limits>

namespace pmixpp::arena {

uint32_t usable_cores()
{
    static const uint32_t cores = [] {
        cpu_set_t set;
        CPU_ZERO(&set);
        if (::sched_getaffinity(0, sizeof(set), &set) != 0) return 1u;
        return static_cast<uint32_t>(std::max(1, CPU_COUNT(&set)));
    }();
    return cores;
}

std::chrono::nanoseconds WaitPolicy::spin_budget(bool may_spin) const
{
    if (!may_spin) return std::chrono::nanoseconds::zero();
    std::size_t known = 0;
    std::size_t catchable = 0;
    uint32_t longest_catchable = 0;
    for (const auto &slot : recent_ns_) {
        const uint32_t ns = slot.load(std::memory_order_relaxed);
        if (ns == 0) continue;
        ++known;
        if (ns > kMaxSpin.count()) continue;
        ++catchable;
        longest_catchable = std::max(longest_catchable, ns);
    }
    // No history yet: the old fixed spin, about 10-20 us.
    if (known == 0) return 4 * kMinSpin;
    // Mostly long waits (ranks computing between fences): sleep early.
    if (catchable * 4 < known) return kMinSpin;
    // Long enough for the longest recent wait a spin could have caught,
    // with room to spare: one missed wake-up stays in view for 16 fences.
    const auto longest = std::chrono::nanoseconds(longest_catchable);
    return std::clamp(longest + longest / 2, kMinSpin, kMaxSpin);
}

std::chrono::nanoseconds WaitPolicy::pure_spin() const
{
    // Two waits in a row that needed a yield: the rank waited for runs on
    // this core, and spinning only delays it.
    return yields_in_a_row_.load(std::memory_order_relaxed) >= 2 ? std::chrono::nanoseconds::zero() : kPureSpin;
}

bool WaitPolicy::sleep_to_move()
{
    if (yields_in_a_row_.load(std::memory_order_relaxed) < kYieldsBeforeSleep) return false;
    yields_in_a_row_.store(0, std::memory_order_relaxed);
    return true;
}

void WaitPolicy::record(std::chrono::nanoseconds waited, Caught caught)
{
    if (caught == Caught::after_yield) {
        yields_in_a_row_.fetch_add(1, std::memory_order_relaxed);
    } else if (caught == Caught::spinning) {
        yields_in_a_row_.store(0, std::memory_order_relaxed);
    }
    const auto limit = static_cast<int64_t>(std::numeric_limits<uint32_t>::max());
    const uint32_t ns = static_cast<uint32_t>(std::clamp<int64_t>(waited.count(), 1, limit));
    const uint32_t index = next_.fetch_add(1, std::memory_order_relaxed) % kRemembered;
    recent_ns_[index].store(ns, std::memory_order_relaxed);
}

}  // namespace pmixpp::arena
