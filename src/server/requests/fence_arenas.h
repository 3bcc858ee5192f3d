// The fence arenas this server made (common/fence_arena/): one per job
// whose ranks all run here, so that a fence over the whole job needs no
// server in its path. The server still watches: a rank that ends makes it
// release the waiters with PMIX_ERR_LOST_CONNECTION and retire the arena
// (later whole-job fences take the server path, which knows who is gone),
// and it takes part for a client that does not use the arena (no mapping,
// PMIx_Fence_nb) so that both kinds meet in the same barrier.
#ifndef PMIXPP_SERVER_REQUESTS_FENCE_ARENAS_H
#define PMIXPP_SERVER_REQUESTS_FENCE_ARENAS_H

#include "common/fence_arena/arena.h"
#include "common/runtime/progress_engine.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server {

// A client whose whole-job fence the server takes part in, until released.
struct ArenaWaiter {
    uint64_t peer = 0;
    uint32_t tag = 0;
    arena::Ticket ticket;
    bool collect = false;
    std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct ServerArena {
    ServerArena() = default;
    ~ServerArena();  // removes the file
    ServerArena(const ServerArena &) = delete;
    ServerArena &operator=(const ServerArena &) = delete;

    std::unique_ptr<arena::Arena> arena;
    std::vector<ArenaWaiter> waiters;
    // Fences a client sent while its previous one still waits (two
    // PMIx_Fence_nb in a row): each arrives once the one before it is
    // released, as a member of the next generation, never twice in one.
    std::vector<ArenaWaiter> deferred;
    runtime::Timer poll;  // while waiters wait for clients that arrive themselves
    std::chrono::milliseconds poll_period{1};
};

struct FenceArenas {
    std::map<std::string, std::unique_ptr<ServerArena>> by_nspace;
    uint64_t next_serial = 1;
    std::set<std::string> swept_dirs;  // where orphans were already reaped
};

}  // namespace pmixpp::server

#endif
