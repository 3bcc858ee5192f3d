// PMIx_Get_credential(_nb) and PMIx_Validate_credential(_nb): a credential
// from, and checked by, the host's security system when it offers one,
// else this process's psec modules (core/credential_requests.h says which
// path a call takes, core/local_credentials.h what psec does).
#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "client/core/credential_requests.h"
#include "client/core/host_call.h"
#include "client/no_results.h"

using namespace pmixpp;

namespace {

using CredentialReply = std::shared_ptr<wire::GetCredentialReply>;
using ValidationReply = std::shared_ptr<wire::InfoReply>;

// The caller's copy of the credential (free()d by PMIX_BYTE_OBJECT_DESTRUCT).
pmix_status_t hand_credential(const CredentialReply &reply, pmix_byte_object_t *credential_p)
{
    if (!reply || reply->credential.empty()) return PMIX_SUCCESS;
    auto *bytes = static_cast<char *>(std::malloc(reply->credential.size()));
    if (bytes == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(bytes, reply->credential.data(), reply->credential.size());
    credential_p->bytes = bytes;
    credential_p->size = reply->credential.size();
    return PMIX_SUCCESS;
}

// The reply lives until the callback returns: the caller copies what it keeps.
client::CredentialDone credential_callback(pmix_credential_cbfunc_t cbfunc, void *cbdata)
{
    return [cbfunc, cbdata](pmix_status_t status, CredentialReply reply) {
        if (cbfunc == nullptr) return;
        pmix_byte_object_t credential{nullptr, 0};
        if (reply && !reply->credential.empty()) {
            credential.bytes = reinterpret_cast<char *>(reply->credential.data());
            credential.size = reply->credential.size();
        }
        cbfunc(status, status == PMIX_SUCCESS ? &credential : nullptr, reply ? reply->info.data() : nullptr,
               reply ? reply->info.size() : 0, cbdata);
    };
}

client::ValidationDone validation_callback(pmix_validation_cbfunc_t cbfunc, void *cbdata)
{
    return [cbfunc, cbdata](pmix_status_t status, ValidationReply reply) {
        if (cbfunc == nullptr) return;
        cbfunc(status, reply ? reply->info.data() : nullptr, reply ? reply->info.size() : 0, cbdata);
    };
}

}  // namespace

pmix_status_t PMIx_Get_credential(const pmix_info_t info[], size_t ninfo, pmix_byte_object_t *credential)
{
    try {
        if (credential == nullptr) return PMIX_ERR_BAD_PARAM;  // nowhere to put it
        *credential = pmix_byte_object_t{nullptr, 0};
        CredentialReply reply;
        const pmix_status_t rc = client::wait_for_reply<wire::GetCredentialReply>(
            [&](client::CredentialDone done) { return client::start_get_credential(info, ninfo, std::move(done)); },
            &reply);
        return rc != PMIX_SUCCESS ? rc : hand_credential(reply, credential);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Get_credential_nb(const pmix_info_t info[], size_t ninfo, pmix_credential_cbfunc_t cbfunc,
                                     void *cbdata)
{
    try {
        return client::start_get_credential(info, ninfo, credential_callback(cbfunc, cbdata));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Validate_credential(const pmix_byte_object_t *cred, const pmix_info_t info[], size_t ninfo,
                                       pmix_info_t **results, size_t *nresults)
{
    client::no_results(results, nresults);
    try {
        ValidationReply reply;
        const pmix_status_t rc = client::wait_for_reply<wire::InfoReply>(
            [&](client::ValidationDone done) {
                return client::start_validate_credential(cred, info, ninfo, std::move(done));
            },
            &reply);
        if (rc == PMIX_SUCCESS && reply && results != nullptr && nresults != nullptr) {
            *results = reply->info.release(nresults);
        }
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Validate_credential_nb(const pmix_byte_object_t *cred, const pmix_info_t info[], size_t ninfo,
                                          pmix_validation_cbfunc_t cbfunc, void *cbdata)
{
    try {
        return client::start_validate_credential(cred, info, ninfo, validation_callback(cbfunc, cbdata));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
