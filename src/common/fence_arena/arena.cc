// The fence arena's barrier and slots (layout.h explains the protocol).
#include "common/fence_arena/arena.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <new>
#include <thread>

#include <fcntl.h>
#include <sched.h>
#include <linux/futex.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pmixpp::arena {
namespace {

// Shared futexes (no FUTEX_PRIVATE_FLAG): the word is in a file mapping
// shared by several processes.
long futex(std::atomic<uint32_t> *word, int op, uint32_t value, const struct timespec *timeout)
{
    return ::syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), op, value, timeout, nullptr, 0);
}

std::size_t round_up(std::size_t n, std::size_t to)
{
    return (n + to - 1) / to * to;
}

std::string errno_text(const std::string &what, const std::string &path)
{
    return what + " " + path + ": " + std::strerror(errno);
}

uint64_t tagged(uint32_t generation, pmix_status_t status)
{
    return (static_cast<uint64_t>(generation & 0xffffu) << 32) | static_cast<uint32_t>(status);
}

}  // namespace

Arena::Arena(std::string path, void *base, std::size_t size) : path_(std::move(path)), base_(base), size_(size) {}

Arena::~Arena()
{
    if (base_ != nullptr) ::munmap(base_, size_);
    if (bell_fd_ >= 0) ::close(bell_fd_);
}

std::string bell_path(const std::string &arena_path)
{
    return arena_path + ".bell";
}

