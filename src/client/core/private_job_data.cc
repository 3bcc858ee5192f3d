// The gds/shmem fallback of a client: when the job data the Welcome named
// cannot be used where it lives (a segment outside this process's view),
// the client asks its server for a copy that carries the data and keeps it
// in its own store. Never wrong data: without the copy, init fails.
#include <chrono>
#include <cstdlib>
#include <memory>
#include <utility>

#include <pmix.h>

#include "client/core/handshake.h"
#include "client/core/requests.h"
#include "common/runtime/latch.h"
#include "common/runtime/log.h"

namespace pmixpp::client {

namespace {

constexpr std::chrono::milliseconds kCopyTimeout{30000};

}  // namespace

pmix_status_t fetch_private_job_data(const std::shared_ptr<Session> &session)
{
    wire::JobDataRequest request;
    request.nspace = session->self.nspace;
    auto done = std::make_shared<runtime::Latch<wire::Bytes>>();
    pmix_status_t rc = send_message(session, request, kCopyTimeout, [done](pmix_status_t st, const wire::Frame *frame) {
        wire::JobDataReply reply;
        const pmix_status_t status = read_reply(st, frame, &reply);
        done->complete(status, std::move(reply.data));
    });
    if (rc == PMIX_SUCCESS) rc = done->wait_for(kCopyTimeout);
    if (rc == PMIX_SUCCESS) {
        wire::Bytes data = std::move(done->payload());
        pmix_byte_object_t blob{};
        blob.bytes = reinterpret_cast<char *>(data.data());
        blob.size = data.size();
        rc = session->store->import_nspace(session->self.nspace, blob);
    }
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("client", std::string("cannot get a private copy of the job data of ") +
                                           session->self.nspace + ": " + PMIx_Error_string(rc) +
                                           " (PMIx_Init fails rather than run without its job data)");
    }
    return rc;
}

}  // namespace pmixpp::client
