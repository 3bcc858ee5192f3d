// Event handler registration and notification. Issue 3 (server/client
// core) fills these in.
#include <pmix.h>

pmix_status_t PMIx_Register_event_handler(pmix_status_t /*codes*/[], size_t /*ncodes*/,
                                          pmix_info_t /*info*/[], size_t /*ninfo*/,
                                          pmix_notification_fn_t /*evhdlr*/,
                                          pmix_hdlr_reg_cbfunc_t /*cbfunc*/,
                                          void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Deregister_event_handler(size_t /*evhdlr_ref*/,
                                            pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Notify_event(pmix_status_t /*status*/, const pmix_proc_t * /*source*/,
                                pmix_data_range_t /*range*/, const pmix_info_t /*info*/[],
                                size_t /*ninfo*/, pmix_op_cbfunc_t /*cbfunc*/,
                                void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
