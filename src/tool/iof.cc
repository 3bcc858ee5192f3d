// Forwarded stdout/stderr/stdin for tools and clients. Issue 4 (tools)
// fills these in.
#include <pmix_tool.h>

pmix_status_t PMIx_IOF_pull(const pmix_proc_t /*procs*/[], size_t /*nprocs*/,
                            const pmix_info_t /*directives*/[], size_t /*ndirs*/,
                            pmix_iof_channel_t /*channel*/, pmix_iof_cbfunc_t /*cbfunc*/,
                            pmix_hdlr_reg_cbfunc_t /*regcbfunc*/, void * /*regcbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_IOF_deregister(size_t /*iofhdlr*/, const pmix_info_t /*directives*/[],
                                  size_t /*ndirs*/, pmix_op_cbfunc_t /*cbfunc*/,
                                  void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_IOF_push(const pmix_proc_t /*targets*/[], size_t /*ntargets*/,
                            pmix_byte_object_t * /*bo*/, const pmix_info_t /*directives*/[],
                            size_t /*ndirs*/, pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
