// Named process sets defined by the host. Kept by the server so that
// PMIx_Query_info answers PMIX_QUERY_NUM_PSETS / PMIX_QUERY_PSET_NAMES.
// (Membership events to clients, PMIX_PROCESS_SET_DEFINE, are not sent yet.)
// Both complete before returning and, as in OpenPMIx 4.2 (which has no
// callback for them), say so with PMIX_OPERATION_SUCCEEDED. Unlike
// OpenPMIx, a name defined twice or deleted while unknown is an error.
#include <pmix_server.h>

#include "server/state/server.h"

#include <cstring>
#include <new>
#include <string>

using namespace pmixpp::server;

pmix_status_t PMIx_server_define_process_set(const pmix_proc_t *members, size_t nmembers, const char *pset_name)
{
    if (pset_name == nullptr || pset_name[0] == '\0' || (members == nullptr && nmembers > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        const std::string name = pset_name;
        std::vector<pmix_proc_t> procs(members, members + nmembers);
        return with_server([&](Server &server) {
            if (server.psets.count(name) != 0) return PMIX_ERR_EXISTS;
            server.psets[name] = std::move(procs);
            return PMIX_OPERATION_SUCCEEDED;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_server_delete_process_set(char *pset_name)
{
    if (pset_name == nullptr || pset_name[0] == '\0') return PMIX_ERR_BAD_PARAM;
    try {
        const std::string name = pset_name;
        return with_server([&](Server &server) {
            return server.psets.erase(name) == 0 ? PMIX_ERR_NOT_FOUND : PMIX_OPERATION_SUCCEEDED;
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
