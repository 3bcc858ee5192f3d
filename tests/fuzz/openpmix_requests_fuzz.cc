// Fuzz target: every OpenPMIx request payload through the server's
// translation into our requests (src/server/openpmix/requests.cc, through
// translate_openpmix_payload: the same read functions and the same switch
// the server runs for a connected OpenPMIx peer, minus what needs the peer).
//
// Input: byte 0 picks the encoding (bit 0: v3 instead of v41, bit 1: fully
// described); the rest is the payload, [cmd] first, as a peer running
// OpenPMIx's library sends it after its connect request.
#include "fuzz_support.h"

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "server/openpmix/translate.h"

#include <string>
#include <vector>

namespace {

using pmixpp::openpmix::Bfrops;
using pmixpp::openpmix::BufferType;
using pmixpp::openpmix::Command;
using pmixpp::openpmix::Encoding;
namespace wire = pmixpp::wire;

// Ours decodes with the decoder the server's dispatch picks for it.
template <typename Request> void decodes(const wire::Frame &frame, wire::Command expected)
{
    wire::Command command{};
    FUZZ_CHECK(wire::peek_command(frame.payload, &command) == PMIX_SUCCESS);
    FUZZ_CHECK(command == expected);
    Request request;
    FUZZ_CHECK(wire::decode_payload(frame.payload, &request) == PMIX_SUCCESS);
}

void check(Command command, const wire::Frame &frame)
{
    FUZZ_CHECK(frame.header.kind == wire::FrameKind::request);
    FUZZ_CHECK(frame.header.payload_size == frame.payload.size());
    switch (command) {
    case Command::commit: return decodes<wire::CommitRequest>(frame, wire::Command::Commit);
    case Command::fence: return decodes<wire::FenceRequest>(frame, wire::Command::Fence);
    case Command::get: return decodes<wire::GetRequest>(frame, wire::Command::Get);
    case Command::finalize: return decodes<wire::FinalizeRequest>(frame, wire::Command::Finalize);
    case Command::abort: return decodes<wire::AbortRequest>(frame, wire::Command::Abort);
    case Command::publish: return decodes<wire::PublishRequest>(frame, wire::Command::Publish);
    case Command::lookup: return decodes<wire::LookupRequest>(frame, wire::Command::Lookup);
    case Command::unpublish: return decodes<wire::UnpublishRequest>(frame, wire::Command::Unpublish);
    case Command::spawn: return decodes<wire::SpawnRequest>(frame, wire::Command::Spawn);
    case Command::connect: return decodes<wire::ConnectRequest>(frame, wire::Command::Connect);
    case Command::disconnect: return decodes<wire::DisconnectRequest>(frame, wire::Command::Disconnect);
    case Command::notify: return decodes<wire::NotifyEventRequest>(frame, wire::Command::NotifyEvent);
    case Command::register_events: return decodes<wire::RegisterEventsRequest>(frame, wire::Command::RegisterEvents);
    case Command::iof_pull: return decodes<wire::IofPullRequest>(frame, wire::Command::IofPull);
    case Command::iof_push: return decodes<wire::IofPushRequest>(frame, wire::Command::IofPush);
    case Command::iof_deregister: return decodes<wire::IofDeregisterRequest>(frame, wire::Command::IofDeregister);
    case Command::query: return decodes<wire::QueryRequest>(frame, wire::Command::Query);
    case Command::log: return decodes<wire::LogRequest>(frame, wire::Command::Log);
    case Command::allocate: return decodes<wire::AllocateRequest>(frame, wire::Command::Allocate);
    case Command::job_control: return decodes<wire::JobControlRequest>(frame, wire::Command::JobControl);
    case Command::monitor: return decodes<wire::MonitorRequest>(frame, wire::Command::Monitor);
    case Command::get_credential: return decodes<wire::GetCredentialRequest>(frame, wire::Command::GetCredential);
    case Command::validate_credential:
        return decodes<wire::ValidateCredentialRequest>(frame, wire::Command::ValidateCredential);
    case Command::group_construct: return decodes<wire::GroupConstructRequest>(frame, wire::Command::GroupConstruct);
    case Command::group_destruct: return decodes<wire::GroupDestructRequest>(frame, wire::Command::GroupDestruct);
    case Command::group_leave: return decodes<wire::GroupLeaveRequest>(frame, wire::Command::GroupLeave);
    case Command::fabric_register: return decodes<wire::FabricRegisterRequest>(frame, wire::Command::FabricRegister);
    case Command::fabric_update: return decodes<wire::FabricUpdateRequest>(frame, wire::Command::FabricUpdate);
    default: FUZZ_CHECK(false && "a command without a translation produced a request");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const Encoding enc{(data[0] & 1) ? Bfrops::v3 : Bfrops::v41,
                       (data[0] & 2) ? BufferType::fully_desc : BufferType::non_desc};
    const std::span<const uint8_t> payload(data + 1, size - 1);
    std::vector<wire::Frame> ours;
    std::string reason;
    const pmix_status_t rc = pmixpp::server::translate_openpmix_payload(enc, payload, &ours, &reason);
    if (rc != PMIX_SUCCESS) {
        FUZZ_CHECK(!reason.empty());  // the server logs why it dropped the peer
        return 0;
    }
    FUZZ_CHECK(reason.empty());
    // The command byte is a PACK call (count, then the byte; a type tag
    // first when described): read it back the way the server did.
    pmixpp::openpmix::Reader reader(enc, payload);
    uint8_t code = 0;
    FUZZ_CHECK(reader.unpack_command(&code) == PMIX_SUCCESS);
    if (static_cast<Command>(code) == Command::deregister_events) {
        FUZZ_CHECK(ours.empty());  // needs the peer's registrations
        return 0;
    }
    FUZZ_CHECK(ours.size() == 1);
    check(static_cast<Command>(code), ours.front());
    FUZZ_CHECK(ours.front().header.tag == pmixpp::server::kTranslatedTag);
    return 0;
}