void Arena::open_bell()
{
    // Read and write: the open never waits for a peer, and this process can
    // both ring and listen. O_NONBLOCK: a ring never waits either.
    bell_fd_ = ::open(bell_path(path_).c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    // Only the FIFO made with the arena: a name squatted in a shared
    // directory (emptied or filled by its owner) would lose rings.
    struct stat bell {};
    struct stat file {};
    const bool ours = bell_fd_ >= 0 && ::fstat(bell_fd_, &bell) == 0 && S_ISFIFO(bell.st_mode) &&
                      (bell.st_mode & 0777) == 0600 && ::stat(path_.c_str(), &file) == 0 && bell.st_uid == file.st_uid;
    if (bell_fd_ >= 0 && !ours) {
        ::close(bell_fd_);
        bell_fd_ = -1;
    }
}

void Arena::listen()
{
    header().bell_listeners.fetch_add(1, std::memory_order_seq_cst);
}

void Arena::unlisten()
{
    header().bell_listeners.fetch_sub(1, std::memory_order_seq_cst);
}

// One byte per release. The listeners never read: a FIFO that stays non-empty
// makes each write a fresh edge for every edge-triggered watcher, which one
// that emptied it could steal from the others. So the ringer keeps it between
// 16 and 32 KiB (a pipe holds 64 KiB), taking 8 KiB back when it passes 32.
void Arena::ring_bell()
{
    if (bell_fd_ < 0) return;
    static constexpr char kByte = 'r';
    (void)!::write(bell_fd_, &kByte, 1);
    int queued = 0;
    if (::ioctl(bell_fd_, FIONREAD, &queued) == 0 && queued > 32 * 1024) {
        char drain[8 * 1024];
        (void)!::read(bell_fd_, drain, sizeof drain);
    }
}

pmix_status_t Arena::create(const std::string &path, const std::string &nspace, uint32_t nprocs, uint32_t slot_capacity,
                            std::optional<std::pair<uint32_t, uint32_t>> owner, std::unique_ptr<Arena> *arena_p,
                            std::string *why_p)
{
    if (nprocs == 0 || nprocs > kMaxProcs || nspace.size() > PMIX_MAX_NSLEN) return PMIX_ERR_BAD_PARAM;
    const std::size_t stride = round_up(kSlotHeader + slot_capacity, 64);
    const std::size_t size = sizeof(Header) + stride * nprocs;
    // The mapping keeps the file; the descriptor is closed on every return.
    const util::UniqueFd file(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (!file) {
        *why_p = errno_text("cannot create", path);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    // Sparse: tmpfs gives pages only to the slots that are written.
    if (::ftruncate(file.get(), static_cast<off_t>(size)) != 0 ||
        (owner && ::fchown(file.get(), owner->first, owner->second) != 0)) {
        *why_p = errno_text("cannot size or give away", path);
        ::unlink(path.c_str());
        return PMIX_ERR_NOT_AVAILABLE;
    }
    void *base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, file.get(), 0);
    if (base == MAP_FAILED) {
        *why_p = errno_text("cannot map", path);
        ::unlink(path.c_str());
        return PMIX_ERR_NOT_AVAILABLE;
    }
    auto *header = new (base) Header();
    header->nprocs = nprocs;
    header->slot_capacity = slot_capacity;
    header->slot_stride = stride;
    header->file_size = size;
    std::memcpy(header->nspace, nspace.data(), nspace.size());
    for (uint32_t rank = 0; rank < nprocs; ++rank) {
        new (static_cast<uint8_t *>(base) + sizeof(Header) + stride * rank) Slot();
    }
    // The doorbell, given to the job's user like the file. Without it the
    // arena still serves blocking fences; Fence_nb goes through the server.
    const std::string bell = bell_path(path);
    if (::mkfifo(bell.c_str(), 0600) == 0 && owner && ::chown(bell.c_str(), owner->first, owner->second) != 0) {
        ::unlink(bell.c_str());
    }
    // Last: a client that maps the file early sees no magic and gives up.
    std::atomic_thread_fence(std::memory_order_release);
    header->magic = kMagic;
    arena_p->reset(new Arena(path, base, size));
    (*arena_p)->open_bell();
    return PMIX_SUCCESS;
}

pmix_status_t Arena::open(const std::string &path, const std::string &nspace, std::unique_ptr<Arena> *arena_p,
                          std::string *why_p)
{
    const util::UniqueFd file(::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW));
    struct stat st {};
    if (!file || ::fstat(file.get(), &st) != 0) {
        *why_p = errno_text("cannot open", path);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size < sizeof(Header)) {
        *why_p = path + " is too small to be a fence arena";
        return PMIX_ERR_BAD_PARAM;
    }
    void *base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, file.get(), 0);
    if (base == MAP_FAILED) {
        *why_p = errno_text("cannot map", path);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    std::unique_ptr<Arena> arena(new Arena(path, base, size));
    const Header &header = arena->header();
    const bool consistent = header.magic == kMagic && header.nprocs > 0 && header.nprocs <= kMaxProcs &&
                            header.file_size == size && header.slot_stride >= kSlotHeader + header.slot_capacity &&
                            sizeof(Header) + header.slot_stride * header.nprocs <= size;
    if (!consistent || strncmp(header.nspace, nspace.c_str(), PMIX_MAX_NSLEN) != 0) {
        *why_p = path + " is not the fence arena of " + nspace;
        return PMIX_ERR_BAD_PARAM;
    }
    arena->open_bell();
    *arena_p = std::move(arena);
    return PMIX_SUCCESS;
}

Slot &Arena::slot(uint32_t rank) const
{
    auto *first = static_cast<uint8_t *>(base_) + sizeof(Header);
    return *reinterpret_cast<Slot *>(first + header().slot_stride * rank);
}

uint64_t Arena::core_of_this_thread()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) != 1) return kNotBoundToOneCore;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set)) return static_cast<uint64_t>(cpu) + 1;
    }
    return kNotBoundToOneCore;
}

void Arena::claim_core(uint32_t rank, uint64_t claim)
{
    if (rank >= nprocs() || claim == 0) return;
    own_rank_ = rank;
    own_claim_ = claim;
    own_core_verdict_.store(-1, std::memory_order_relaxed);
    slot(rank).core.store(claim, std::memory_order_release);
}

bool Arena::may_spin() const
{
    if (nprocs() <= usable_cores()) return true;
    const int verdict = own_core_verdict_.load(std::memory_order_relaxed);
    if (verdict >= 0) return verdict == 1;
    if (own_claim_ == 0 || own_claim_ == kNotBoundToOneCore) {
        own_core_verdict_.store(0, std::memory_order_relaxed);
        return false;
    }
    for (uint32_t rank = 0; rank < nprocs(); ++rank) {
        if (rank == own_rank_) continue;
        const uint64_t other = slot(rank).core.load(std::memory_order_acquire);
        if (other == 0) return false;  // not claimed yet: ask again at the next wait
        if (other == own_claim_ || other == kNotBoundToOneCore) {
            own_core_verdict_.store(0, std::memory_order_relaxed);
            return false;
        }
    }
    own_core_verdict_.store(1, std::memory_order_relaxed);
    return true;
}

