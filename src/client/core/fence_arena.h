// A client's use of its job's fence arena (common/fence_arena/):
// a blocking PMIx_Fence over the whole job meets the other ranks in shared
// memory, and a collecting one leaves each rank's data in its slot, read
// here only when a PMIx_Get first asks for that rank. Whatever the arena
// cannot do (another job's procs, a subset, PMIx_Fence_nb, no mapping)
// goes through the server as before; the server then takes part in the
// arena for this client, so both paths meet in one barrier.
#ifndef PMIXPP_CLIENT_CORE_FENCE_ARENA_H
#define PMIXPP_CLIENT_CORE_FENCE_ARENA_H

#include <pmix_common.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "client/core/session.h"
#include "common/fence_arena/arena.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

struct ClientArena {
    std::unique_ptr<arena::Arena> arena;
    std::mutex mutex;
    // What this rank committed for its local peers (local and global
    // scope), and its encoded record, rebuilt after a commit.
    std::map<std::string, store::ValuePtr> committed;
    bool record_stale = true;
    wire::Bytes record;
    // The slot version of each rank last imported into the store (read
    // without the mutex: a Get of an unchanged peer takes no lock).
    std::unique_ptr<std::atomic<uint32_t>[]> imported;
    // A collecting fence completed here: peers' slots are worth reading.
    std::atomic<bool> collected{false};
    // The server connection ended: nobody would release us on a rank's death.
    std::atomic<bool> server_lost{false};
};

// Maps the arena the Welcome named, unless PMIX_MCA_pmix_fence_arena=0.
// A client that cannot keeps fencing through the server.
void attach_arena(Session &session, const wire::InfoArray &welcome_info);
// PMIx_Commit: what the rank's slot must carry from now on.
void arena_note_commit(Session &session, const wire::CommitRequest &request);
// PMIx_Fence: true when the fence was done in the arena (*status_p is its
// outcome); false when it is for the server.
bool arena_fence(Session &session, const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                 pmix_status_t *status_p);
// The connection to the server ended: fences waiting here give up.
void arena_server_lost(Session &session);
// PMIx_Get of a peer of this job: brings its slot into the store when it
// changed since last read. Any thread.
void arena_import(const Session &session, const pmix_proc_t &target);

}  // namespace pmixpp::client

#endif
