// Where PMIx_Get_credential / PMIx_Validate_credential go, as in OpenPMIx:
// a connected client or tool asks its server (which asks its host); a
// process that runs the server asks its own host module; a singleton or a
// tool without a server uses its own psec modules. Whenever the host path
// answers PMIX_ERR_NOT_SUPPORTED (no such upcall) or no server can be
// reached, the local psec modules answer instead (local_credentials.h).
#ifndef PMIXPP_CLIENT_CORE_CREDENTIAL_REQUESTS_H
#define PMIXPP_CLIENT_CORE_CREDENTIAL_REQUESTS_H

#include <functional>
#include <memory>

#include <pmix_common.h>

#include "common/wire/messages.h"

namespace pmixpp::client {

using CredentialDone = std::function<void(pmix_status_t status, std::shared_ptr<wire::GetCredentialReply> reply)>;
using ValidationDone = std::function<void(pmix_status_t status, std::shared_ptr<wire::InfoReply> reply)>;

// PMIX_SUCCESS: done runs once, on the progress thread, never before this
// returns. Otherwise done never runs: PMIX_ERR_INIT before PMIx_Init /
// PMIx_tool_init / PMIx_server_init, PMIX_ERR_BAD_PARAM for bad arguments
// (a NULL, empty or oversized credential is named in a log line).
pmix_status_t start_get_credential(const pmix_info_t directives[], size_t ndirs, CredentialDone done);
pmix_status_t start_validate_credential(const pmix_byte_object_t *credential, const pmix_info_t directives[],
                                        size_t ndirs, ValidationDone done);

}  // namespace pmixpp::client

#endif
