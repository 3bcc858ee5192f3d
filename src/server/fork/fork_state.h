// What PMIx_server_setup_fork reads, kept where any thread can read it.
//
// Why not on the progress thread like every other call: a host may call
// setup_fork in the child it has just forked (Slurm's slurmstepd does, as
// OpenPMIx allows), and a forked child has no progress thread. So the
// progress thread publishes a copy of what the call needs whenever that
// changes (at init, at each namespace registration, while a namespace's
// local support is prepared), and setup_fork computes the child's
// environment from the copy on the caller's thread, in the parent and in a
// forked child alike.
//
// A mutex guards the copy, and fork() takes it first (pthread_atfork): the
// child of a fork never inherits it locked by another thread, and never sees
// a half-written copy.
#ifndef PMIXPP_SERVER_FORK_FORK_STATE_H
#define PMIXPP_SERVER_FORK_FORK_STATE_H

#include "server/fork/fork_env.h"
#include "server/fork/envars.h"

#include <pmix_common.h>
#include <pmixpp/pnet.h>

#include <optional>
#include <string>
#include <vector>

namespace pmixpp::server {

struct ForkPnet {
    std::string component;
    const pmixpp_pnet_module_t *module = nullptr;
};

// The server-wide part: the same for every child.
struct ForkServerState {
    EnvList environment;         // fork_environment() less the per-child entries
    std::string hostname;        // the server's own name for this node
    std::vector<ForkPnet> pnet;  // every active pnet module, best first
};

// One namespace's part.
struct ForkJobState {
    std::vector<pnet::EnvarDirective> envars;  // its environment directives
    bool local_support_pending = false;        // setup_local_support not done
    std::string hostname;                      // this node's name in its maps ("" unknown)
};

struct ForkView {
    ForkServerState server;
    std::optional<ForkJobState> job;
    bool in_forked_child = false;  // read in a child of the server's process
};

namespace fork_state {

// Progress thread: publishes, replaces, forgets.
void publish_server(ForkServerState state);
void publish_job(const std::string &nspace, ForkJobState state);
void forget_job(const std::string &nspace);
void clear();  // at finalize

// Any thread, also a forked child: a copy of what is published for
// `nspace`. False when no server published (before init, after finalize).
bool read(const std::string &nspace, ForkView *view_p);

// Progress thread: the clients the server has registered (their
// directories made), so that setup_fork after register_client needs no
// trip to the progress thread to make sure of it. Forgotten with the
// client, its namespace (forget_job) and at clear().
void note_registered(const std::string &nspace, pmix_rank_t rank);
void forget_registered(const std::string &nspace, pmix_rank_t rank);
// Any thread.
bool registered(const std::string &nspace, pmix_rank_t rank);

}  // namespace fork_state

// Progress thread: what the server holds now, published. (A job's part is
// published by pnet, which holds it: pnet/job_state.h.)
void publish_fork_server(const Server &server);

}  // namespace pmixpp::server

#endif
