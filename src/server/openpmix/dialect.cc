#include "server/openpmix/dialect.h"

#include "common/runtime/log.h"
#include "common/openpmix/frame.h"
#include "common/wire/messages.h"
#include "server/openpmix/job_data.h"
#include "server/state/peer_io.h"

#include <pmixpp/util.hpp>

#include <arpa/inet.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace pmixpp::server {

namespace {

// How OpenPMIx names its handler of every code when it deregisters it.
constexpr pmix_status_t kEveryCode = INT_MIN;

// Every reply of ours begins with its status.
pmix_status_t reply_status_of(std::span<const uint8_t> payload)
{
    if (payload.size() < sizeof(uint32_t)) return PMIX_ERR_UNPACK_FAILURE;
    uint32_t raw = 0;
    for (std::size_t i = 0; i < sizeof(raw); ++i) raw |= static_cast<uint32_t>(payload[i]) << (8 * i);
    return static_cast<pmix_status_t>(raw);
}

// A value found under qualifiers goes back as OpenPMIx's qualified value:
// an info array of the key and value, then the qualifiers, which its
// gds/hash stores so that the same qualified get finds it.
pmix_status_t pack_qualified(openpmix::Writer &data, const pmix_info_t &info, const wire::InfoArray &qualifiers)
{
    std::vector<pmix_info_t> items;
    items.push_back(info);
    items.insert(items.end(), qualifiers.begin(), qualifiers.end());
    pmix_data_array_t array{};
    array.type = PMIX_INFO;
    array.size = items.size();
    array.array = items.data();
    pmix_value_t value{};
    value.type = PMIX_DATA_ARRAY;
    value.data.darray = &array;
    return data.pack_kval(PMIX_QUALIFIED_VALUE, value);
}

// A get's answer as OpenPMIx's gds/hash reads it: the status, then a byte
// object of the proc and its key/values.
pmix_status_t encode_get_answer(openpmix::Encoding encoding, const OpenPmixPending &pending,
                                std::span<const uint8_t> payload, std::vector<uint8_t> *out_p)
{
    wire::GetReply reply;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(reply.status);
    if (rc == PMIX_SUCCESS && reply.status == PMIX_SUCCESS) {
        openpmix::Writer data(encoding);
        rc = data.pack_proc(pending.proc);
        for (const pmix_info_t &info : reply.data) {
            if (rc != PMIX_SUCCESS) break;
            rc = pending.qualifiers.empty() ? data.pack_kval(info.key, info.value)
                                            : pack_qualified(data, info, pending.qualifiers);
        }
        if (rc == PMIX_SUCCESS) rc = writer.pack_byte_object(data.bytes().data(), data.bytes().size());
    }
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

pmix_status_t encode_status(openpmix::Encoding encoding, pmix_status_t status, std::vector<uint8_t> *out_p)
{
    openpmix::Writer writer(encoding);
    const pmix_status_t rc = writer.pack_status(status);
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// [status][ninfo][infos], ninfo even on error (query, allocate, monitor,
// validate credential).
pmix_status_t encode_info_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                 std::vector<uint8_t> *out_p)
{
    wire::InfoReply reply;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(reply.status);
    if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_INFO, reply.info.data(), reply.info.size());
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// Job control: our answer carries a reason for people, theirs infos.
pmix_status_t encode_status_and_no_info(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                        std::vector<uint8_t> *out_p)
{
    openpmix::Writer writer(encoding);
    pmix_status_t rc = writer.pack_status(reply_status_of(payload));
    if (rc == PMIX_SUCCESS) rc = writer.pack_size(0);
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// [status], then on success [credential BYTE_OBJECT][ninfo][infos].
pmix_status_t encode_credential_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                       std::vector<uint8_t> *out_p)
{
    wire::GetCredentialReply reply;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(reply.status);
    if (rc == PMIX_SUCCESS && reply.status == PMIX_SUCCESS) {
        rc = writer.pack_byte_object(reply.credential.data(), reply.credential.size());
        if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_INFO, reply.info.data(), reply.info.size());
    }
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// [status][context id SIZE]: always the id, SIZE_MAX when none was
// assigned (OpenPMIx's client hands one back whatever it read).
pmix_status_t encode_group_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                  std::vector<uint8_t> *out_p)
{
    wire::InfoReply reply;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
    if (rc != PMIX_SUCCESS) return rc;
    std::size_t context = SIZE_MAX;
    if (const pmix_info_t *id = util::find_info(reply.info.data(), reply.info.size(), PMIX_GROUP_CONTEXT_ID)) {
        uint64_t value = 0;
        if (util::read_unsigned(id->value, UINT64_MAX, &value) == PMIX_SUCCESS) context = value;
    }
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(reply.status);
    if (rc == PMIX_SUCCESS) rc = writer.pack_size(context);
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// [status][ninfo][infos]; the infos carry the fabric's index.
pmix_status_t encode_fabric_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                   std::vector<uint8_t> *out_p)
{
    wire::FabricReply reply;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(reply.status);
    if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_INFO, reply.info.data(), reply.info.size());
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// [status], then on success [n SIZE][PDATA × n].
pmix_status_t encode_lookup_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                   std::vector<uint8_t> *out_p)
{
    wire::LookupReply reply;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(reply.status);
    if (rc == PMIX_SUCCESS && reply.status == PMIX_SUCCESS) {
        rc = writer.pack_counted(PMIX_PDATA, reply.data.data(), reply.data.size());
    }
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// [status][nspace], then on success the new job's job-level key/values,
// which the spawning client keeps as that job's data.
pmix_status_t encode_spawn_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                  std::vector<uint8_t> *out_p)
{
    wire::SpawnReply reply;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(reply.status);
    if (rc == PMIX_SUCCESS) rc = writer.pack_string(reply.nspace.empty() ? nullptr : reply.nspace.c_str());
    const Server *server = current();
    if (rc == PMIX_SUCCESS && reply.status == PMIX_SUCCESS && server != nullptr && !reply.nspace.empty()) {
        rc = pack_job_level(*server, reply.nspace, writer);
    }
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

pmix_status_t encode_event(openpmix::Encoding encoding, std::span<const uint8_t> payload, std::vector<uint8_t> *out_p)
{
    wire::Event event;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &event);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_command(static_cast<uint8_t>(openpmix::Command::notify));
    if (rc == PMIX_SUCCESS) rc = writer.pack_status(event.status);
    if (rc == PMIX_SUCCESS) rc = writer.pack_proc(event.source);
    if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_INFO, event.info.data(), event.info.size());
    if (rc == PMIX_SUCCESS) rc = writer.pack(PMIX_DATA_RANGE, &event.range, 1);
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

}  // namespace

