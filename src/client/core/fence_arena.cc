// A client's side of the fence arena (fence_arena.h).
#include "client/core/fence_arena.h"

#include <event2/event.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

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

// The front fence's outcome if it has one now: released, timed out, its
// server gone, or its turn come after a rank ended. Arrives for a fence that
// waited its turn. Called with nb_mutex held.
std::optional<pmix_status_t> front_outcome(ClientArena &arena, PendingArenaFence &front)
{
    arena::Arena &barrier = *arena.arena;
    if (front.outcome) return front.outcome;  // its own arrival completed the barrier
    if (!front.ticket) {
        // Its turn came after a rank ended (the server would refuse it too),
        // or after the server was lost: it never arrives.
        if (barrier.disabled() || arena.server_lost.load(std::memory_order_acquire)) return PMIX_ERR_LOST_CONNECTION;
        front.ticket = barrier.arrive();
        if (retired_under(arena, *front.ticket)) return PMIX_ERR_LOST_CONNECTION;
        if (front.ticket->completed_it) return barrier.outcome(*front.ticket);
    }
    if (barrier.released(*front.ticket)) return barrier.outcome(*front.ticket);
    const bool lost = arena.server_lost.load(std::memory_order_acquire);
    const bool late = front.deadline && std::chrono::steady_clock::now() >= *front.deadline;
    if ((lost || late) && barrier.withdraw(*front.ticket)) return lost ? PMIX_ERR_LOST_CONNECTION : PMIX_ERR_TIMEOUT;
    if (barrier.released(*front.ticket)) return barrier.outcome(*front.ticket);  // completed meanwhile
    return std::nullopt;
}

using Ready = std::vector<std::pair<std::function<void(pmix_status_t)>, pmix_status_t>>;

// Takes every fence at the front that has its outcome, in order, and stops
// listening once none is left. Called with nb_mutex held.
Ready take_finished(ClientArena &arena)
{
    Ready ready;
    while (!arena.nb_pending.empty()) {
        PendingArenaFence &front = arena.nb_pending.front();
        const auto status = front_outcome(arena, front);
        if (!status) break;
        note_outcome(arena, *status, front.collect);
        ready.emplace_back(std::move(front.done), *status);
        arena.nb_pending.pop_front();
    }
    if (arena.nb_pending.empty() && arena.listening) {
        arena.arena->unlisten();
        arena.listening = false;
    }
    if (!ready.empty()) arena.nb_changed.notify_all();
    return ready;
}

void check_nb_fences(const std::weak_ptr<ClientArena> &weak);

// A timer at the front fence's deadline, when it has one. Progress thread.
void arm_deadline(ClientArena &arena, const std::weak_ptr<ClientArena> &weak)
{
    arena.deadline_timer.cancel();
    std::optional<std::chrono::steady_clock::time_point> deadline;
    {
        std::lock_guard lock(arena.nb_mutex);
        if (!arena.nb_pending.empty()) deadline = arena.nb_pending.front().deadline;
    }
    if (!deadline || arena.engine == nullptr) return;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
    arena.deadline_timer =
        arena.engine->add_timer(std::max(left, std::chrono::milliseconds{0}), [weak] { check_nb_fences(weak); });
}

// Runs the callbacks of the fences that are over, in order. Progress thread.
void check_nb_fences(const std::weak_ptr<ClientArena> &weak)
{
    const std::shared_ptr<ClientArena> arena = weak.lock();
    if (!arena) return;
    Ready ready;
    {
        std::lock_guard lock(arena->nb_mutex);
        ready = take_finished(*arena);
    }
    arm_deadline(*arena, weak);
    for (auto &[done, status] : ready) done(status);
}

void on_bell(evutil_socket_t, short, void *arg)
{
    check_nb_fences(*static_cast<std::weak_ptr<ClientArena> *>(arg));
}

// Whether a write to a pipe that already holds data wakes an edge-triggered
// watcher here: the doorbell never empties (arena.cc), so it needs that.
bool kernel_wakes_every_write()
{
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_NONBLOCK | O_CLOEXEC) != 0) return false;
    const int watcher = ::epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event interest {};
    interest.events = EPOLLIN | EPOLLET;
    int edges = 0;
    if (watcher >= 0 && ::epoll_ctl(watcher, EPOLL_CTL_ADD, pipe_fds[0], &interest) == 0) {
        for (int i = 0; i < 2; ++i) {
            struct epoll_event seen {};
            if (::write(pipe_fds[1], "x", 1) == 1) edges += ::epoll_wait(watcher, &seen, 1, 0);
        }
    }
    if (watcher >= 0) ::close(watcher);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return edges == 2;
}

