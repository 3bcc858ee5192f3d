#include "server/state/server.h"

#include <algorithm>

#include "common/values/value_ops.h"

#include <atomic>
#include <optional>
#include <mutex>
#include <cstring>
#include <new>

namespace pmixpp::server {

namespace {
std::atomic<Server *> g_server{nullptr};
}  // namespace

namespace {

void destruct_all(std::vector<pmix_info_t> &info)
{
    for (auto &item : info) values::info_destruct(&item);
    info.clear();
}

}  // namespace

bool HostHandlers::wants(pmix_status_t code) const
{
    if (!sink) return false;
    for (const auto &registration : registrations) {
        if (registration.codes.empty()) return true;
        for (pmix_status_t wanted : registration.codes) {
            if (wanted == code) return true;
        }
    }
    return false;
}

bool HostHandlers::names(pmix_status_t code) const
{
    if (!sink) return false;
    for (const auto &registration : registrations) {
        if (std::find(registration.codes.begin(), registration.codes.end(), code) != registration.codes.end())
            return true;
    }
    return false;
}

Server::~Server()
{
    for (auto &staged : staged_puts) values::info_destruct(&staged.info);
    for (auto &[id, node] : resources) destruct_all(node.info);
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

pmix_proc_t Server::self_proc() const
{
    return make_proc(config.nspace, config.rank);
}

bool Server::is_self(const pmix_proc_t &proc) const
{
    return proc.rank == config.rank && config.nspace == std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN));
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

std::string Server::openpmix_contact() const
{
    for (const char *scheme : {"tcp4://", "tcp6://"}) {
        for (const auto &listener : listeners) {
            const std::string &uri = listener.socket.uri;
            if (uri.rfind(scheme, 0) == 0) return config.nspace + "." + std::to_string(config.rank) + ";" + uri;
        }
    }
    return {};
}

Server *current()
{
    return g_server.load();
}

namespace {

struct PublishedIdentity {
    std::mutex mutex;
    std::optional<pmix_proc_t> self;
    uint64_t generation = 0;
};

// Leaked on purpose, like the server: read by host threads until exit.
PublishedIdentity &identity()
{
    static auto *published = new PublishedIdentity;
    return *published;
}

}  // namespace

void set_current(Server *server)
{
    {
        // The config does not change while the server runs: copied here,
        // read from any thread.
        PublishedIdentity &published = identity();
        std::lock_guard lock(published.mutex);
        published.self = server != nullptr ? std::optional(server->self_proc()) : std::nullopt;
        ++published.generation;
    }
    g_server.store(server);
}

bool published_identity(pmix_proc_t *self_p, uint64_t *generation_p)
{
    PublishedIdentity &published = identity();
    std::lock_guard lock(published.mutex);
    if (!published.self) return false;
    *self_p = *published.self;
    if (generation_p != nullptr) *generation_p = published.generation;
    return true;
}

pmix_status_t with_server(const std::function<pmix_status_t(Server &)> &fn)
{
    if (g_server.load() == nullptr) return PMIX_ERR_INIT;
    pmix_status_t result = PMIX_ERR_INIT;
    // The engine of every server is the process's; the server itself is
    // looked up again on the progress thread (it may be finalized by then).
    const pmix_status_t rc = runtime::ProgressEngine::process().run_and_wait([&] {
        Server *now = g_server.load();
        if (now != nullptr) result = fn(*now);
    });
    return rc != PMIX_SUCCESS ? rc : result;
}

void post_to_server(std::function<void(Server &)> fn)
{
    if (g_server.load() == nullptr) return;
    post_later([fn = std::move(fn)] {
        if (Server *now = g_server.load()) fn(*now);
    });
}

pmix_status_t post_later(std::function<void()> fn)
{
    return runtime::ProgressEngine::process().post(std::move(fn));
}

pmix_status_t op_result(pmix_status_t rc, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (rc != PMIX_SUCCESS) return rc;
    if (cbfunc == nullptr) return PMIX_OPERATION_SUCCEEDED;
    try {
        if (post_later([cbfunc, cbdata] { cbfunc(PMIX_SUCCESS, cbdata); }) == PMIX_SUCCESS) {
            return PMIX_SUCCESS;
        }
    } catch (const std::bad_alloc &) {
    }
    // Done, but no callback can be scheduled: the answer that promises none.
    return PMIX_OPERATION_SUCCEEDED;
}

}  // namespace pmixpp::server