std::string OpenPmixDialect::name() const
{
    return "OpenPMIx " + version_text_ + " (" + openpmix::bfrops_name(encoding_.bfrops) +
           (encoding_.described() ? ", described" : "") + ")";
}

OpenPmixDialect *openpmix_dialect(Peer &peer)
{
    return dynamic_cast<OpenPmixDialect *>(peer.dialect.get());
}

pmix_status_t OpenPmixDialect::send(Peer &peer, wire::FrameKind kind, uint32_t tag, std::span<const uint8_t> payload)
{
    switch (kind) {
    case wire::FrameKind::handshake: return send_handshake(peer, payload);
    case wire::FrameKind::reply: return send_reply(peer, tag, payload);
    case wire::FrameKind::notify: return send_notification(peer, payload);
    default: return PMIX_ERR_NOT_SUPPORTED;
    }
}

pmix_status_t OpenPmixDialect::send_native(Peer &peer, uint32_t tag, const std::vector<uint8_t> &body)
{
    return peer.connection->send(wire::FrameKind::reply, tag, body);
}

// Welcome is a status of success and the index the client will name
// itself by (we know it by its socket and ignore it); a refusal the same
// with the reason's status, and the connection closes after it.
pmix_status_t OpenPmixDialect::send_handshake(Peer &peer, std::span<const uint8_t> payload)
{
    wire::HandshakeMessage type{};
    pmix_status_t rc = wire::peek_handshake(payload, &type);
    if (rc != PMIX_SUCCESS) return rc;
    pmix_status_t status = PMIX_SUCCESS;
    if (type == wire::HandshakeMessage::Refuse) {
        wire::Refuse refuse;
        rc = wire::decode_payload(payload.data(), payload.size(), &refuse);
        status = rc == PMIX_SUCCESS ? refuse.status : PMIX_ERR_UNREACH;
    }
    if (flag_ != openpmix::ConnectFlag::simple_client) return send_tool_answer(peer, status, payload);
    const auto index = static_cast<uint32_t>(peer.id);
    return peer.connection->send(wire::FrameKind::handshake, wire::kNoTag,
                                 openpmix::encode_client_answer(status, status == PMIX_SUCCESS ? index : 0));
}

