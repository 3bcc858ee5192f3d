#include "server/core/self_access.h"

#include "common/store/resolver.h"
#include "server/core/server.h"

namespace pmixpp::server {

bool server_running()
{
    return current() != nullptr;
}

pmix_status_t server_identity(pmix_proc_t *proc_p)
{
    if (proc_p == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_server([proc_p](Server &server) {
        *proc_p = make_proc(server.config.nspace, server.config.rank);
        return PMIX_SUCCESS;
    });
}

pmix_status_t server_get(const pmix_proc_t *target, const char *key, const pmix_info_t qualifiers[],
                         std::size_t nqualifiers, pmix_value_t **value_p)
{
    if (target == nullptr || key == nullptr || value_p == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_server([&](Server &server) {
        store::GetRequest request;
        request.target = target;
        request.key = key;
        request.qualifiers = qualifiers;
        request.nqualifiers = nqualifiers;
        request.modex_visibility = PMIX_GLOBAL;
        store::ValuePtr value;
        const pmix_status_t rc = store::get(*server.store, request, &value);
        if (rc == PMIX_SUCCESS) *value_p = value.release();
        return rc;
    });
}

}  // namespace pmixpp::server
