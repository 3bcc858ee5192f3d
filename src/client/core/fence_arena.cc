// A client's side of the fence arena (fence_arena.h).
#include "client/core/fence_arena.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>

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

}  // namespace

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
    if (arena == nullptr || arena->arena->disabled() || arena->server_lost.load() ||
        !whole_own_job(session, procs, nprocs)) {
        return false;
    }
    {
        std::lock_guard lock(arena->mutex);
        if (arena->record_stale && build_record(session, *arena) != PMIX_SUCCESS) return false;
        arena->arena->write_slot(session.self.rank, arena->record.data(), arena->record.size());
    }
    const arena::Ticket ticket = arena->arena->arrive();
    if (!ticket.completed_it && !arena->arena->released(ticket) && arena->arena->disabled()) {
        // Retired as we arrived (a rank ended): the server knows who is gone.
        return false;
    }
    *status_p = arena->arena->wait(ticket, deadline_of(info, ninfo), &arena->server_lost);
    if (*status_p == PMIX_SUCCESS && flag_of(info, ninfo, PMIX_COLLECT_DATA)) {
        arena->collected.store(true, std::memory_order_release);
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
