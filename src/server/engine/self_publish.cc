// The host's own name-service calls (self_access.h): PMIx_Publish, Lookup
// and Unpublish handed to its own upcalls, the server proc as requester and
// the host's uid and gid in the info, as a client's carry theirs.
#include "server/engine/self_access.h"

#include "server/engine/self_ops.h"
#include "server/requests/peer_identity.h"
#include "server/requests/requests.h"
#include "server/state/server.h"

#include <unistd.h>

#include <memory>
#include <new>

namespace pmixpp::server {

pmix_status_t server_publish_nb(const pmix_info_t info[], std::size_t ninfo, PushDone done)
{
    if (info == nullptr || ninfo == 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::PublishRequest>();
        pmix_status_t rc = request->info.assign_copy(info, ninfo);
        if (rc == PMIX_SUCCESS) rc = append_user(getuid(), getgid(), request->info);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::StatusReply>(std::move(done), [request](Server &server, PushDone tracked) {
            start_publish(server, server.self_proc(), std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_lookup_nb(std::vector<std::string> keys, const pmix_info_t directives[], std::size_t ndirs,
                               LookupDone done)
{
    if (keys.empty() || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::LookupRequest>();
        request->keys = std::move(keys);
        pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc == PMIX_SUCCESS) rc = append_user(getuid(), getgid(), request->directives);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::LookupReply>(std::move(done), [request](Server &server, LookupDone tracked) {
            start_lookup(server, server.self_proc(), std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_unpublish_nb(std::vector<std::string> keys, const pmix_info_t directives[], std::size_t ndirs,
                                  PushDone done)
{
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    try {
        auto request = std::make_shared<wire::UnpublishRequest>();
        request->keys = std::move(keys);
        pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc == PMIX_SUCCESS) rc = append_user(getuid(), getgid(), request->directives);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::StatusReply>(std::move(done), [request](Server &server, PushDone tracked) {
            start_unpublish(server, server.self_proc(), std::move(*request), std::move(tracked));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
