// Output the host forwards to tools. Issue 4 (tools) fills this in.
#include <pmix_server.h>

pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t * /*source*/,
                                      pmix_iof_channel_t /*channel*/,
                                      const pmix_byte_object_t * /*bo*/,
                                      const pmix_info_t /*info*/[], size_t /*ninfo*/,
                                      pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
