// Attaching to, switching between and leaving servers. Issue 4 (tools,
// rendezvous) fills these in.
#include <pmix_tool.h>

pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t * /*myproc*/, pmix_proc_t * /*server*/,
                                         pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_tool_disconnect(const pmix_proc_t * /*server*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_tool_get_servers(pmix_proc_t * /*servers*/[], size_t * /*nservers*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_tool_set_server(const pmix_proc_t * /*server*/, pmix_info_t /*info*/[],
                                   size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
