// Tool life cycle and the first server connection (rendezvous files).
// Issue 4 (tools, rendezvous) fills these in.
#include <pmix_tool.h>

pmix_status_t PMIx_tool_init(pmix_proc_t * /*proc*/, pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_tool_finalize(void)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

// Deprecated since PMIx v4 (declared in pmix_deprecated.h); kept for old
// tools, it will forward to PMIx_tool_attach_to_server.
pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t * /*proc*/, pmix_info_t /*info*/[],
                                          size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
