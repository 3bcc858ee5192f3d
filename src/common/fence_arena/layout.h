// The bytes of a fence arena file, shared by the server that makes it and
// the clients that map it (both from this library: the layout is ours and
// versioned by the magic, it is not part of any standard).
//
//   Header  (one cache line per hot field group)
//   Slot 0 .. nprocs-1, each kSlotHeader bytes then slot_capacity data bytes,
//   rounded up to 64.
//
// The barrier is one 32-bit word, `state`: the generation in the upper 16
// bits and the number of arrivals in the lower 16. Arriving is one
// fetch_add; the last arrival (lower bits reaching nprocs) writes the
// outcome of the next generation, stores (generation + 1, 0) and, when a
// waiter says it sleeps (`sleepers`), wakes every waiter with FUTEX_WAKE.
// Waiters first watch the word for a while (wait_policy.h), then count
// themselves in `sleepers` and sleep with FUTEX_WAIT on it. The word is also
// the futex, so nothing else needs locking; a waiter that counted itself
// checks the word once more before sleeping, so a release that read no
// sleeper is never missed (both sides use sequentially consistent order).
//
// A PMIx_Fence_nb waits in no thread: its process's progress thread must
// learn of the release. Beside the file lies a FIFO, the doorbell
// (`<arena>.bell`); a process with a Fence_nb pending counts itself in
// `bell_listeners` before it arrives, and a release that reads listeners
// writes one byte to it. Every listening progress thread watches the FIFO
// edge-triggered, so one write wakes them all; the bytes are never read
// down to empty (arena.cc, ring_bell), which keeps every write an edge.
#ifndef PMIXPP_COMMON_FENCE_ARENA_LAYOUT_H
#define PMIXPP_COMMON_FENCE_ARENA_LAYOUT_H

#include <pmix_common.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace pmixpp::arena {

inline constexpr uint64_t kMagic = 0x33434e4658494d50ULL;  // "PMIXFNC3", little endian
inline constexpr uint32_t kMaxProcs = 0xffff;              // arrivals fit in 16 bits
inline constexpr std::size_t kOutcomes = 64;               // generations remembered
inline constexpr uint32_t kOverflow = 0xffffffffu;         // slot length: data too big

struct alignas(64) Header {
    uint64_t magic = 0;
    uint32_t nprocs = 0;
    uint32_t slot_capacity = 0;  // data bytes per slot
    uint64_t slot_stride = 0;    // bytes from one slot to the next
    uint64_t file_size = 0;
    char nspace[PMIX_MAX_NSLEN + 1] = {};
    // Written by the server only. Set: whole-job fences go through the
    // server from now on (a rank is gone, or the job is being torn down).
    alignas(64) std::atomic<uint32_t> disabled{0};
    // The barrier word (see above). Its own cache line: every arrival hits it.
    alignas(64) std::atomic<uint32_t> state{0};
    // Waiters asleep (or about to be) on `state`: the release skips the wake
    // system call when there are none. A waiter that died counted only costs
    // wakes nobody needed.
    alignas(64) std::atomic<uint32_t> sleepers{0};
    // Processes listening on the doorbell (see above): the release skips
    // the write when there are none.
    alignas(64) std::atomic<uint32_t> bell_listeners{0};
    // How generation g began, at [g % kOutcomes]: (g << 32) | status. The
    // last arrival writes it before publishing g; the server, releasing
    // waiters with an error, right after (waiters wait for the tag to
    // match). A waiter lags one generation at most, so 64 is plenty.
    alignas(64) std::atomic<uint64_t> outcomes[kOutcomes] = {};
};

// One rank's data, under a sequence lock: `seq` is odd while the rank (or
// the server on its behalf) rewrites it, and readers retry when it moved.
struct Slot {
    std::atomic<uint32_t> seq{0};
    std::atomic<uint32_t> length{0};  // data bytes, or kOverflow
    // Written once by the rank when it maps the arena: the one CPU it is
    // bound to, plus 1; kNotBoundToOneCore; 0 not known yet (not mapped, or
    // a library before this word had a meaning). See Arena::may_spin.
    std::atomic<uint64_t> core{0};
};
inline constexpr uint64_t kNotBoundToOneCore = ~uint64_t{0};
inline constexpr std::size_t kSlotHeader = sizeof(Slot);

static_assert(std::atomic<uint32_t>::is_always_lock_free, "the barrier word is shared between processes");
static_assert(std::atomic<uint64_t>::is_always_lock_free, "a slot's core claim is shared between processes");
static_assert(sizeof(Slot) == 16, "the slot header keeps its size across versions");
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "the barrier word is a futex");

inline uint32_t generation_of(uint32_t state)
{
    return state >> 16;
}
inline uint32_t arrivals_of(uint32_t state)
{
    return state & 0xffffu;
}
inline uint32_t make_state(uint32_t generation, uint32_t arrivals)
{
    return ((generation & 0xffffu) << 16) | arrivals;
}

}  // namespace pmixpp::arena

#endif
