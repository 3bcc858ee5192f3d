#include "server/state/hooks.h"

namespace pmixpp::server {

namespace {

template <typename Entries, typename... Args> void run_all(const Entries &entries, Args &&...args)
{
    for (const auto &entry : entries) entry.hook(args...);
}

template <typename Entries, typename... Args> pmix_status_t run_until_failure(const Entries &entries, Args &&...args)
{
    for (const auto &entry : entries) {
        const pmix_status_t rc = entry.hook(args...);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

template <typename Entries> std::string list(const char *point, const Entries &entries)
{
    std::string text = std::string(point) + ":";
    for (const auto &entry : entries) text += std::string(" ") + entry.subsystem;
    return text;
}

}  // namespace

pmix_status_t Hooks::start(Server &server, const pmix_info_t info[], std::size_t ninfo) const
{
    return run_until_failure(start_, server, info, ninfo);
}

pmix_status_t Hooks::listening(Server &server, const pmix_info_t info[], std::size_t ninfo) const
{
    return run_until_failure(listening_, server, info, ninfo);
}

void Hooks::peer_lost(Server &server, const PeerLoss &loss) const
{
    run_all(peer_lost_, server, loss);
}

void Hooks::namespace_registered(Server &server, const std::string &nspace, const pmix_info_t info[],
                                 std::size_t ninfo) const
{
    run_all(namespace_registered_, server, nspace, info, ninfo);
}

void Hooks::namespace_deregistered(Server &server, const std::string &nspace) const
{
    run_all(namespace_deregistered_, server, nspace);
}

void Hooks::client_registered(Server &server, const pmix_proc_t &proc) const
{
    run_all(client_registered_, server, proc);
}

void Hooks::client_deregistered(Server &server, const pmix_proc_t &proc) const
{
    run_all(client_deregistered_, server, proc);
}

void Hooks::client_connected(Server &server, Peer &peer) const
{
    run_all(client_connected_, server, peer);
}

void Hooks::finalize_connected(Server &server) const
{
    run_all(finalize_connected_, server);
}

void Hooks::finalize_disconnected(Server &server) const
{
    run_all(finalize_disconnected_, server);
}

std::vector<std::string> Hooks::describe() const
{
    return {list("start", start_),
            list("listening", listening_),
            list("peer lost", peer_lost_),
            list("namespace registered", namespace_registered_),
            list("namespace deregistered", namespace_deregistered_),
            list("client registered", client_registered_),
            list("client deregistered", client_deregistered_),
            list("client connected", client_connected_),
            list("finalize, peers connected", finalize_connected_),
            list("finalize, peers gone", finalize_disconnected_)};
}

}  // namespace pmixpp::server
