// Attaching to, switching between and leaving servers
// (src/client/core/tool_servers.h does the work).
#include <pmix_tool.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "client/core/tool_servers.h"

pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t *myproc, pmix_proc_t *server, pmix_info_t info[], size_t ninfo)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    try {
        return pmixpp::client::attach_tool(info, ninfo, myproc, server);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_tool_disconnect(const pmix_proc_t *server)
{
    if (server == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        return pmixpp::client::disconnect_tool_server(*server);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// The array comes from calloc: the caller frees it with PMIX_PROC_FREE.
pmix_status_t PMIx_tool_get_servers(pmix_proc_t *servers[], size_t *nservers)
{
    if (servers == nullptr || nservers == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        std::vector<pmix_proc_t> found;
        pmix_status_t rc = pmixpp::client::tool_servers(&found);
        if (rc != PMIX_SUCCESS) return rc;
        pmix_proc_t *array = nullptr;
        if (!found.empty()) {
            array = static_cast<pmix_proc_t *>(std::calloc(found.size(), sizeof(pmix_proc_t)));
            if (array == nullptr) return PMIX_ERR_NOMEM;
            for (size_t i = 0; i < found.size(); ++i) array[i] = found[i];
        }
        *servers = array;
        *nservers = found.size();
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_tool_set_server(const pmix_proc_t *server, pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    if (server == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        return pmixpp::client::set_tool_server(*server);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
