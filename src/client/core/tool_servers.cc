#include "client/core/tool_servers.h"

#include <pmixpp/util.hpp>

#include <cstring>

#include "client/core/requests.h"
#include "common/runtime/log.h"

namespace pmixpp::client {

namespace {

using util::same_proc;

// The initialized tool session, or the status that says why there is none.
pmix_status_t tool_session(std::shared_ptr<Session> *session_p)
{
    auto session = current_session();
    if (!session) return PMIX_ERR_INIT;
    if (!session->tool) return PMIX_ERR_NOT_SUPPORTED;  // a client has exactly its launcher's server
    if (check_may_block(*session) != PMIX_SUCCESS) return PMIX_ERR_WOULD_BLOCK;
    *session_p = std::move(session);
    return PMIX_SUCCESS;
}

std::shared_ptr<ServerLink> link_of(const Session &session, const pmix_proc_t &server)
{
    for (const auto &link : session.links) {
        if (same_proc(link->server, server)) return link;
    }
    return nullptr;
}

}  // namespace

pmix_status_t attach_tool(const pmix_info_t info[], size_t ninfo, pmix_proc_t *myproc_p, pmix_proc_t *server_p)
{
    std::shared_ptr<Session> session;
    pmix_status_t rc = tool_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    ToolOptions options;
    std::string problem;
    rc = read_tool_options(info, ninfo, &options, &problem);
    if (rc == PMIX_SUCCESS) {
        // The tool is known by one name everywhere.
        options.nspace = session->self.nspace;
        options.rank = session->self.rank;
        std::shared_ptr<ServerLink> link;
        rc = connect_tool(session, options, &link, &problem);
        if (rc == PMIX_SUCCESS) {
            if (myproc_p != nullptr) *myproc_p = session->self;
            if (server_p != nullptr) *server_p = link->server;
            return PMIX_SUCCESS;
        }
    }
    runtime::log_warning("tool", "cannot attach to another server: " + problem);
    return rc;
}

pmix_status_t tool_servers(std::vector<pmix_proc_t> *servers_p)
{
    std::shared_ptr<Session> session;
    pmix_status_t rc = tool_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    std::vector<pmix_proc_t> servers;
    rc = session->engine->run_and_wait([&] {
        for (const auto &link : session->links) servers.push_back(link->server);
    });
    if (rc == PMIX_SUCCESS) *servers_p = std::move(servers);
    return rc;
}

namespace {

// Runs act(session, link) on the progress thread for the link to `server`;
// PMIX_ERR_NOT_FOUND when the tool has no connection to it.
template <typename Action> pmix_status_t with_link(const pmix_proc_t &server, Action act)
{
    std::shared_ptr<Session> session;
    pmix_status_t rc = tool_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    pmix_status_t found = PMIX_ERR_NOT_FOUND;
    rc = session->engine->run_and_wait([&] {
        auto link = link_of(*session, server);
        if (!link) return;
        act(*session, link);
        found = PMIX_SUCCESS;
    });
    return rc != PMIX_SUCCESS ? rc : found;
}

}  // namespace

pmix_status_t set_tool_server(const pmix_proc_t &server)
{
    return with_link(server,
                     [](Session &session, const std::shared_ptr<ServerLink> &link) { make_active(session, link); });
}

pmix_status_t disconnect_tool_server(const pmix_proc_t &server)
{
    return with_link(server, [](Session &session, const std::shared_ptr<ServerLink> &link) {
        close_link(session, link);
        // Without a server the tool goes on standalone: its own data is local.
        if (session.links.empty()) session.singleton = true;
    });
}

}  // namespace pmixpp::client
