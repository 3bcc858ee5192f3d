// Self-access, credentials: the host's PMIx_Get_credential /
// PMIx_Validate_credential go to its own upcalls, as a client's would
// (see self_access.h).
#include "server/engine/self_access.h"

#include "server/engine/self_ops.h"
#include "server/state/server.h"
#include "server/requests/requests.h"

#include <memory>
#include <new>

namespace pmixpp::server {

pmix_status_t server_get_credential_nb(const pmix_info_t directives[], std::size_t ndirs, CredentialDone done)
{
    try {
        auto request = std::make_shared<wire::GetCredentialRequest>();
        const pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::GetCredentialReply>(std::move(done), [request](Server &server, auto respond) {
            start_get_credential(server, server.self_proc(), std::move(*request), std::move(respond));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_validate_credential_nb(const pmix_byte_object_t &credential, const pmix_info_t directives[],
                                            std::size_t ndirs, ValidationDone done)
{
    try {
        auto request = std::make_shared<wire::ValidateCredentialRequest>();
        const auto *first = reinterpret_cast<const uint8_t *>(credential.bytes);
        request->credential.assign(first, first + credential.size);
        const pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::InfoReply>(std::move(done), [request](Server &server, auto respond) {
            start_validate_credential(server, server.self_proc(), std::move(*request), std::move(respond));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
