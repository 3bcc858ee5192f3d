// For the client side of the library in a process that runs the server: a
// host may call PMIx_Get (and friends) on its own server's data without
// connecting to itself. src/client calls these when server_running().
#ifndef PMIXPP_SERVER_CORE_SELF_ACCESS_H
#define PMIXPP_SERVER_CORE_SELF_ACCESS_H

#include <pmix_common.h>

#include <cstddef>

namespace pmixpp::server {

bool server_running();

// The server's own identity (PMIX_SERVER_NSPACE / PMIX_SERVER_RANK).
pmix_status_t server_identity(pmix_proc_t *proc_p);

// PMIx_Get against the server's store: registered job data of every
// namespace it serves and every modex value it holds (any scope). The value
// is malloc'ed (PMIX_VALUE_RELEASE). PMIX_ERR_INIT when no server runs,
// PMIX_ERR_NOT_FOUND when nothing matches; never waits for data.
pmix_status_t server_get(const pmix_proc_t *target, const char *key, const pmix_info_t qualifiers[],
                         std::size_t nqualifiers, pmix_value_t **value_p);

}  // namespace pmixpp::server

#endif