// The progress thread starts watching the doorbell, once per arena: true
// when it does. The event's argument lives as long as the event.
bool watch_bell(const std::shared_ptr<ClientArena> &arena)
{
    int state = arena->bell_state.load(std::memory_order_acquire);
    if (state != 0) return state > 0;
    if (arena->engine == nullptr || arena->arena->bell_fd() < 0 || !kernel_wakes_every_write()) {
        arena->bell_state.store(-1, std::memory_order_release);
        return false;
    }
    std::weak_ptr<ClientArena> weak = arena;
    const pmix_status_t rc = arena->engine->run_and_wait([&] {
        if (arena->bell_state.load() != 0) return;
        struct event_base *base = arena->engine->base();
        auto *argument = new std::weak_ptr<ClientArena>(weak);
        struct event *bell =
            base != nullptr && (event_base_get_features(base) & EV_FEATURE_ET) != 0
                ? event_new(base, arena->arena->bell_fd(), EV_READ | EV_ET | EV_PERSIST, on_bell, argument)
                : nullptr;
        if (bell == nullptr || event_add(bell, nullptr) != 0) {
            if (bell != nullptr) event_free(bell);
            delete argument;
            arena->bell_state.store(-1);
            return;
        }
        arena->bell_event = bell;
        arena->bell_state.store(1);
    });
    if (rc != PMIX_SUCCESS) arena->bell_state.store(-1);
    return arena->bell_state.load(std::memory_order_acquire) > 0;
}

void stop_watching_bell(ClientArena &arena)
{
    arena.deadline_timer.cancel();
    if (arena.bell_event == nullptr) return;
    auto *argument = static_cast<std::weak_ptr<ClientArena> *>(event_get_callback_arg(arena.bell_event));
    event_free(arena.bell_event);
    delete argument;
    arena.bell_event = nullptr;
}

}  // namespace

ClientArena::~ClientArena()
{
    // Normally arena_detach ran on the progress thread before: whatever is
    // still pending gives up here, its callback on this thread (nobody else
    // would run it).
    server_lost.store(true, std::memory_order_release);
    Ready ready;
    {
        std::lock_guard lock(nb_mutex);
        if (arena) ready = take_finished(*this);
    }
    for (auto &[done, status] : ready) done(status);
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
        // Whether this rank has a core of its own decides whether its waits
        // may spin (Arena::may_spin); the binding is the launcher's, set
        // before exec.
        client_arena->arena->claim_core(session.self.rank);
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
    const std::shared_ptr<ClientArena> arena = session.arena;
    if (!usable(session, arena.get(), procs, nprocs) || !watch_bell(arena) || !write_own_slot(session, *arena)) {
        return false;
    }
    PendingArenaFence pending{std::nullopt, std::nullopt, deadline_of(info, ninfo),
                              flag_of(info, ninfo, PMIX_COLLECT_DATA), std::move(done)};
    bool check_now = false;
    {
        std::lock_guard lock(arena->nb_mutex);
        // Counted before arriving: the release that completes this fence
        // then rings the bell.
        if (!arena->listening) {
            arena->arena->listen();
            arena->listening = true;
        }
        // It may arrive now when every fence before it is over; their
        // callbacks may still be queued, and this one's must come after them.
        const bool may_arrive =
            std::ranges::all_of(arena->nb_pending, [](const auto &p) { return p.outcome.has_value(); });
        if (may_arrive) {
            const arena::Ticket ticket = arena->arena->arrive();
            if (retired_under(*arena, ticket)) {
                if (arena->nb_pending.empty()) {
                    arena->arena->unlisten();
                    arena->listening = false;
                }
                return false;
            }
            if (ticket.completed_it || arena->arena->released(ticket)) {
                pending.outcome = arena->arena->outcome(ticket);
                note_outcome(*arena, *pending.outcome, pending.collect);
            } else {
                pending.ticket = ticket;
            }
        }
        // The bell rings at the release; a fence that is over already, or
        // a deadline to watch, needs the progress thread now.
        check_now = pending.outcome.has_value() || (arena->nb_pending.empty() && pending.deadline.has_value());
        arena->nb_pending.push_back(std::move(pending));
    }
    if (check_now) {
        std::weak_ptr<ClientArena> weak = arena;
        (void)arena->engine->post([weak] { check_nb_fences(weak); });
    }
    return true;
}

void arena_server_lost(Session &session)
{
    ClientArena *arena = session.arena.get();
    if (arena == nullptr) return;
    arena->server_lost.store(true, std::memory_order_release);
    arena->arena->wake_all();
    if (arena->engine != nullptr) {
        std::weak_ptr<ClientArena> weak = session.arena;
        (void)arena->engine->post([weak] { check_nb_fences(weak); });
    }
}

void arena_detach(Session &session)
{
    const std::shared_ptr<ClientArena> arena = session.arena;
    if (!arena) return;
    arena->server_lost.store(true, std::memory_order_release);
    arena->arena->wake_all();
    check_nb_fences(arena);
    stop_watching_bell(*arena);
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
