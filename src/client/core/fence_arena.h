// A client's use of its job's fence arena (common/fence_arena/):
// PMIx_Fence and PMIx_Fence_nb over the whole job meet the other ranks in
// shared memory, and a collecting one leaves each rank's data in its slot,
// read here only when a PMIx_Get first asks for that rank. Whatever the
// arena cannot do (another job's procs, a subset, no mapping) goes through
// the server as before; the server then takes part in the arena for this
// client, so both paths meet in one barrier.
//
// A Fence_nb arrives on the caller's thread and waits in none: the process
// listens on the arena's doorbell (common/fence_arena/layout.h), which its
// progress thread watches, and the release that completes the fence rings
// it. The progress thread then runs the callback, as it runs every callback
// of the library: an application's callbacks never run on two threads at
// once, and they come in the order of the calls. One whose own arrival
// completed the barrier is handed to the progress thread too (never a
// callback inside PMIx_Fence_nb). A rank's next fence arrives only after its
// previous one was released: one rank arriving twice in one generation
// would let the barrier open early. Where the doorbell cannot work (no FIFO,
// a host's event loop without edge-triggered events, a kernel that does not
// wake edge-triggered watchers at every write), Fence_nb goes through the
// server.
#ifndef PMIXPP_CLIENT_CORE_FENCE_ARENA_H
#define PMIXPP_CLIENT_CORE_FENCE_ARENA_H

#include <pmix_common.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "client/core/session.h"
#include "common/fence_arena/arena.h"
#include "common/runtime/progress_engine.h"
#include "common/wire/messages.h"

struct event;  // libevent's

namespace pmixpp::client {

// A Fence_nb waiting for its release (or, behind another, to arrive).
struct PendingArenaFence {
    std::optional<arena::Ticket> ticket;   // unset: arrives when it is first
    std::optional<pmix_status_t> outcome;  // set: its arrival completed the barrier
    std::optional<std::chrono::steady_clock::time_point> deadline;
    bool collect = false;
    std::function<void(pmix_status_t)> done;
};

struct ClientArena {
    ~ClientArena();  // pending fences end LOST_CONNECTION
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

    // Fence_nb (see above), in arrival order; the front one is the one at
    // the barrier. Guarded by nb_mutex; nb_changed signals blocking fences
    // waiting for the queue to empty.
    std::mutex nb_mutex;
    std::condition_variable nb_changed;
    std::deque<PendingArenaFence> nb_pending;
    bool listening = false;  // counted in the arena's bell listeners
    // The session's engine, where the doorbell is watched and callbacks run.
    runtime::ProgressEngine *engine = nullptr;
    // Set once, at the first Fence_nb: the doorbell is watched (or cannot be).
    std::atomic<int> bell_state{0};  // 0 not yet, 1 watched, -1 unusable
    // Progress thread only.
    ::event *bell_event = nullptr;
    runtime::Timer deadline_timer;
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
// PMIx_Fence_nb: true when the fence was taken by the arena (`done` then
// runs on the progress thread with its outcome); false when it is for the
// server.
bool arena_fence_nb(Session &session, const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                    std::function<void(pmix_status_t)> done);
// The connection to the server ended: fences waiting here give up.
void arena_server_lost(Session &session);
// The session ends (progress thread, before the engine stops): pending
// Fence_nb give up and the doorbell is no longer watched.
void arena_detach(Session &session);
// PMIx_Get of a peer of this job: brings its slot into the store when it
// changed since last read. Any thread.
void arena_import(const Session &session, const pmix_proc_t &target);

}  // namespace pmixpp::client

#endif
