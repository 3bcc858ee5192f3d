// Fuzz target: OpenPMIx's connect request, the first message of a peer
// running OpenPMIx's library (src/common/openpmix/connect.h, what
// openpmix_hello in src/server/openpmix/connect.cc decodes before it checks
// anything else), and the host-order header in front of it (frame.h).
//
// Input: the connect request's body; its first 16 bytes are also read as
// the connect header. Whatever decodes encodes again, that decodes to the
// same fields, and its encoding is stable.
#include "fuzz_support.h"

#include "common/openpmix/connect.h"
#include "common/openpmix/frame.h"

#include <string>
#include <vector>

namespace {

using namespace pmixpp::openpmix;
namespace wire = pmixpp::wire;

void same_fields(const ConnectRequest &a, const ConnectRequest &b)
{
    FUZZ_CHECK(a.psec == b.psec);
    FUZZ_CHECK(a.credential == b.credential);
    FUZZ_CHECK(a.flag == b.flag);
    FUZZ_CHECK(a.has_ids == b.has_ids && a.uid == b.uid && a.gid == b.gid);
    FUZZ_CHECK(a.has_proc == b.has_proc && a.nspace == b.nspace && a.rank == b.rank);
    FUZZ_CHECK(a.version == b.version && a.bfrops == b.bfrops && a.gds == b.gds);
    FUZZ_CHECK(a.buffer_type == b.buffer_type);
}

void header(std::span<const uint8_t> bytes)
{
    if (bytes.size() < wire::kFrameHeaderSize) return;
    const auto head = bytes.first<wire::kFrameHeaderSize>();
    wire::FrameHeader decoded;
    std::string reason;
    if (decode_connect_header(head, &decoded, &reason) != PMIX_SUCCESS) {
        FUZZ_CHECK(!reason.empty());
        return;
    }
    FUZZ_CHECK(starts_connect_request(head));
    FUZZ_CHECK(decoded.kind == wire::FrameKind::handshake);
    FUZZ_CHECK(decoded.payload_size <= kMaxConnectBody);
    const wire::HeaderBytes again = encode_connect_header(decoded.payload_size);
    wire::FrameHeader redecoded;
    FUZZ_CHECK(decode_connect_header(again, &redecoded, &reason) == PMIX_SUCCESS);
    FUZZ_CHECK(redecoded.payload_size == decoded.payload_size);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::span<const uint8_t> body(data, size);
    header(body);
    ConnectRequest request;
    std::string reason;
    if (decode_connect_request(body, &request, &reason) != PMIX_SUCCESS) {
        FUZZ_CHECK(!reason.empty());  // the refusal's log line says why
        return 0;
    }
    // What decodes names an encoding we speak (else it is refused) and a
    // peer type the server can describe.
    Encoding encoding;
    FUZZ_CHECK(request.encoding(&encoding, &reason));
    FUZZ_CHECK(connect_flag_name(request.flag) != nullptr);
    FUZZ_CHECK(request.has_proc || request.nspace.empty());
    (void)request.is_tool();
    (void)request.is_launcher();

    const std::vector<uint8_t> encoded = encode_connect_request(request);
    ConnectRequest back;
    std::string why;
    FUZZ_CHECK(decode_connect_request(encoded, &back, &why) == PMIX_SUCCESS);
    same_fields(request, back);
    // The info may pack differently (a value normalised on the way in), but
    // once through, the bytes are stable.
    FUZZ_CHECK(back.info.size() == request.info.size() || back.info.empty());
    const std::vector<uint8_t> again = encode_connect_request(back);
    ConnectRequest third;
    FUZZ_CHECK(decode_connect_request(again, &third, &why) == PMIX_SUCCESS);
    FUZZ_CHECK(encode_connect_request(third) == again);

    // The answers the server sends such a peer.
    FUZZ_CHECK(encode_client_answer(PMIX_SUCCESS, 3).size() == 8);
    return 0;
}
