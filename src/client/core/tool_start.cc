// PMIx_tool_init's start: find a server (tool_discovery.h), connect with
// bounded retries, or run standalone when the tool asked for that.
#include <unistd.h>

#include <thread>

#include <pmix.h>

#include "client/core/handshake.h"
#include "client/core/singleton.h"
#include "client/core/starts.h"
#include "client/core/tool_discovery.h"
#include "client/core/tool_servers.h"
#include "common/runtime/log.h"

namespace pmixpp::client {

namespace {

// "tool.<host>.<pid>", the pid kept whole when it must be shortened.
std::string generated_nspace(const std::string &hostname)
{
    const std::string pid = "." + std::to_string(::getpid());
    std::string head = "tool." + hostname;
    if (head.size() + pid.size() > PMIX_MAX_NSLEN) head.resize(PMIX_MAX_NSLEN - pid.size());
    return head + pid;
}

// Worth another try later: nothing found yet, or nobody answered.
bool retryable(pmix_status_t rc)
{
    return rc == PMIX_ERR_UNREACH || rc == PMIX_ERR_TIMEOUT || rc == PMIX_ERR_LOST_CONNECTION;
}

pmix_status_t start_standalone(const std::shared_ptr<Session> &session, const ToolOptions &options)
{
    pmix_status_t rc =
        start_singleton(*session, options.nspace.empty() ? generated_nspace(options.hostname) : options.nspace);
    if (rc == PMIX_SUCCESS && options.rank != PMIX_RANK_UNDEF && options.rank != 0) {
        session->self.rank = options.rank;
        rc = register_tool_self(session->self.nspace, options.rank, session->hostname, *session->store);
    }
    return rc;
}

}  // namespace

pmix_status_t connect_tool(const std::shared_ptr<Session> &session, const ToolOptions &options,
                           std::shared_ptr<ServerLink> *link_p, std::string *problem_p)
{
    pmix_status_t rc = PMIX_ERR_UNREACH;
    for (unsigned attempt = 0; attempt <= options.max_retries; ++attempt) {
        if (attempt > 0) std::this_thread::sleep_for(options.retry_delay);
        ServerContact contact;
        rc = find_tool_server(options, &contact, problem_p);
        if (rc == PMIX_SUCCESS) {
            rc = start_connected(session, contact, link_p);
            if (rc == PMIX_SUCCESS) return PMIX_SUCCESS;
            *problem_p =
                "cannot connect to the PMIx server found in " + contact.found_in + ": " + PMIx_Error_string(rc);
        }
        if (!retryable(rc)) break;
    }
    return rc;
}

pmix_status_t start_tool(const std::shared_ptr<Session> &session, const pmix_info_t info[], size_t ninfo)
{
    ToolOptions options;
    std::string problem;
    pmix_status_t rc = read_tool_options(info, ninfo, &options, &problem);
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("tool", problem + " (check the attributes given to PMIx_tool_init)");
        return rc;
    }
    session->hostname = options.hostname;
    if (options.do_not_connect) return start_standalone(session, options);
    rc = connect_tool(session, options, nullptr, &problem);
    if (rc == PMIX_SUCCESS) return PMIX_SUCCESS;
    if (options.connect_optional) {
        tool_trace("running standalone: " + problem);
        return start_standalone(session, options);
    }
    runtime::log_warning("tool", problem);
    return rc;
}

}  // namespace pmixpp::client
