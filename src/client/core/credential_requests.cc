#include "client/core/credential_requests.h"
#include "client/core/requests.h"

#include <string>

#include "client/core/host_call.h"
#include "client/core/host_mode.h"
#include "client/core/local_credentials.h"
#include "common/runtime/log.h"
#include "server/engine/self_access.h"

namespace pmixpp::client {

namespace {

// The host path could not answer: no upcall, or no server to ask.
bool answer_locally(pmix_status_t status)
{
    return status == PMIX_ERR_NOT_SUPPORTED || status == PMIX_ERR_UNREACH;
}

// Runs the local answer on the progress thread (a _nb callback never runs
// before its call returned).
template <typename Reply, typename Done, typename Local> pmix_status_t post_local(Done done, Local local)
{
    return runtime::ProgressEngine::process().post([done = std::move(done), local = std::move(local)] {
        auto reply = std::make_shared<Reply>();
        local(reply.get());
        done(reply->status, reply);
    });
}

// The host path's answer, or the local one when the host path had none.
template <typename Reply, typename Done, typename Local>
std::function<void(pmix_status_t, std::shared_ptr<Reply>)> or_locally(Done done, Local local)
{
    return [done = std::move(done), local = std::move(local)](pmix_status_t status, std::shared_ptr<Reply> reply) {
        if (!answer_locally(status)) return done(status, std::move(reply));
        auto mine = std::make_shared<Reply>();
        local(mine.get());
        done(mine->status, mine);
    };
}

// Self-access hands a reply by reference; the client side wants it shared.
template <typename Reply, typename Done> std::function<void(Reply &)> share_reply(Done done)
{
    return [done = std::move(done)](Reply &reply) {
        auto shared = std::make_shared<Reply>(std::move(reply));
        done(shared->status, shared);
    };
}

// Like send_for_reply, but a server that predates these commands answers
// them with a status-only PMIX_ERR_NOT_SUPPORTED: read that too.
template <typename Reply, typename Request>
pmix_status_t ask_server(const std::shared_ptr<Session> &session, const Request &request,
                         std::chrono::milliseconds timeout,
                         std::function<void(pmix_status_t, std::shared_ptr<Reply>)> done)
{
    return send_message(session, request, timeout, [done](pmix_status_t st, const wire::Frame *frame) {
        auto reply = std::make_shared<Reply>();
        pmix_status_t status = read_reply(st, frame, reply.get());
        wire::StatusReply refusal;
        if (st == PMIX_SUCCESS && frame != nullptr && status != reply->status &&
            wire::decode_payload(frame->payload, &refusal) == PMIX_SUCCESS) {
            status = refusal.status;
        }
        done(status, reply);
    });
}

pmix_status_t check_credential_argument(const pmix_byte_object_t *credential)
{
    std::string problem;
    if (credential == nullptr) {
        problem = "the credential is NULL";
    } else if (credential->bytes == nullptr || credential->size == 0) {
        problem = "the credential is empty";
    } else if (credential->size > wire::kMaxCredentialSize) {
        problem = "the credential has " + std::to_string(credential->size) + " bytes, more than the " +
                  std::to_string(wire::kMaxCredentialSize) + " any psec module makes";
    } else {
        return PMIX_SUCCESS;
    }
    runtime::log_warning("client", "PMIx_Validate_credential: " + problem +
                                       "; pass the byte object PMIx_Get_credential filled in");
    return PMIX_ERR_BAD_PARAM;
}

}  // namespace

pmix_status_t start_get_credential(const pmix_info_t directives[], size_t ndirs, CredentialDone done)
{
    using Reply = wire::GetCredentialReply;
    std::shared_ptr<Session> session = current_session();
    if (!session && !host_mode()) return PMIX_ERR_INIT;
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    auto request = std::make_shared<wire::GetCredentialRequest>();
    pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    // The local answer reads the request's copy: the caller's may be gone.
    auto local = [request](Reply *reply_p) {
        make_local_credential(request->directives.data(), request->directives.size(), reply_p);
    };
    if (!session) {
        return server::server_get_credential_nb(directives, ndirs, share_reply<Reply>(or_locally<Reply>(done, local)));
    }
    if (session->singleton) return post_local<Reply>(done, local);
    rc = ask_server<Reply>(session, *request, timeout_of(directives, ndirs, client::kServerTimeoutMargin),
                           or_locally<Reply>(done, local));
    // No server to send to (a tool that lost it): as if never connected.
    return answer_locally(rc) ? post_local<Reply>(done, local) : rc;
}

pmix_status_t start_validate_credential(const pmix_byte_object_t *credential, const pmix_info_t directives[],
                                        size_t ndirs, ValidationDone done)
{
    using Reply = wire::InfoReply;
    std::shared_ptr<Session> session = current_session();
    if (!session && !host_mode()) return PMIX_ERR_INIT;
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    pmix_status_t rc = check_credential_argument(credential);
    if (rc != PMIX_SUCCESS) return rc;
    auto request = std::make_shared<wire::ValidateCredentialRequest>();
    const auto *first = reinterpret_cast<const uint8_t *>(credential->bytes);
    request->credential.assign(first, first + credential->size);
    rc = request->directives.assign_copy(directives, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    // The local answer reads the request's copies: the caller's may be gone.
    auto local = [request](Reply *reply_p) {
        pmix_byte_object_t bytes{reinterpret_cast<char *>(request->credential.data()), request->credential.size()};
        check_local_credential(bytes, request->directives.data(), request->directives.size(), reply_p);
    };
    if (!session) {
        return server::server_validate_credential_nb(*credential, directives, ndirs,
                                                     share_reply<Reply>(or_locally<Reply>(done, local)));
    }
    if (session->singleton) return post_local<Reply>(done, local);
    rc = ask_server<Reply>(session, *request, timeout_of(directives, ndirs, client::kServerTimeoutMargin),
                           or_locally<Reply>(done, local));
    return answer_locally(rc) ? post_local<Reply>(done, local) : rc;
}

}  // namespace pmixpp::client
