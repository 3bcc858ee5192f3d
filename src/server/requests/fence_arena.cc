// The server's side of the fence arenas (fence_arenas.h): made when a job
// whose ranks all run here is registered, named in its clients' Welcome,
// retired when a rank ends, removed with the job.
//
// A client that fences through the server while its job has a live arena
// (it could not map the file, its gds is another, it called
// PMIx_Fence_nb) is represented in the arena by the server: its data goes
// into its slot from the store, the server arrives for it, and answers it
// once the barrier is released. When the server's arrival is the last one,
// that is at once; otherwise a short poll notices the release done by a
// client's arrival (such mixed fences are the rare case). A client's second
// fence sent before its first was answered waits for that release, then
// arrives in the next generation.
#include "common/runtime/log.h"
#include "server/state/peer_io.h"
#include "server/state/info_read.h"
#include "server/requests/participants.h"
#include "server/requests/requests.h"
#include "server/requests/fence_arenas.h"

#include <pmixpp/util.hpp>

#include <cstdlib>
#include <cstring>
#include <string>

namespace pmixpp::server {
namespace {

constexpr const char *kServerEnableEnv = "PMIX_MCA_pmix_server_fence_arena";
constexpr const char *kSlotBytesEnv = "PMIX_MCA_pmix_server_fence_arena_slot_bytes";
constexpr uint32_t kDefaultSlotBytes = 64 * 1024;
constexpr std::chrono::milliseconds kLongestPoll{8};

bool arenas_enabled()
{
    const char *value = std::getenv(kServerEnableEnv);
    return value == nullptr || std::strcmp(value, "0") != 0;
}

uint32_t slot_bytes()
{
    const char *value = std::getenv(kSlotBytesEnv);
    if (value == nullptr || value[0] == '\0') return kDefaultSlotBytes;
    char *end = nullptr;
    const unsigned long long bytes = std::strtoull(value, &end, 10);
    if (*end != '\0' || bytes > (1ull << 24)) {
        runtime::log_warning("server", std::string(kSlotBytesEnv) + "=" + value +
                                           " is not a byte count up to 16 MiB; using " +
                                           std::to_string(kDefaultSlotBytes));
        return kDefaultSlotBytes;
    }
    return static_cast<uint32_t>(bytes);
}

ServerArena *find_arena(Server &server, const std::string &nspace)
{
    auto it = server.part<FenceArenas>().by_nspace.find(nspace);
    return it == server.part<FenceArenas>().by_nspace.end() ? nullptr : it->second.get();
}

using util::nspace_of;

// A fence over exactly the caller's whole job: no procs, or {own, WILDCARD}.
bool whole_own_job(const Peer &peer, const wire::FenceRequest &request)
{
    if (request.procs.empty()) return true;
    return request.procs.size() == 1 && request.procs[0].rank == PMIX_RANK_WILDCARD &&
           strncmp(request.procs[0].nspace, peer.proc.nspace, PMIX_MAX_NSLEN) == 0;
}

// Every rank's data as the slots hold it: the reply of a represented client.
wire::Bytes collected_from_slots(const arena::Arena &arena)
{
    wire::Bytes all;
    std::vector<uint8_t> record;
    for (uint32_t rank = 0; rank < arena.nprocs(); ++rank) {
        uint32_t version = 0;
        if (arena.read_slot(rank, &record, &version) == arena::SlotState::data) {
            all.insert(all.end(), record.begin(), record.end());
        }
    }
    return all;
}

void answer_status(Server &server, const ArenaWaiter &waiter, pmix_status_t status)
{
    wire::FenceReply reply;
    reply.status = status;
    reply_to(server, waiter.peer, waiter.tag, reply);
}

struct Answered {
    ArenaWaiter waiter;
    pmix_status_t status = PMIX_SUCCESS;
};

bool reads_data(Server &server, const Answered &done)
{
    return done.status == PMIX_SUCCESS && done.waiter.collect && reads_collected_data(server, done.waiter.peer);
}

// The represented waiters one pass released or timed out. The slots' data
// is gathered (and shared) once for all that read it; an OpenPMIx peer
// gets its status alone and fetches the data with a get.
void answer_all(Server &server, const ServerArena &entry, const std::vector<Answered> &answered)
{
    std::size_t readers = 0;
    for (const Answered &done : answered) readers += reads_data(server, done) ? 1 : 0;
    wire::FenceReply with_data;
    if (readers > 0) {
        with_data.data = collected_from_slots(*entry.arena);
        share_collected(server, readers, with_data);
    }
    for (const Answered &done : answered) {
        if (reads_data(server, done)) {
            reply_to(server, done.waiter.peer, done.waiter.tag, with_data);
        } else {
            answer_status(server, done.waiter, done.status);
        }
    }
}

pmix_status_t represent_in_slot(Server &server, const Peer &peer, arena::Arena &arena);
void answer_ready(Server &server, ServerArena &entry);

bool is_waiting(const ServerArena &entry, uint64_t peer)
{
    for (const ArenaWaiter &waiter : entry.waiters) {
        if (waiter.peer == peer) return true;
    }
    return false;
}

// The deferred fences whose client no longer waits arrive now, in the
// order they came; true when one did. Once the arena is retired they are
// answered with the status its waiters got.
bool arrive_deferred(Server &server, ServerArena &entry)
{
    bool arrived = false;
    std::vector<ArenaWaiter> still;
    for (ArenaWaiter &waiter : entry.deferred) {
        Peer *peer = server.find_peer(waiter.peer);
        if (peer == nullptr || is_waiting(entry, waiter.peer)) {
            if (peer != nullptr) still.push_back(waiter);
            continue;
        }
        if (entry.arena->disabled() || represent_in_slot(server, *peer, *entry.arena) != PMIX_SUCCESS) {
            answer_status(server, waiter, PMIX_ERR_LOST_CONNECTION);
            continue;
        }
        waiter.ticket = entry.arena->arrive();
        entry.waiters.push_back(waiter);
        arrived = true;
    }
    entry.deferred = std::move(still);
    return arrived;
}

// Answers the waiters whose generation was released or whose time ran
// out, then lets deferred fences arrive; true when some still wait.
bool answer_released(Server &server, ServerArena &entry)
{
    do {
        answer_ready(server, entry);
    } while (arrive_deferred(server, entry));
    return !entry.waiters.empty() || !entry.deferred.empty();
}

void answer_ready(Server &server, ServerArena &entry)
{
    const auto now = std::chrono::steady_clock::now();
    std::vector<ArenaWaiter> waiting;
    std::vector<Answered> answered;
    for (const ArenaWaiter &waiter : entry.waiters) {
        if (entry.arena->released(waiter.ticket)) {
            answered.push_back({waiter, entry.arena->outcome(waiter.ticket)});
        } else if (waiter.deadline && now >= *waiter.deadline && entry.arena->withdraw(waiter.ticket)) {
            answered.push_back({waiter, PMIX_ERR_TIMEOUT});
        } else if (entry.arena->released(waiter.ticket)) {
            answered.push_back({waiter, entry.arena->outcome(waiter.ticket)});  // completed meanwhile
        } else {
            waiting.push_back(waiter);
        }
    }
    entry.waiters = std::move(waiting);
    answer_all(server, entry, answered);
}

void schedule_poll(Server &server, const std::string &nspace, ServerArena &entry)
{
    if (entry.poll.pending()) return;
    entry.poll = server.engine.add_timer(entry.poll_period, [nspace] {
        Server *now = current();
        ServerArena *found = now == nullptr ? nullptr : find_arena(*now, nspace);
        if (found == nullptr) return;
        if (!answer_released(*now, *found)) return;
        found->poll_period = std::min(found->poll_period * 2, kLongestPoll);
        schedule_poll(*now, nspace, *found);
    });
}

pmix_status_t represent_in_slot(Server &server, const Peer &peer, arena::Arena &arena)
{
    wire::ProcData record;
    pmix_status_t rc = proc_modex(server, peer.proc, PMIX_LOCAL, &record);
    wire::Bytes bytes;
    const bool empty = record.info.empty();
    std::vector<wire::ProcData> records;
    records.push_back(std::move(record));
    if (rc == PMIX_SUCCESS && !empty) rc = wire::encode_modex(records, &bytes);
    if (rc == PMIX_SUCCESS) arena.write_slot(peer.proc.rank, bytes.data(), bytes.size());
    return rc;
}

void retire(ServerArena &entry, pmix_status_t status)
{
    entry.arena->disable(status);
}

}  // namespace

ServerArena::~ServerArena()
{
    poll.cancel();
    if (arena) {
        arena->disable(PMIX_ERR_LOST_CONNECTION);
        (void)::unlink(arena->path().c_str());
        (void)::unlink(arena::bell_path(arena->path()).c_str());
    }
}

void open_fence_arena(Server &server, const std::string &nspace)
{
    server.part<FenceArenas>().by_nspace.erase(nspace);  // a re-registration starts afresh
    const Namespace *ns = server.find_namespace(nspace);
    if (ns == nullptr || !ns->all_local() || ns->summary.job_size < 2 || ns->summary.job_size > arena::kMaxProcs ||
        !arenas_enabled()) {
        return;
    }
    const std::string dir = arena::arena_directory(server.config.server_tmpdir);
    if (server.part<FenceArenas>().swept_dirs.insert(dir).second) {
        if (const int reaped = arena::reap_orphans(dir); reaped > 0) {
            runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                               "removed " + std::to_string(reaped) +
                                   " fence arena(s) of servers no longer running from " + dir);
        }
    }
    std::optional<std::pair<uint32_t, uint32_t>> owner;
    if (server.config.job_uid)
        owner = std::make_pair(*server.config.job_uid, server.config.job_gid.value_or(::getgid()));
    auto entry = std::make_unique<ServerArena>();
    std::string why;
    const pmix_status_t rc =
        arena::Arena::create(arena::arena_path(dir, server.part<FenceArenas>().next_serial++), nspace,
                             ns->summary.job_size, slot_bytes(), owner, &entry->arena, &why);
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server", "no fence arena for " + nspace + " (" + why +
                                           "): its fences go through the server; set " +
                                           "PMIX_MCA_pmix_fence_arena_dir to a writable tmpfs directory");
        return;
    }
    server.part<FenceArenas>().by_nspace[nspace] = std::move(entry);
}