// Our answer to a tag is turned into what OpenPMIx's library reads for the
// command that tag carried. A tag of 0 asked for no answer (a
// deregistration: OpenPMIx expects none), and tag 0 would be an event.
// A tool or launcher hears the status, the identity the host gave it when
// it asked for one, the server's identity and the security status; a
// refusal, the status alone.
pmix_status_t OpenPmixDialect::send_tool_answer(Peer &peer, pmix_status_t status, std::span<const uint8_t> payload)
{
    if (status != PMIX_SUCCESS) {
        const uint32_t be = htonl(static_cast<uint32_t>(status));
        std::vector<uint8_t> bytes(sizeof(be));
        std::memcpy(bytes.data(), &be, sizeof(be));
        return peer.connection->send(wire::FrameKind::handshake, wire::kNoTag, bytes);
    }
    wire::Welcome welcome;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &welcome);
    if (rc != PMIX_SUCCESS) return rc;
    pmix_proc_t assigned{};
    PMIX_LOAD_PROCID(&assigned, welcome.peer_nspace.c_str(), welcome.peer_rank);
    pmix_proc_t server{};
    PMIX_LOAD_PROCID(&server, welcome.server_nspace.c_str(), welcome.server_rank);
    const bool needs_id =
        flag_ == openpmix::ConnectFlag::tool_needs_id || flag_ == openpmix::ConnectFlag::launcher_needs_id;
    return peer.connection->send(wire::FrameKind::handshake, wire::kNoTag,
                                 openpmix::encode_tool_answer(PMIX_SUCCESS, needs_id ? &assigned : nullptr, server));
}

pmix_status_t OpenPmixDialect::send_reply(Peer &peer, uint32_t tag, std::span<const uint8_t> payload)
{
    if (tag == wire::kNoTag) return PMIX_SUCCESS;
    auto found = pending_.find(tag);
    if (found == pending_.end()) {
        runtime::log_warning("server", "an answer to request " + std::to_string(tag) + " of " + describe(peer) +
                                           ", which it did not send (dropped)");
        return PMIX_ERR_NOT_FOUND;
    }
    const OpenPmixPending pending = std::move(found->second);
    pending_.erase(found);
    std::vector<uint8_t> out;
    const pmix_status_t rc = answer(pending, payload, &out);
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server", std::string("cannot put the answer to ") +
                                           openpmix::command_name(pending.command) + " of " + describe(peer) +
                                           " in OpenPMIx's encoding: " + PMIx_Error_string(rc) +
                                           " (closing the connection)");
        peer.connection->close(rc, "answer could not be encoded");
        return rc;
    }
    return peer.connection->send(wire::FrameKind::reply, tag, out);
}

