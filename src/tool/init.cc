// Tool life cycle: PMIx_tool_init / PMIx_tool_finalize share the client's
// session machinery (src/client/core: lifecycle.cc, tool_start.cc).
#include <pmix_tool.h>

#include <new>

#include "client/core/session.h"
#include "client/core/tool_servers.h"

using pmixpp::client::Role;

pmix_status_t PMIx_tool_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    try {
        return pmixpp::client::initialize(info, ninfo, proc, Role::tool);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_tool_finalize(void)
{
    try {
        return pmixpp::client::finalize(nullptr, 0);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// Deprecated since PMIx v4 (declared in pmix_deprecated.h): attach to the
// server and make it the one requests go to.
pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    try {
        pmix_proc_t server;
        pmix_status_t rc = pmixpp::client::attach_tool(info, ninfo, proc, &server);
        return rc != PMIX_SUCCESS ? rc : pmixpp::client::set_tool_server(server);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
