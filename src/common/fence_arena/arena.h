// A mapped fence arena (layout.h): the barrier and the data slots, as the
// server and its clients use them. Files: arena_files.cc (where arenas
// live, their names, and reaping those of a server that died).
#ifndef PMIXPP_COMMON_FENCE_ARENA_ARENA_H
#define PMIXPP_COMMON_FENCE_ARENA_ARENA_H

#include "common/fence_arena/layout.h"
#include "common/fence_arena/wait_policy.h"

#include <pmix_common.h>

#include <chrono>
#include <ctime>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pmixpp::arena {

// The Welcome info key naming the arena of the client's job (a string path).
inline constexpr const char *kWelcomeKey = "pmixpp.fence.arena";
// Client side: "0" keeps a client off the arena (its fences go through the
// server, which takes part in the arena for it).
inline constexpr const char *kClientEnableEnv = "PMIX_MCA_pmix_fence_arena";

// One arrival at the barrier: the generation it belongs to.
struct Ticket {
    uint32_t generation = 0;
    bool completed_it = false;  // this arrival was the last one
};

enum class SlotState { data, empty, overflow };

class Arena {
public:
    ~Arena();
    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;

    // A new arena file at `path` (must not exist), mode 0600, given to
    // `owner` when set. The server's side.
    static pmix_status_t create(const std::string &path, const std::string &nspace, uint32_t nprocs,
                                uint32_t slot_capacity, std::optional<std::pair<uint32_t, uint32_t>> owner,
                                std::unique_ptr<Arena> *arena_p, std::string *why_p);
    // An existing arena made for `nspace`. A client's side.
    static pmix_status_t open(const std::string &path, const std::string &nspace, std::unique_ptr<Arena> *arena_p,
                              std::string *why_p);

    const std::string &path() const { return path_; }
    uint32_t nprocs() const { return header().nprocs; }
    uint32_t slot_capacity() const { return header().slot_capacity; }
    bool disabled() const;
    // Server: no more fences here; waiters of the current generation are
    // released with `status`.
    void disable(pmix_status_t status);

    // Writes rank's data (a modex record) into its slot; too big for it,
    // the slot says so and readers ask the server. Only the rank itself, or
    // the server for a rank that cannot map the arena, writes a slot.
    void write_slot(uint32_t rank, const uint8_t *data, std::size_t size);
    // Copies rank's data out (retrying while it is rewritten). *seq_p gets
    // the version read, to tell later whether it changed.
    SlotState read_slot(uint32_t rank, std::vector<uint8_t> *data_p, uint32_t *seq_p) const;
    uint32_t slot_version(uint32_t rank) const;

    // This process is `rank`: notes in its slot the one CPU its thread is
    // bound to (core_of_this_thread()), or that it is not bound to one.
    void claim_core(uint32_t rank, uint64_t claim = core_of_this_thread());
    // kNotBoundToOneCore, or the CPU plus 1 (layout.h, Slot::core).
    static uint64_t core_of_this_thread();
    // Whether a waiter here may watch the word before sleeping. A spinning
    // waiter must not hold a core another rank of the job needs to arrive:
    // it may when the job has no more ranks than this process may use
    // cores, or when this process claimed a core that no other rank of the
    // job may run on (every rank bound to a core of its own, as launchers
    // bind by default). Until every rank has claimed, the answer is no.
    bool may_spin() const;

    Ticket arrive();
    // Arrivals in the current generation.
    uint32_t arrivals() const;
    bool released(const Ticket &ticket) const;
    // Valid once released(ticket).
    pmix_status_t outcome(const Ticket &ticket) const;
    // Blocks until released, or until the deadline: then the arrival is
    // taken back and PMIX_ERR_TIMEOUT returned (unless the fence completed
    // meanwhile). Once *abandon is set (and wake_all called), the arrival is
    // taken back and PMIX_ERR_LOST_CONNECTION returned: the server that
    // would release us on a rank's death is gone itself.
    pmix_status_t wait(const Ticket &ticket, std::optional<std::chrono::steady_clock::time_point> deadline,
                       const std::atomic<bool> *abandon = nullptr);
    // Wakes every waiter to look again (they sleep again when nothing changed).
    void wake_all();
    // Takes the arrival back unless the generation completed or is
    // completing: true when taken back.
    bool withdraw(const Ticket &ticket);

    // The doorbell (layout.h). bell_fd(): this process's descriptor of the
    // FIFO, opened at create/open (-1 when it could not be: Fence_nb then
    // goes through the server). listen() before arriving with a Fence_nb,
    // unlisten() once none is pending: releases ring the bell meanwhile.
    int bell_fd() const { return bell_fd_; }
    void listen();
    void unlisten();

private:
    Arena(std::string path, void *base, std::size_t size);
    // Opens the doorbell FIFO beside the file (made by create); -1 kept
    // when it cannot be opened.
    void open_bell();
    void ring_bell();
    Header &header() const { return *static_cast<Header *>(base_); }
    Slot &slot(uint32_t rank) const;
    uint8_t *slot_data(uint32_t rank) const;
    void release(uint32_t generation, pmix_status_t status);

    // Watches the word for up to `budget`, yielding the core after
    // `pure_spin`; how the release was seen, or nothing when not yet.
    std::optional<Caught> watch(const Ticket &ticket, std::chrono::nanoseconds budget,
                                std::chrono::nanoseconds pure_spin) const;
    // Sleeps on the word until it moves, the deadline or a wake_all.
    void sleep_on(uint32_t state, const struct timespec *timeout);

    std::string path_;
    void *base_ = nullptr;
    std::size_t size_ = 0;
    int bell_fd_ = -1;
    WaitPolicy policy_;
    // claim_core's rank and claim; may_spin's answer once every rank claimed
    // (-1: not yet known).
    uint32_t own_rank_ = 0;
    uint64_t own_claim_ = 0;
    mutable std::atomic<int> own_core_verdict_{-1};
};

// "<arena path>.bell": the arena's doorbell FIFO.
std::string bell_path(const std::string &arena_path);

// ---- files (arena_files.cc)

// Where the server puts arenas: PMIX_MCA_pmix_fence_arena_dir when set, else
// `session_dir` when it is in memory (tmpfs), else /dev/shm when writable,
// else `session_dir`.
std::string arena_directory(const std::string &session_dir);
// "<dir>/pmixpp-fence.<uid>.<pid>.<serial>": the pid of the server that made
// it, so a later server can tell an orphan.
std::string arena_path(const std::string &dir, uint64_t serial);
// Removes the arenas in `dir` left by servers of this uid that are gone
// (crashed: a server removes its own). Returns how many.
int reap_orphans(const std::string &dir);

}  // namespace pmixpp::arena

#endif