pmix_status_t OpenPmixDialect::answer(const OpenPmixPending &pending, std::span<const uint8_t> payload,
                                      std::vector<uint8_t> *out_p)
{
    using openpmix::Command;
    switch (pending.command) {
    case Command::get: return encode_get_answer(encoding_, pending, payload, out_p);
    case Command::lookup: return encode_lookup_answer(encoding_, payload, out_p);
    case Command::spawn: return encode_spawn_answer(encoding_, payload, out_p);
    case Command::register_events: {
        wire::RegisterEventsReply reply;
        pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
        if (rc != PMIX_SUCCESS) return rc;
        if (reply.status == PMIX_SUCCESS) registrations_.push_back({reply.reference, pending.codes});
        return encode_status(encoding_, reply.status, out_p);
    }
    case Command::iof_pull: {
        wire::IofPullReply reply;
        pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &reply);
        if (rc != PMIX_SUCCESS) return rc;
        openpmix::Writer writer(encoding_);
        rc = writer.pack_status(reply.status);
        if (rc == PMIX_SUCCESS && reply.status == PMIX_SUCCESS) {
            iof_ids_[reply.id] = pending.peer_id;
            rc = writer.pack_size(reply.id);
        }
        if (rc == PMIX_SUCCESS) *out_p = writer.take();
        return rc;
    }
    case Command::query:
    case Command::allocate:
    case Command::monitor:
    case Command::validate_credential: return encode_info_answer(encoding_, payload, out_p);
    case Command::job_control: return encode_status_and_no_info(encoding_, payload, out_p);
    case Command::get_credential: return encode_credential_answer(encoding_, payload, out_p);
    case Command::group_construct: return encode_group_answer(encoding_, payload, out_p);
    case Command::fabric_register:
    case Command::fabric_update: return encode_fabric_answer(encoding_, payload, out_p);
    default: return encode_status(encoding_, reply_status_of(payload), out_p);
    }
}

std::vector<uint64_t> OpenPmixDialect::take_registrations(const std::vector<pmix_status_t> &codes)
{
    auto named = [&](pmix_status_t code) { return std::find(codes.begin(), codes.end(), code) != codes.end(); };
    std::vector<uint64_t> references;
    for (auto it = registrations_.begin(); it != registrations_.end();) {
        const bool every_code = it->codes.empty();
        const bool gone = every_code ? named(kEveryCode) : std::all_of(it->codes.begin(), it->codes.end(), named);
        if (!gone) {
            ++it;
            continue;
        }
        references.push_back(it->reference);
        it = registrations_.erase(it);
    }
    return references;
}

pmix_status_t OpenPmixDialect::send_notification(Peer &peer, std::span<const uint8_t> payload)
{
    wire::Notification type{};
    pmix_status_t rc = wire::peek_notification(payload, &type);
    if (rc != PMIX_SUCCESS) return rc;
    std::vector<uint8_t> out;
    const bool output = type != wire::Notification::Event;
    rc = output ? encode_output(payload, &out) : encode_event(encoding_, payload, &out);
    if (rc == PMIX_ERR_NOT_FOUND) return PMIX_SUCCESS;  // output for a pull it does not know: not sent
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("server", "cannot put an event for " + describe(peer) +
                                           " in OpenPMIx's encoding: " + PMIx_Error_string(rc) + " (not sent)");
        return rc;
    }
    return peer.connection->send(wire::FrameKind::notify, output ? openpmix::kTagIof : openpmix::kTagEvent, out);
}

// Output the peer pulled, on tag 2: [source][channel][its id][infos][data].
pmix_status_t OpenPmixDialect::encode_output(std::span<const uint8_t> payload, std::vector<uint8_t> *out_p) const
{
    wire::IofData data;
    pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &data);
    if (rc != PMIX_SUCCESS) return rc;
    auto found = iof_ids_.find(data.id);
    if (found == iof_ids_.end()) return PMIX_ERR_NOT_FOUND;
    openpmix::Writer writer(encoding_);
    const pmix_iof_channel_t channel = data.channel;
    rc = writer.pack_proc(data.source);
    if (rc == PMIX_SUCCESS) rc = writer.pack(PMIX_IOF_CHANNEL, &channel, 1);
    if (rc == PMIX_SUCCESS) rc = writer.pack_size(found->second);
    if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_INFO, data.info.data(), data.info.size());
    if (rc == PMIX_SUCCESS) rc = writer.pack_byte_object(data.data.data(), data.data.size());
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

}  // namespace pmixpp::server
