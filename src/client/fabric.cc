// Fabric registration and updates (fabric topology, costs, device
// distances). Not built: they need a fabric backend no issue asks for yet;
// docs/api-coverage.md lists them as unscheduled.
#include <pmix.h>

pmix_status_t PMIx_Fabric_register(pmix_fabric_t * /*fabric*/,
                                   const pmix_info_t /*directives*/[], size_t /*ndirs*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Fabric_register_nb(pmix_fabric_t * /*fabric*/,
                                      const pmix_info_t /*directives*/[], size_t /*ndirs*/,
                                      pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Fabric_update(pmix_fabric_t * /*fabric*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Fabric_update_nb(pmix_fabric_t * /*fabric*/, pmix_op_cbfunc_t /*cbfunc*/,
                                    void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Fabric_deregister(pmix_fabric_t * /*fabric*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Fabric_deregister_nb(pmix_fabric_t * /*fabric*/,
                                        pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
