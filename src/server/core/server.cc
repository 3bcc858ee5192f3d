#include "server/core/server.h"

#include <atomic>
#include <cstring>

namespace pmixpp::server {

namespace {
std::atomic<Server *> g_server{nullptr};
}  // namespace

Server::~Server()
{
    store.reset();
    if (own_topology && topology != nullptr) hwloc_topology_destroy(topology);
}

Namespace *Server::find_namespace(const std::string &name)
{
    auto found = namespaces.find(name);
    return found == namespaces.end() ? nullptr : &found->second;
}

Namespace *Server::find_namespace(const char *nspace)
{
    return find_namespace(std::string(nspace, strnlen(nspace, PMIX_MAX_NSLEN)));
}

Namespace &Server::namespace_entry(const std::string &name)
{
    Namespace &entry = namespaces[name];
    entry.name = name;
    return entry;
}

ClientRecord *Server::find_client(const pmix_proc_t &proc)
{
    Namespace *ns = find_namespace(proc.nspace);
    if (ns == nullptr) return nullptr;
    auto found = ns->clients.find(proc.rank);
    return found == ns->clients.end() ? nullptr : &found->second;
}

Peer *Server::find_peer(PeerId id)
{
    auto found = peers.find(id);
    return found == peers.end() ? nullptr : found->second.get();
}

std::vector<std::string> Server::uris() const
{
    std::vector<std::string> all;
    for (const auto &listener : listeners) all.emplace_back(listener.socket.uri);
    return all;
}

Server *current()
{
    return g_server.load();
}

void set_current(Server *server)
{
    g_server.store(server);
}

pmix_status_t with_server(const std::function<pmix_status_t(Server &)> &fn)
{
    Server *server = g_server.load();
    if (server == nullptr) return PMIX_ERR_INIT;
    pmix_status_t result = PMIX_ERR_INIT;
    const pmix_status_t rc = server->engine.run_and_wait([&] {
        Server *now = g_server.load();
        if (now != nullptr) result = fn(*now);
    });
    return rc != PMIX_SUCCESS ? rc : result;
}

void post_to_server(std::function<void(Server &)> fn)
{
    Server *server = g_server.load();
    if (server == nullptr) return;
    server->engine.post([fn = std::move(fn)] {
        if (Server *now = g_server.load()) fn(*now);
    });
}

}  // namespace pmixpp::server
