// Fuzz target: the wire-message decoders (src/common/wire/messages.h) of
// every payload a server accepts from a peer (and the replies, events and
// modex blobs a client accepts from its server), and the frame header.
//
// Input: byte 0 chooses the decoder (kDecoders[byte % count]), the rest is
// the payload. Whatever decodes must encode again, and that encoding must
// decode to the same bytes (decode never accepts what encode cannot carry).
#include "fuzz_support.h"

#include <string>
#include <vector>

namespace {

using namespace pmixpp::wire;

template <typename Message> void decode_and_reencode(std::span<const uint8_t> payload)
{
    Message msg;
    if (decode_payload(payload, &msg) != PMIX_SUCCESS) return;
    Bytes first;
    FUZZ_CHECK(encode_to_bytes(msg, &first) == PMIX_SUCCESS);
    Message again;
    FUZZ_CHECK(decode_payload(std::span<const uint8_t>(first), &again) == PMIX_SUCCESS);
    Bytes second;
    FUZZ_CHECK(encode_to_bytes(again, &second) == PMIX_SUCCESS);
    FUZZ_CHECK(first == second);
}

void header(std::span<const uint8_t> bytes)
{
    if (bytes.size() < kFrameHeaderSize) return;
    FrameHeader decoded;
    std::string reason;
    const FrameLimits limits;
    if (decode_header(bytes.first<kFrameHeaderSize>(), limits, &decoded, &reason) != PMIX_SUCCESS) {
        FUZZ_CHECK(!reason.empty());
        return;
    }
    FUZZ_CHECK(decoded.payload_size <= limits.max_payload);
    (void)frame_kind_name(decoded.kind);
    const HeaderBytes again = encode_header(decoded);
    FrameHeader redecoded;
    FUZZ_CHECK(decode_header(again, limits, &redecoded, &reason) == PMIX_SUCCESS);
    FUZZ_CHECK(redecoded.kind == decoded.kind && redecoded.tag == decoded.tag &&
               redecoded.payload_size == decoded.payload_size);
}

void modex(std::span<const uint8_t> blob)
{
    std::vector<ProcData> procs;
    if (decode_modex(blob.data(), blob.size(), &procs) != PMIX_SUCCESS) return;
    Bytes again;
    FUZZ_CHECK(encode_modex(procs, &again) == PMIX_SUCCESS);
    std::vector<ProcData> back;
    FUZZ_CHECK(decode_modex(again.data(), again.size(), &back) == PMIX_SUCCESS);
    FUZZ_CHECK(back.size() == procs.size());
}

// The peek functions the server and client use to choose a decoder.
void peeks(std::span<const uint8_t> payload)
{
    Command cmd{};
    if (peek_command(payload, &cmd) == PMIX_SUCCESS) {
        (void)command_name(cmd);
        (void)is_known_command(static_cast<uint16_t>(cmd));
    }
    HandshakeMessage hs{};
    (void)peek_handshake(payload, &hs);
    pmix_status_t status = PMIX_SUCCESS;
    (void)peek_reply_status(payload, &status);
    Notification note{};
    (void)peek_notification(payload, &note);
}

using Decoder = void (*)(std::span<const uint8_t>);

// Order is the corpus's: a seed's first byte indexes this table
// (seedgen.cc writes them). Append only.
constexpr Decoder kDecoders[] = {
    header,
    modex,
    peeks,
    decode_and_reencode<Hello>,
    decode_and_reencode<Welcome>,
    decode_and_reencode<Refuse>,
    decode_and_reencode<CommitRequest>,
    decode_and_reencode<FenceRequest>,
    decode_and_reencode<GetRequest>,
    decode_and_reencode<AbortRequest>,
    decode_and_reencode<FinalizeRequest>,
    decode_and_reencode<RegisterEventsRequest>,
    decode_and_reencode<DeregisterEventsRequest>,
    decode_and_reencode<NotifyEventRequest>,
    decode_and_reencode<QueryRequest>,
    decode_and_reencode<JobDataRequest>,
    decode_and_reencode<PublishRequest>,
    decode_and_reencode<LookupRequest>,
    decode_and_reencode<UnpublishRequest>,
    decode_and_reencode<SpawnRequest>,
    decode_and_reencode<ConnectRequest>,
    decode_and_reencode<DisconnectRequest>,
    decode_and_reencode<JobControlRequest>,
    decode_and_reencode<AllocateRequest>,
    decode_and_reencode<SessionControlRequest>,
    decode_and_reencode<LogRequest>,
    decode_and_reencode<StatusReply>,
    decode_and_reencode<FenceReply>,
    decode_and_reencode<GetReply>,
    decode_and_reencode<RegisterEventsReply>,
    decode_and_reencode<QueryReply>,
    decode_and_reencode<LookupReply>,
    decode_and_reencode<JobControlReply>,
    decode_and_reencode<SpawnReply>,
    decode_and_reencode<InfoReply>,
    decode_and_reencode<JobDataReply>,
    decode_and_reencode<Event>,
    decode_and_reencode<GetCredentialRequest>,
    decode_and_reencode<ValidateCredentialRequest>,
    decode_and_reencode<GetCredentialReply>,
    decode_and_reencode<FabricRegisterRequest>,
    decode_and_reencode<FabricUpdateRequest>,
    decode_and_reencode<FabricDeregisterRequest>,
    decode_and_reencode<FabricReply>,
    decode_and_reencode<MonitorRequest>,
    decode_and_reencode<HeartbeatRequest>,
    decode_and_reencode<IofPullRequest>,
    decode_and_reencode<IofDeregisterRequest>,
    decode_and_reencode<IofPushRequest>,
    decode_and_reencode<IofPullReply>,
    decode_and_reencode<IofData>,
    decode_and_reencode<GroupConstructRequest>,
    decode_and_reencode<GroupDestructRequest>,
    decode_and_reencode<GroupLeaveRequest>,
    decode_and_reencode<GroupInviteRequest>,
    decode_and_reencode<GroupJoinRequest>,
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    constexpr size_t count = sizeof(kDecoders) / sizeof(kDecoders[0]);
    kDecoders[data[0] % count](std::span<const uint8_t>(data + 1, size - 1));
    return 0;
}
