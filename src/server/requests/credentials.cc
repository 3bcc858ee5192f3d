// PMIx_Get_credential / PMIx_Validate_credential of a client, a tool or the
// host itself (self-access), relayed to the host's get_credential /
// validate_credential upcall in the requester's name. As in OpenPMIx 4.2 the
// server makes and checks no credential for others: without the upcall the
// answer is PMIX_ERR_NOT_SUPPORTED, and the requester's library then uses
// its own psec modules (src/client/core/local_credentials.h), which vouch
// for the requester itself rather than for the server's user.
#include "common/runtime/log.h"
#include "server/state/peer_io.h"
#include "server/requests/requests.h"

#include <memory>
#include <new>
#include <string>

namespace pmixpp::server {

namespace {

// What the host is handed stays here until it calls back.
template <typename Request, typename Responder> struct CredentialCall {
    pmix_proc_t requester{};
    Request request;
    Responder respond;
};
using GetCall = CredentialCall<wire::GetCredentialRequest, CredentialResponder>;
using ValidateCall = CredentialCall<wire::ValidateCredentialRequest, ValidationResponder>;

// The host's answer may come from any thread, even from inside the upcall:
// the responder always runs later, on the progress thread.
template <typename Reply, typename Responder> void respond_later(Responder respond, std::shared_ptr<Reply> reply)
{
    post_to_server([respond = std::move(respond), reply](Server &) { respond(*reply); });
}

template <typename Reply, typename Responder> void respond_status_later(Responder respond, pmix_status_t status)
{
    auto reply = std::make_shared<Reply>();
    reply->status = status;
    respond_later(std::move(respond), std::move(reply));
}

// A credential the wire cannot carry is the host's bug, not the requester's.
pmix_status_t copy_credential(const pmix_byte_object_t *credential, wire::Bytes *bytes_p)
{
    if (credential == nullptr || credential->bytes == nullptr || credential->size == 0) return PMIX_SUCCESS;
    if (credential->size > wire::kMaxCredentialSize) {
        runtime::log_warning("server", "the host's get_credential returned " + std::to_string(credential->size) +
                                           " bytes, more than the " + std::to_string(wire::kMaxCredentialSize) +
                                           " a credential may have; the requester gets PMIX_ERR_BAD_PARAM");
        return PMIX_ERR_BAD_PARAM;
    }
    const auto *first = reinterpret_cast<const uint8_t *>(credential->bytes);
    bytes_p->assign(first, first + credential->size);
    return PMIX_SUCCESS;
}

void credential_done(pmix_status_t status, pmix_byte_object_t *credential, pmix_info_t info[], size_t ninfo,
                     void *cbdata)
{
    std::unique_ptr<GetCall> call(static_cast<GetCall *>(cbdata));
    if (call == nullptr) return;
    auto reply = std::make_shared<wire::GetCredentialReply>();
    reply->status = status;
    if (status == PMIX_SUCCESS) {
        pmix_status_t rc = copy_credential(credential, &reply->credential);
        if (rc == PMIX_SUCCESS && info != nullptr && ninfo > 0) rc = reply->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) *reply = wire::GetCredentialReply{rc, {}, {}};
    }
    respond_later(std::move(call->respond), std::move(reply));
}

void validation_done(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata)
{
    std::unique_ptr<ValidateCall> call(static_cast<ValidateCall *>(cbdata));
    if (call == nullptr) return;
    auto reply = std::make_shared<wire::InfoReply>();
    reply->status = status;
    if (info != nullptr && ninfo > 0) {
        const pmix_status_t rc = reply->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS && status == PMIX_SUCCESS) reply->status = rc;
    }
    respond_later(std::move(call->respond), std::move(reply));
}

// An upcall that answered at once: PMIX_OPERATION_SUCCEEDED is a success
// without anything more to say (for a credential that is nothing at all).
pmix_status_t immediate_answer(pmix_status_t rc, pmix_status_t succeeded_means)
{
    return rc == PMIX_OPERATION_SUCCEEDED ? succeeded_means : rc;
}

}  // namespace

void start_get_credential(Server &server, const pmix_proc_t &requester, wire::GetCredentialRequest request,
                          CredentialResponder respond)
{
    const auto upcall = server.host.slots().get_credential;
    if (upcall == nullptr) {
        return respond_status_later<wire::GetCredentialReply>(std::move(respond), PMIX_ERR_NOT_SUPPORTED);
    }
    auto *call = new (std::nothrow) GetCall{requester, std::move(request), std::move(respond)};
    if (call == nullptr) return respond_status_later<wire::GetCredentialReply>(std::move(respond), PMIX_ERR_NOMEM);
    const pmix_status_t rc = upcall(&call->requester, call->request.directives.data(), call->request.directives.size(),
                                    credential_done, call);
    if (rc == PMIX_SUCCESS) return;
    std::unique_ptr<GetCall> refused(call);
    respond_status_later<wire::GetCredentialReply>(std::move(refused->respond),
                                                   immediate_answer(rc, PMIX_ERR_BAD_PARAM));
}

void start_validate_credential(Server &server, const pmix_proc_t &requester, wire::ValidateCredentialRequest request,
                               ValidationResponder respond)
{
    const auto upcall = server.host.slots().validate_credential;
    if (upcall == nullptr) {
        return respond_status_later<wire::InfoReply>(std::move(respond), PMIX_ERR_NOT_SUPPORTED);
    }
    auto *call = new (std::nothrow) ValidateCall{requester, std::move(request), std::move(respond)};
    if (call == nullptr) return respond_status_later<wire::InfoReply>(std::move(respond), PMIX_ERR_NOMEM);
    pmix_byte_object_t credential{reinterpret_cast<char *>(call->request.credential.data()),
                                  call->request.credential.size()};
    const pmix_status_t rc = upcall(&call->requester, &credential, call->request.directives.data(),
                                    call->request.directives.size(), validation_done, call);
    if (rc == PMIX_SUCCESS) return;
    std::unique_ptr<ValidateCall> refused(call);
    respond_status_later<wire::InfoReply>(std::move(refused->respond), immediate_answer(rc, PMIX_SUCCESS));
}

void handle_get_credential(Server &server, Peer &peer, uint32_t tag, wire::GetCredentialRequest &request)
{
    start_get_credential(server, peer.proc, std::move(request), answer_peer<wire::GetCredentialReply>(peer.id, tag));
}

void handle_validate_credential(Server &server, Peer &peer, uint32_t tag, wire::ValidateCredentialRequest &request)
{
    start_validate_credential(server, peer.proc, std::move(request), answer_peer<wire::InfoReply>(peer.id, tag));
}

}  // namespace pmixpp::server