void close_fence_arena(Server &server, const std::string &nspace)
{
    ServerArena *entry = find_arena(server, nspace);
    if (entry == nullptr) return;
    for (const ArenaWaiter &waiter : entry->waiters) answer_status(server, waiter, PMIX_ERR_NOT_FOUND);
    for (const ArenaWaiter &waiter : entry->deferred) answer_status(server, waiter, PMIX_ERR_NOT_FOUND);
    entry->waiters.clear();
    entry->deferred.clear();
    server.part<FenceArenas>().by_nspace.erase(nspace);
}

void close_all_fence_arenas(Server &server)
{
    while (!server.part<FenceArenas>().by_nspace.empty()) {
        const std::string nspace = server.part<FenceArenas>().by_nspace.begin()->first;
        ServerArena &entry = *server.part<FenceArenas>().by_nspace.begin()->second;
        for (const ArenaWaiter &waiter : entry.waiters) answer_status(server, waiter, PMIX_ERR_LOST_CONNECTION);
        for (const ArenaWaiter &waiter : entry.deferred) answer_status(server, waiter, PMIX_ERR_LOST_CONNECTION);
        server.part<FenceArenas>().by_nspace.erase(nspace);
    }
}

void add_arena_welcome(Server &server, const std::string &nspace, wire::InfoArray &info)
{
    const ServerArena *entry = find_arena(server, nspace);
    if (entry == nullptr || entry->arena->disabled()) return;
    const std::size_t n = info.size();
    wire::InfoArray grown;
    // Without memory the client simply fences through the server.
    if (grown.allocate(n + 1) != PMIX_SUCCESS) return;
    for (std::size_t i = 0; i < n; ++i) {
        if (PMIx_Info_xfer(&grown[i], &info[i]) != PMIX_SUCCESS) return;
    }
    PMIX_INFO_LOAD(&grown[n], arena::kWelcomeKey, entry->arena->path().c_str(), PMIX_STRING);
    info = std::move(grown);
}

