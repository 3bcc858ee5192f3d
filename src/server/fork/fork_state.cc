#include "server/fork/fork_state.h"

#include "server/state/server.h"

#include <pthread.h>
#include <unistd.h>

#include <map>
#include <set>
#include <mutex>

namespace pmixpp::server {
namespace {

struct Published {
    std::optional<ForkServerState> server;
    pid_t server_pid = 0;  // the process that published it
    std::map<std::string, ForkJobState> jobs;
    std::map<std::string, std::set<pmix_rank_t>> registered;
};

// Leaked on purpose: a host may fork (and its child call setup_fork) while
// static destructors run at exit.
std::mutex &state_mutex()
{
    static auto *mutex = new std::mutex;
    return *mutex;
}

Published &published()
{
    static auto *state = new Published;
    return *state;
}

void lock_before_fork()
{
    state_mutex().lock();
}
void unlock_after_fork()
{
    state_mutex().unlock();
}

std::unique_lock<std::mutex> locked()
{
    static std::once_flag once;
    std::call_once(once, [] { (void)pthread_atfork(lock_before_fork, unlock_after_fork, unlock_after_fork); });
    return std::unique_lock(state_mutex());
}

}  // namespace

namespace fork_state {

void publish_server(ForkServerState state)
{
    auto lock = locked();
    published().server = std::move(state);
    published().server_pid = ::getpid();
}

void publish_job(const std::string &nspace, ForkJobState state)
{
    auto lock = locked();
    published().jobs[nspace] = std::move(state);
}

void forget_job(const std::string &nspace)
{
    auto lock = locked();
    published().jobs.erase(nspace);
    published().registered.erase(nspace);
}

void note_registered(const std::string &nspace, pmix_rank_t rank)
{
    auto lock = locked();
    published().registered[nspace].insert(rank);
}

void forget_registered(const std::string &nspace, pmix_rank_t rank)
{
    auto lock = locked();
    const auto found = published().registered.find(nspace);
    if (found == published().registered.end()) return;
    found->second.erase(rank);
    if (found->second.empty()) published().registered.erase(found);
}

bool registered(const std::string &nspace, pmix_rank_t rank)
{
    auto lock = locked();
    const auto found = published().registered.find(nspace);
    return found != published().registered.end() && found->second.count(rank) != 0;
}

void clear()
{
    auto lock = locked();
    published() = Published{};
}

bool read(const std::string &nspace, ForkView *view_p)
{
    auto lock = locked();
    const Published &now = published();
    if (!now.server) return false;
    view_p->server = *now.server;
    const auto job = now.jobs.find(nspace);
    view_p->job = job == now.jobs.end() ? std::nullopt : std::optional(job->second);
    view_p->in_forked_child = ::getpid() != now.server_pid;
    return true;
}

}  // namespace fork_state

void publish_fork_server(const Server &server)
{
    ForkServerState state;
    state.environment = fork_environment(server);
    state.hostname = server.config.hostname;
    for (const auto &selected : server.pnet_modules) {
        state.pnet.push_back({selected.component, static_cast<const pmixpp_pnet_module_t *>(selected.module)});
    }
    fork_state::publish_server(std::move(state));
}

}  // namespace pmixpp::server