uint8_t *Arena::slot_data(uint32_t rank) const
{
    return reinterpret_cast<uint8_t *>(&slot(rank)) + kSlotHeader;
}

bool Arena::disabled() const
{
    return header().disabled.load(std::memory_order_acquire) != 0;
}

void Arena::write_slot(uint32_t rank, const uint8_t *data, std::size_t size)
{
    if (rank >= nprocs()) return;
    Slot &s = slot(rank);
    const uint32_t seq = s.seq.load(std::memory_order_relaxed);
    s.seq.store(seq + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    if (size > slot_capacity()) {
        s.length.store(kOverflow, std::memory_order_relaxed);
    } else {
        if (size > 0) std::memcpy(slot_data(rank), data, size);
        s.length.store(static_cast<uint32_t>(size), std::memory_order_relaxed);
    }
    s.seq.store(seq + 2, std::memory_order_release);
}

SlotState Arena::read_slot(uint32_t rank, std::vector<uint8_t> *data_p, uint32_t *seq_p) const
{
    if (rank >= nprocs()) return SlotState::empty;
    const Slot &s = slot(rank);
    for (;;) {
        const uint32_t before = s.seq.load(std::memory_order_acquire);
        if ((before & 1u) != 0) {
            std::this_thread::yield();  // being rewritten: a memcpy away
            continue;
        }
        const uint32_t length = s.length.load(std::memory_order_relaxed);
        const bool fits = length != kOverflow && length <= slot_capacity();
        if (fits) data_p->assign(slot_data(rank), slot_data(rank) + length);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (s.seq.load(std::memory_order_relaxed) != before) continue;
        *seq_p = before;
        if (!fits) return SlotState::overflow;
        return length == 0 ? SlotState::empty : SlotState::data;
    }
}

uint32_t Arena::slot_version(uint32_t rank) const
{
    return rank < nprocs() ? slot(rank).seq.load(std::memory_order_acquire) : 0;
}

void Arena::release(uint32_t generation, pmix_status_t status)
{
    const uint32_t next = (generation + 1) & 0xffffu;
    header().outcomes[next % kOutcomes].store(tagged(next, status), std::memory_order_release);
    header().state.store(make_state(next, 0), std::memory_order_seq_cst);
    // Watching waiters see the word; only sleeping ones need the system call.
    if (header().sleepers.load(std::memory_order_seq_cst) != 0) {
        futex(&header().state, FUTEX_WAKE, INT_MAX, nullptr);
    }
    if (header().bell_listeners.load(std::memory_order_seq_cst) != 0) ring_bell();
}

Ticket Arena::arrive()
{
    const uint32_t before = header().state.fetch_add(1, std::memory_order_acq_rel);
    Ticket ticket{generation_of(before), false};
    if (arrivals_of(before) + 1 >= nprocs()) {
        release(ticket.generation, PMIX_SUCCESS);
        ticket.completed_it = true;
    }
    return ticket;
}

uint32_t Arena::arrivals() const
{
    return arrivals_of(header().state.load(std::memory_order_acquire));
}

bool Arena::released(const Ticket &ticket) const
{
    return generation_of(header().state.load(std::memory_order_acquire)) != ticket.generation;
}

pmix_status_t Arena::outcome(const Ticket &ticket) const
{
    const uint32_t next = (ticket.generation + 1) & 0xffffu;
    for (;;) {
        const uint64_t value = header().outcomes[next % kOutcomes].load(std::memory_order_acquire);
        if ((value >> 32) == next) return static_cast<pmix_status_t>(static_cast<uint32_t>(value));
        std::this_thread::yield();  // the server's release writes it right after the word
    }
}

bool Arena::withdraw(const Ticket &ticket)
{
    for (;;) {
        uint32_t state = header().state.load(std::memory_order_acquire);
        if (generation_of(state) != ticket.generation || arrivals_of(state) == 0) return false;
        if (arrivals_of(state) >= nprocs()) {
            std::this_thread::yield();  // the last arrival is publishing it
            continue;
        }
        if (header().state.compare_exchange_weak(state, state - 1, std::memory_order_acq_rel)) return true;
    }
}

void Arena::wake_all()
{
    futex(&header().state, FUTEX_WAKE, INT_MAX, nullptr);
}

namespace {

// A pause between two looks at the word, easing the sibling hyperthread.
inline void cpu_relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

}  // namespace

std::optional<Caught> Arena::watch(const Ticket &ticket, std::chrono::nanoseconds budget,
                                   std::chrono::nanoseconds pure_spin) const
{
    if (budget <= std::chrono::nanoseconds::zero()) return std::nullopt;
    const auto start = std::chrono::steady_clock::now();
    const auto until = start + budget;
    const auto yield_from = start + std::min(budget, pure_spin);
    bool yielded = false;
    const auto caught = [&] { return yielded ? Caught::after_yield : Caught::spinning; };
    for (;;) {
        // A clock read costs some 20 ns: look at the word 32 times between two.
        for (int spin = 0; spin < 32; ++spin) {
            if (released(ticket)) return caught();
            cpu_relax();
        }
        const auto now = std::chrono::steady_clock::now();
        if (now >= until) return released(ticket) ? std::optional<Caught>(caught()) : std::nullopt;
        // Not there within the pure spin: the rank we wait for may be queued
        // behind us on this very core (a busy neighbour holds the other),
        // where spinning on would keep it from arriving until our time
        // slice ends. Yielding lets it run; on an idle core it returns at once.
        if (now >= yield_from) {
            ::sched_yield();
            yielded = true;
        }
    }
}

void Arena::sleep_on(uint32_t state, const struct timespec *timeout)
{
    header().sleepers.fetch_add(1, std::memory_order_seq_cst);
    // Returns at a wake, at the timeout, or at once when the word moved
    // (another arrival, or the release that read no sleeper before we
    // counted ourselves): the caller's loop tells which.
    if (header().state.load(std::memory_order_seq_cst) == state) {
        futex(&header().state, FUTEX_WAIT, state, timeout);
    }
    header().sleepers.fetch_sub(1, std::memory_order_seq_cst);
}

pmix_status_t Arena::wait(const Ticket &ticket, std::optional<std::chrono::steady_clock::time_point> deadline,
                          const std::atomic<bool> *abandon)
{
    // The last arrival does not wait: nothing to learn from it.
    if (ticket.completed_it) return outcome(ticket);
    const auto arrived = std::chrono::steady_clock::now();
    const auto learn = [&](Caught caught) { policy_.record(std::chrono::steady_clock::now() - arrived, caught); };
    if (!policy_.sleep_to_move()) {
        if (const auto caught = watch(ticket, policy_.spin_budget(may_spin()), policy_.pure_spin())) {
            learn(*caught);
            return outcome(ticket);
        }
    }
    for (;;) {
        const uint32_t state = header().state.load(std::memory_order_acquire);
        if (generation_of(state) != ticket.generation) {
            learn(Caught::asleep);
            return outcome(ticket);
        }
        if (abandon != nullptr && abandon->load(std::memory_order_acquire)) {
            if (withdraw(ticket)) return PMIX_ERR_LOST_CONNECTION;
            continue;  // completed meanwhile
        }
        struct timespec pause {};
        const struct timespec *timeout = nullptr;
        if (deadline) {
            const auto left = *deadline - std::chrono::steady_clock::now();
            if (left <= std::chrono::steady_clock::duration::zero()) {
                if (withdraw(ticket)) return PMIX_ERR_TIMEOUT;
                continue;  // completed meanwhile
            }
            const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
            pause.tv_sec = static_cast<time_t>(ns / 1000000000);
            pause.tv_nsec = static_cast<long>(ns % 1000000000);
            timeout = &pause;
        }
        sleep_on(state, timeout);
    }
}

void Arena::disable(pmix_status_t status)
{
    header().disabled.store(1, std::memory_order_seq_cst);
    for (;;) {
        uint32_t state = header().state.load(std::memory_order_acquire);
        const uint32_t arrivals = arrivals_of(state);
        if (arrivals == 0 || arrivals >= nprocs()) return;  // nobody waits, or it completes anyway
        const uint32_t next = (generation_of(state) + 1) & 0xffffu;
        if (!header().state.compare_exchange_weak(state, make_state(next, 0), std::memory_order_acq_rel)) continue;
        header().outcomes[next % kOutcomes].store(tagged(next, status), std::memory_order_release);
        futex(&header().state, FUTEX_WAKE, INT_MAX, nullptr);
        ring_bell();
        return;
    }
}

}  // namespace pmixpp::arena