bool arena_fence(Server &server, Peer &peer, uint32_t tag, const wire::FenceRequest &request)
{
    ServerArena *entry = find_arena(server, nspace_of(peer.proc));
    if (entry == nullptr || entry->arena->disabled() || !whole_own_job(peer, request)) return false;
    const bool after_previous = is_waiting(*entry, peer.id);
    if (!after_previous && represent_in_slot(server, peer, *entry->arena) != PMIX_SUCCESS) return false;
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       describe(peer) + " fences through the server: it arrives in the fence arena for it");
    ArenaWaiter waiter;
    waiter.peer = peer.id;
    waiter.tag = tag;
    waiter.collect = directive_flag(request.directives.data(), request.directives.size(), PMIX_COLLECT_DATA);
    if (auto seconds = directive_timeout(request.directives.data(), request.directives.size())) {
        waiter.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(*seconds);
    }
    if (after_previous) {
        entry->deferred.push_back(waiter);  // arrives once the previous one is released
        return true;
    }
    waiter.ticket = entry->arena->arrive();
    entry->waiters.push_back(waiter);
    entry->poll_period = std::chrono::milliseconds{1};
    if (answer_released(server, *entry)) schedule_poll(server, nspace_of(peer.proc), *entry);
    return true;
}

void arena_peer_lost(Server &server, const Peer &peer)
{
    ServerArena *entry = find_arena(server, nspace_of(peer.proc));
    if (entry == nullptr || entry->arena->disabled()) return;
    retire(*entry, PMIX_ERR_LOST_CONNECTION);
    (void)answer_released(server, *entry);
}

}  // namespace pmixpp::server
