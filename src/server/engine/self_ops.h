// Plumbing of self_access.h: running the host's calls on the progress thread
// and making sure each completion runs exactly once, even when the server
// finalizes under a pending call. Progress thread only, except post_self.
#ifndef PMIXPP_SERVER_ENGINE_SELF_OPS_H
#define PMIXPP_SERVER_ENGINE_SELF_OPS_H

#include "server/state/server.h"

#include <pmix_common.h>

#include <cstddef>
#include <functional>
#include <memory>

namespace pmixpp::server {

// Runs work(server) on the progress thread later (never inside this call).
// If the server is gone by then, fail(PMIX_ERR_INIT) runs instead.
// PMIX_ERR_INIT when no server runs now (neither will run).
pmix_status_t post_self(std::function<void(Server &)> work, std::function<void(pmix_status_t)> fail);

// Wraps `done` so that it runs once: either through the returned function,
// or with `status` = PMIX_ERR_LOST_CONNECTION from fail_self_ops() when the
// server finalizes first.
template <typename Reply> std::function<void(Reply &)> track_self_op(Server &server, std::function<void(Reply &)> done)
{
    struct Once {
        std::function<void(Reply &)> done;
        bool fired = false;
        void fire(Reply &reply)
        {
            if (fired) return;
            fired = true;
            if (done) done(reply);
        }
    };
    auto once = std::make_shared<Once>();
    once->done = std::move(done);
    const uint64_t id = server.next_self_op++;
    server.self_ops[id] = [once](pmix_status_t status) {
        Reply reply;
        reply.status = status;
        once->fire(reply);
    };
    return [once, id](Reply &reply) {
        // Already failed by a finalize: the id may belong to a later server.
        if (once->fired) return;
        if (Server *now = current()) now->self_ops.erase(id);
        once->fire(reply);
    };
}

// Runs start(server, done) on the progress thread, with `done` guarded
// against a server that finalizes first (the shape of every self-access
// call that the server answers later).
template <typename Reply, typename Start> pmix_status_t run_on_server(std::function<void(Reply &)> done, Start start)
{
    auto shared_done = std::make_shared<std::function<void(Reply &)>>(std::move(done));
    return post_self(
        [shared_done, start = std::move(start)](Server &server) mutable {
            start(server, track_self_op<Reply>(server, std::move(*shared_done)));
        },
        [shared_done](pmix_status_t status) {
            Reply reply;
            reply.status = status;
            if (*shared_done) (*shared_done)(reply);
        });
}

// Whether a collective of the host names nobody but the host: it completes
// at once, with no upcall (an empty set counts as that too).
bool names_only_self(const Server &server, const pmix_proc_t procs[], std::size_t nprocs);

// PMIx_server_finalize: every pending self op completes with status.
void fail_self_ops(Server &server, pmix_status_t status);

}  // namespace pmixpp::server

#endif
