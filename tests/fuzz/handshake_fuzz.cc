// Fuzz target: the handshake as the server reads it off a new connection
// (src/server/engine/handshake.cc, handle_hello, and what it does with a Hello
// that needs no server state): frames cut from the byte stream by their
// header, a HANDSHAKE frame's discriminator, the Hello, the version
// negotiation, and the Welcome or Refuse built from the Hello's fields (the
// Welcome echoes the peer's nspace and rank; a Refuse's reason quotes them).
// Whatever the server accepts it must be able to answer.
//
// Input: the bytes a peer sends, frames back to back (seeds: a Hello frame
// of each peer type from our encoders, then edge cases).
#include "fuzz_support.h"

#include <string>

namespace {

using namespace pmixpp::wire;

template <typename Message> void answer(const Message &msg)
{
    Bytes payload;
    FUZZ_CHECK(encode_to_bytes(msg, &payload) == PMIX_SUCCESS);
    std::vector<uint8_t> frame;
    FUZZ_CHECK(encode_frame(FrameKind::handshake, kNoTag, payload, &frame) == PMIX_SUCCESS);
    FrameHeader header;
    std::string reason;
    FUZZ_CHECK(decode_header(std::span<const uint8_t>(frame).first<kFrameHeaderSize>(), FrameLimits{}, &header,
                             &reason) == PMIX_SUCCESS);
    Message back;
    FUZZ_CHECK(decode_payload(std::span<const uint8_t>(frame).subspan(kFrameHeaderSize), &back) == PMIX_SUCCESS);
}

void handle_hello(std::span<const uint8_t> payload)
{
    HandshakeMessage type{};
    Hello hello;
    if (peek_handshake(payload, &type) != PMIX_SUCCESS || type != HandshakeMessage::Hello ||
        decode_payload(payload, &hello) != PMIX_SUCCESS) {
        answer(Refuse{PMIX_ERR_UNPACK_FAILURE, "malformed hello"});
        return;
    }
    uint16_t version = 0;
    const bool common_version = negotiate_version(hello, &version) == PMIX_SUCCESS;
    if (common_version) {
        FUZZ_CHECK(version >= kMinProtocolVersion && version <= kMaxProtocolVersion);
        FUZZ_CHECK(version >= hello.min_version && version <= hello.max_version);
    }
    // The reasons handshake.cc gives quote the Hello (refuse_peer cuts them).
    const std::string reason = std::string(peer_type_name(hello.peer_type)) + " nspace " + hello.nspace + " rank " +
                               std::to_string(hello.rank) + " psec module '" + hello.psec_module + "' ptl " +
                               hello.ptl_module;
    answer(Refuse{PMIX_ERR_NOT_SUPPORTED, reason.substr(0, kMaxMessageLength)});
    if (!common_version) return;  // refused: no Welcome
    Welcome welcome;
    welcome.version = version;
    welcome.gds_module = "hash";  // the server's own, never the peer's text
    welcome.server_nspace = "server-nspace";
    welcome.server_rank = 0;
    welcome.peer_nspace = hello.nspace;
    welcome.peer_rank = hello.rank;
    welcome.library_version = "4.2.2";
    answer(welcome);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::span<const uint8_t> stream(data, size);
    const FrameLimits limits;
    while (stream.size() >= kFrameHeaderSize) {
        FrameHeader header;
        std::string reason;
        if (decode_header(stream.first<kFrameHeaderSize>(), limits, &header, &reason) != PMIX_SUCCESS) {
            return 0;  // the server drops the connection
        }
        stream = stream.subspan(kFrameHeaderSize);
        const size_t length = std::min<size_t>(header.payload_size, stream.size());
        if (header.kind == FrameKind::handshake) handle_hello(stream.first(length));
        stream = stream.subspan(length);
    }
    return 0;
}
