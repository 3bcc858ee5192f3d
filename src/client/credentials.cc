// Security credentials through psec. Issue 3 (server/client core) fills
// these in.
#include <pmix.h>

#include "client/no_results.h"

pmix_status_t PMIx_Get_credential(const pmix_info_t /*info*/[], size_t /*ninfo*/,
                                  pmix_byte_object_t * /*credential*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Get_credential_nb(const pmix_info_t /*info*/[], size_t /*ninfo*/,
                                     pmix_credential_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Validate_credential(const pmix_byte_object_t * /*cred*/,
                                       const pmix_info_t /*info*/[], size_t /*ninfo*/,
                                       pmix_info_t **results, size_t *nresults)
{
    pmixpp::client::no_results(results, nresults);
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Validate_credential_nb(const pmix_byte_object_t * /*cred*/,
                                          const pmix_info_t /*info*/[], size_t /*ninfo*/,
                                          pmix_validation_cbfunc_t /*cbfunc*/,
                                          void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
