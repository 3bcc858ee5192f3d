// Server life cycle: PMIx_server_init / PMIx_server_finalize (the work is in
// engine/lifecycle.cc).
#include <pmix_server.h>

#include "server/engine/lifecycle.h"

pmix_status_t PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[], size_t ninfo)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    return pmixpp::server::start_server(module, info, ninfo);
}

pmix_status_t PMIx_server_finalize(void)
{
    return pmixpp::server::stop_server();
}
