#include "client/openpmix/handshake.h"

#include "client/openpmix/job_data.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/connect.h"
#include "common/openpmix/frame.h"
#include "common/openpmix/version.h"
#include "common/runtime/log.h"
#include "common/wire/connection.h"

#include <arpa/inet.h>
#include <unistd.h>

#include <cstring>

namespace pmixpp::client {

namespace {

constexpr int kHandshakeTimeoutMs = 30000;
constexpr openpmix::Encoding kEncoding{openpmix::Bfrops::v41, openpmix::BufferType::non_desc};

uint32_t be32_of(const uint8_t *bytes)
{
    uint32_t raw = 0;
    std::memcpy(&raw, bytes, sizeof(raw));
    return ntohl(raw);
}

std::vector<uint8_t> connect_request(const OpenPmixIdentity &identity)
{
    openpmix::ConnectRequest request;
    request.psec = identity.psec;
    if (identity.psec == "native") {
        const uint32_t ids[2] = {static_cast<uint32_t>(getuid()), static_cast<uint32_t>(getgid())};
        const auto *first = reinterpret_cast<const uint8_t *>(ids);
        request.credential.assign(first, first + sizeof(ids));
    } else {
        request.credential = identity.credential;
        // OpenPMIx sends a munge credential with its terminating NUL, and its
        // server hands the bytes to munge_decode as a C string.
        if (identity.psec == "munge" && (request.credential.empty() || request.credential.back() != '\0')) {
            request.credential.push_back('\0');
        }
    }
    request.flag = openpmix::ConnectFlag::simple_client;
    request.has_proc = true;
    request.nspace = identity.self.nspace;
    request.rank = identity.self.rank;
    request.version = openpmix::kAdvertisedVersion;
    request.bfrops = openpmix::bfrops_name(kEncoding.bfrops);
    request.buffer_type = kEncoding.type;
    request.gds = "hash";
    return openpmix::encode_connect_request(request);
}

pmix_status_t send_connect_request(int fd, const OpenPmixIdentity &identity, std::string *reason_p)
{
    const std::vector<uint8_t> body = connect_request(identity);
    const wire::HeaderBytes head = openpmix::encode_connect_header(static_cast<uint32_t>(body.size()));
    pmix_status_t rc = wire::send_bytes_blocking(fd, head, kHandshakeTimeoutMs, reason_p);
    if (rc == PMIX_SUCCESS) rc = wire::send_bytes_blocking(fd, body, kHandshakeTimeoutMs, reason_p);
    return rc;
}

// [status], then on success [index]: both 4 bytes, network order.
pmix_status_t read_connect_answer(int fd, uint32_t *index_p, std::string *reason_p)
{
    uint8_t word[4];
    pmix_status_t rc = wire::recv_bytes_blocking(fd, word, kHandshakeTimeoutMs, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    const auto status = static_cast<pmix_status_t>(be32_of(word));
    if (status != PMIX_SUCCESS) {
        *reason_p = std::string("it refused us: ") + PMIx_Error_string(status);
        return status;
    }
    rc = wire::recv_bytes_blocking(fd, word, kHandshakeTimeoutMs, reason_p);
    if (rc == PMIX_SUCCESS) *index_p = be32_of(word);
    return rc;
}

// The header of the answer on `tag`. An event the server sends before it
// (on tag 0: one a peer raised as we connected) is read and dropped, as
// OpenPMIx's own client, with no handler registered yet, would drop it.
pmix_status_t read_answer_head(int fd, uint32_t tag, wire::HeaderBytes *head_p, std::string *reason_p)
{
    constexpr int kMaxSkipped = 64;
    for (int skipped = 0; skipped < kMaxSkipped; ++skipped) {
        pmix_status_t rc = wire::recv_bytes_blocking(fd, *head_p, kHandshakeTimeoutMs, reason_p);
        if (rc != PMIX_SUCCESS) return rc;
        const uint32_t got = be32_of(head_p->data() + 4);
        if (got == tag) return PMIX_SUCCESS;
        const uint32_t length = be32_of(head_p->data() + 8);
        if ((got != openpmix::kTagEvent && got != openpmix::kTagIof) || length > openpmix::kMaxConnectBody) {
            return PMIX_SUCCESS;  // not ours and not skippable: the caller says what it is
        }
        std::vector<uint8_t> dropped(length);
        rc = wire::recv_bytes_blocking(fd, dropped, kHandshakeTimeoutMs, reason_p);
        if (rc != PMIX_SUCCESS) return rc;
        runtime::log_trace("PMIX_MCA_pmix_client_verbose", "client",
                           "a message on tag " + std::to_string(got) + " before our job data, dropped");
    }
    *reason_p = "the server sent only events, not our job data";
    return PMIX_ERR_UNPACK_FAILURE;
}

// REQ on a tag of ours, and the server's answer to it.
pmix_status_t request_job_data(int fd, uint32_t index, std::vector<uint8_t> *answer_p, std::string *reason_p)
{
    openpmix::Writer writer(kEncoding);
    pmix_status_t rc = writer.pack_command(static_cast<uint8_t>(openpmix::Command::req));
    const uint32_t tag = openpmix::kFirstRequestTag;
    const wire::HeaderBytes head =
        openpmix::encode_header(static_cast<int32_t>(index), tag, static_cast<uint32_t>(writer.bytes().size()));
    if (rc == PMIX_SUCCESS) rc = wire::send_bytes_blocking(fd, head, kHandshakeTimeoutMs, reason_p);
    if (rc == PMIX_SUCCESS) rc = wire::send_bytes_blocking(fd, writer.bytes(), kHandshakeTimeoutMs, reason_p);
    wire::HeaderBytes answer_head{};
    if (rc == PMIX_SUCCESS) rc = read_answer_head(fd, tag, &answer_head, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    const uint32_t length = be32_of(answer_head.data() + 8);
    const wire::FrameLimits limits = wire::FrameLimits::from_environment();
    if (be32_of(answer_head.data() + 4) != tag || length == 0 || length > limits.max_payload) {
        *reason_p = "its answer to our request for the job data is " +
                    (length == 0 ? std::string("empty")
                                 : "not one (tag " + std::to_string(be32_of(answer_head.data() + 4)) + ", " +
                                       std::to_string(length) + " bytes)");
        return PMIX_ERR_UNPACK_FAILURE;
    }
    answer_p->resize(length);
    return wire::recv_bytes_blocking(fd, *answer_p, kHandshakeTimeoutMs, reason_p);
}

}  // namespace

pmix_status_t greet_openpmix_server(int fd, const OpenPmixIdentity &identity, const store::Store &store,
                                    OpenPmixGreeting *greeting_p)
{
    std::string reason;
    uint32_t index = 0;
    std::vector<uint8_t> answer;
    const char *stage = "sending our connect request";
    pmix_status_t rc = send_connect_request(fd, identity, &reason);
    if (rc == PMIX_SUCCESS) {
        stage = "reading its answer to our connect request";
        rc = read_connect_answer(fd, &index, &reason);
    }
    if (rc == PMIX_SUCCESS) {
        stage = "asking for our job data";
        rc = request_job_data(fd, index, &answer, &reason);
    }
    if (rc == PMIX_SUCCESS) {
        stage = "reading our job data";
        rc = import_openpmix_job_data(kEncoding, answer, identity.self.nspace, store, &reason);
    }
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("client", std::string("the OpenPMIx server did not take us in, ") + stage + ": " + reason +
                                           " (" + PMIx_Error_string(rc) + ")");
        return rc;
    }
    greeting_p->dialect = std::make_shared<OpenPmixServerDialect>(kEncoding, identity.self);
    greeting_p->index = index;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::client
