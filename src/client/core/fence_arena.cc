// A client's side of the fence arena (fence_arena.h).
#include "client/core/fence_arena.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <ctime>
#include <optional>
#include <thread>

#include "client/core/local_data.h"
#include "client/core/requests.h"
#include "common/runtime/log.h"
#include "common/values/value_ops.h"

namespace pmixpp::client {
namespace {

bool wanted()
{
    const char *value = std::getenv(arena::kClientEnableEnv);
    return value == nullptr || std::strcmp(value, "0") != 0;
}

bool own_nspace(const Session &session, const char *nspace)
{
    return std::strncmp(nspace, session.self.nspace, PMIX_MAX_NSLEN) == 0;
}

bool whole_own_job(const Session &session, const pmix_proc_t procs[], size_t nprocs)
{
    if (nprocs == 0) return true;
    return nprocs == 1 && procs[0].rank == PMIX_RANK_WILDCARD && own_nspace(session, procs[0].nspace);
}

std::optional<std::chrono::steady_clock::time_point> deadline_of(const pmix_info_t info[], size_t ninfo)
{
    const auto timeout = timeout_of(info, ninfo, std::chrono::milliseconds{0});
    if (timeout.count() <= 0) return std::nullopt;
    return std::chrono::steady_clock::now() + timeout;
}

void add_committed(ClientArena &arena, const wire::InfoArray &infos)
{
    for (const pmix_info_t &item : infos) {
        store::ValuePtr copy;
        if (copy_value(item.value, &copy) != PMIX_SUCCESS) continue;
        arena.committed[std::string(item.key, strnlen(item.key, PMIX_MAX_KEYLEN))] = std::move(copy);
    }
}

// The record this rank's local peers read: its local- and global-scope data.
pmix_status_t build_record(const Session &session, ClientArena &arena)
{
    wire::ProcData data;
    data.proc = session.self;
    pmix_status_t rc = data.info.allocate(arena.committed.size());
    std::size_t i = 0;
    for (const auto &[key, value] : arena.committed) {
        if (rc != PMIX_SUCCESS) break;
        values::load_key(data.info[i].key, key.c_str());
        rc = values::value_xfer(&data.info[i].value, value.get());
        ++i;
    }
    wire::Bytes record;
    std::vector<wire::ProcData> records;
    records.push_back(std::move(data));
    if (rc == PMIX_SUCCESS && !arena.committed.empty()) rc = wire::encode_modex(records, &record);
    if (rc == PMIX_SUCCESS) {
        arena.record = std::move(record);
        arena.record_stale = false;
    }
    return rc;
}

// Writes this rank's record into its slot; false when it cannot be built.
bool write_own_slot(const Session &session, ClientArena &arena)
{
    std::lock_guard lock(arena.mutex);
    if (arena.record_stale && build_record(session, arena) != PMIX_SUCCESS) return false;
    arena.arena->write_slot(session.self.rank, arena.record.data(), arena.record.size());
    return true;
}

bool usable(const Session &session, const ClientArena *arena, const pmix_proc_t procs[], size_t nprocs)
{
    return arena != nullptr && !arena->arena->disabled() && !arena->server_lost.load() &&
           whole_own_job(session, procs, nprocs);
}

// Arrived, and the arena was retired meanwhile (a rank ended) before the
// barrier opened: the server knows who is gone, the fence goes there.
bool retired_under(const ClientArena &arena, const arena::Ticket &ticket)
{
    return !ticket.completed_it && !arena.arena->released(ticket) && arena.arena->disabled();
}

void note_outcome(ClientArena &arena, pmix_status_t status, bool collect)
{
    if (status == PMIX_SUCCESS && collect) arena.collected.store(true, std::memory_order_release);
}

// How long the watcher may sleep: until the front fence's deadline.
std::optional<struct timespec> sleep_limit(const PendingArenaFence &front)
{
    if (!front.deadline) return std::nullopt;
    const auto left =
        std::max(*front.deadline - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration::zero());
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    return timespec{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
}

// The front fence's outcome if it has one now: released, timed out, its
// server gone, or its turn come after a rank ended. Arrives for a fence that
// waited its turn. Called with nb_mutex held.
std::optional<pmix_status_t> front_outcome(ClientArena &arena, PendingArenaFence &front)
{
    arena::Arena &barrier = *arena.arena;
    if (front.outcome) return front.outcome;  // its own arrival completed the barrier
    if (!front.ticket) {
        // Its turn came after a rank ended: the server would refuse it too.
        if (barrier.disabled()) return PMIX_ERR_LOST_CONNECTION;
        front.ticket = barrier.arrive();
        if (retired_under(arena, *front.ticket)) return PMIX_ERR_LOST_CONNECTION;
    }
    if (barrier.released(*front.ticket)) return barrier.outcome(*front.ticket);
    const bool lost = arena.server_lost.load(std::memory_order_acquire);
    const bool late = front.deadline && std::chrono::steady_clock::now() >= *front.deadline;
    if ((lost || late) && barrier.withdraw(*front.ticket)) return lost ? PMIX_ERR_LOST_CONNECTION : PMIX_ERR_TIMEOUT;
    if (barrier.released(*front.ticket)) return barrier.outcome(*front.ticket);  // completed meanwhile
    return std::nullopt;
}

// Runs a Fence_nb's callback on the progress thread. Once the engine has
// stopped (the process is finalizing) nobody else would run it: here, then.
void hand_to_progress_thread(const ClientArena &arena, std::function<void(pmix_status_t)> done, pmix_status_t status)
{
    std::function<void()> call = [done = std::move(done), status] { done(status); };
    if (arena.engine != nullptr && arena.engine->post(call) == PMIX_SUCCESS) return;
    call();
}

// The watcher thread. It sleeps on the barrier word itself, so a Fence_nb
// needs no wake-up to be watched: the release that ends it wakes the
// watcher (counted as a sleeper, it always gets the FUTEX_WAKE). It then
// answers the front fence, and the next one arrives.
void watch_nb_fences(ClientArena *arena)
{
    std::unique_lock lock(arena->nb_mutex);
    for (;;) {
        if (arena->nb_pending.empty() && arena->nb_stopping) return;
        if (!arena->nb_pending.empty()) {
            PendingArenaFence &front = arena->nb_pending.front();
            if (const auto status = front_outcome(*arena, front)) {
                note_outcome(*arena, *status, front.collect);
                auto done = std::move(front.done);
                arena->nb_pending.pop_front();
                arena->nb_changed.notify_all();
                lock.unlock();
                hand_to_progress_thread(*arena, std::move(done), *status);
                lock.lock();
                continue;
            }
        }
        // Read before letting go of the lock: an arrival or a release after
        // this changes the word, and the sleep below then returns at once.
        const uint32_t seen = arena->arena->state();
        const auto limit = arena->nb_pending.empty() ? std::nullopt : sleep_limit(arena->nb_pending.front());
        lock.unlock();
        arena->arena->sleep_while(seen, limit ? &*limit : nullptr);
        lock.lock();
    }
}

}  // namespace

ClientArena::~ClientArena()
{
    {
        std::lock_guard lock(nb_mutex);
        nb_stopping = true;
    }
    server_lost.store(true, std::memory_order_release);  // waits give up (LOST_CONNECTION)
    if (arena) arena->wake_all();
    nb_changed.notify_all();
    if (watcher.joinable()) watcher.join();
}

void attach_arena(Session &session, const wire::InfoArray &welcome_info)
{
    if (session.tool || !wanted()) return;
    for (const pmix_info_t &item : welcome_info) {
        if (std::strncmp(item.key, arena::kWelcomeKey, PMIX_MAX_KEYLEN) != 0 || item.value.type != PMIX_STRING ||
            item.value.data.string == nullptr) {
            continue;
        }
        auto client_arena = std::make_unique<ClientArena>();
        std::string why;
        if (arena::Arena::open(item.value.data.string, session.self.nspace, &client_arena->arena, &why) !=
            PMIX_SUCCESS) {
            runtime::log_trace("PMIX_MCA_pmix_client_verbose", "client", "fences go through the server: " + why);
            return;
        }
        client_arena->imported = std::make_unique<std::atomic<uint32_t>[]>(client_arena->arena->nprocs());
        client_arena->engine = session.engine;
        session.arena = std::move(client_arena);
        return;
    }
}

void arena_note_commit(Session &session, const wire::CommitRequest &request)
{
    ClientArena *arena = session.arena.get();
    if (arena == nullptr) return;
    std::lock_guard lock(arena->mutex);
    for (const pmix_info_t &item : request.remote) {
        arena->committed.erase(std::string(item.key, strnlen(item.key, PMIX_MAX_KEYLEN)));
    }
    add_committed(*arena, request.local);
    add_committed(*arena, request.global);
    arena->record_stale = true;
}

bool arena_fence(Session &session, const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                 pmix_status_t *status_p)
{
    ClientArena *arena = session.arena.get();
    if (!usable(session, arena, procs, nprocs)) return false;
    {
        // A Fence_nb of this rank still at the barrier goes first.
        std::unique_lock lock(arena->nb_mutex);
        arena->nb_changed.wait(lock, [arena] { return arena->nb_pending.empty(); });
    }
    if (!write_own_slot(session, *arena)) return false;
    const arena::Ticket ticket = arena->arena->arrive();
    if (retired_under(*arena, ticket)) return false;
    *status_p = arena->arena->wait(ticket, deadline_of(info, ninfo), &arena->server_lost);
    note_outcome(*arena, *status_p, flag_of(info, ninfo, PMIX_COLLECT_DATA));
    return true;
}

bool arena_fence_nb(Session &session, const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                    std::function<void(pmix_status_t)> done)
{
    ClientArena *arena = session.arena.get();
    if (!usable(session, arena, procs, nprocs) || !write_own_slot(session, *arena)) return false;
    PendingArenaFence pending{std::nullopt, std::nullopt, deadline_of(info, ninfo),
                              flag_of(info, ninfo, PMIX_COLLECT_DATA), std::move(done)};
    std::lock_guard lock(arena->nb_mutex);
    // It may arrive now when every fence before it is over; their callbacks
    // may still be queued, and this one's must come after them.
    const bool may_arrive = std::ranges::all_of(arena->nb_pending, [](const auto &p) { return p.outcome.has_value(); });
    if (may_arrive) {
        const arena::Ticket ticket = arena->arena->arrive();
        if (retired_under(*arena, ticket)) return false;
        if (arena->arena->released(ticket)) {
            pending.outcome = arena->arena->outcome(ticket);
            note_outcome(*arena, *pending.outcome, pending.collect);
        } else {
            pending.ticket = ticket;
        }
    }
    // The watcher runs every callback, in order. It wakes at the release of
    // the fence it watches; a fence that is over already, or a deadline it
    // does not know yet, needs it awake now.
    const bool wake = pending.outcome.has_value() || (arena->nb_pending.empty() && pending.deadline.has_value());
    arena->nb_pending.push_back(std::move(pending));
    if (!arena->watcher.joinable()) {
        arena->watcher = std::thread(watch_nb_fences, arena);
    } else if (wake) {
        arena->arena->wake_all();
    }
    return true;
}

void arena_server_lost(Session &session)
{
    ClientArena *arena = session.arena.get();
    if (arena == nullptr) return;
    arena->server_lost.store(true, std::memory_order_release);
    arena->arena->wake_all();
}

void arena_import(const Session &session, const pmix_proc_t &target)
{
    ClientArena *arena = session.arena.get();
    if (arena == nullptr || !arena->collected.load(std::memory_order_acquire) || !own_nspace(session, target.nspace) ||
        target.rank >= arena->arena->nprocs() || target.rank == session.self.rank) {
        return;
    }
    const uint32_t version = arena->arena->slot_version(target.rank);
    if (version == arena->imported[target.rank].load(std::memory_order_acquire)) return;
    std::lock_guard lock(arena->mutex);
    if (version == arena->imported[target.rank].load(std::memory_order_relaxed)) return;
    std::vector<uint8_t> bytes;
    uint32_t read = 0;
    const arena::SlotState state = arena->arena->read_slot(target.rank, &bytes, &read);
    if (state == arena::SlotState::overflow) return;  // too big for the slot: the server has it
    std::vector<wire::ProcData> records;
    if (state == arena::SlotState::data && wire::decode_modex(bytes.data(), bytes.size(), &records) != PMIX_SUCCESS) {
        return;
    }
    for (const wire::ProcData &record : records) {
        if (record.proc.rank != target.rank || record.info.empty()) continue;
        if (session.store->put_modex(target.nspace, target.rank, PMIX_GLOBAL, record.info.data(), record.info.size()) !=
            PMIX_SUCCESS) {
            return;
        }
    }
    arena->imported[target.rank].store(read, std::memory_order_release);
    mark_collected(session, target);
}

}  // namespace pmixpp::client
