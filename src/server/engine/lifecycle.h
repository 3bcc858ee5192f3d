// PMIx_server_init / PMIx_server_finalize behind the C entry points.
#ifndef PMIXPP_SERVER_ENGINE_LIFECYCLE_H
#define PMIXPP_SERVER_ENGINE_LIFECYCLE_H

#include <pmix_server.h>

#include <cstddef>

namespace pmixpp::server {

// Reference counted: a second init only counts (its module and info are
// ignored, as OpenPMIx does); the matching number of finalizes stops it.
pmix_status_t start_server(const pmix_server_module_t *module, const pmix_info_t info[], std::size_t ninfo);
pmix_status_t stop_server();

}  // namespace pmixpp::server

#endif
