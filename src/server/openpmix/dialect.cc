#include "server/openpmix/dialect.h"

#include "common/runtime/log.h"
#include "common/openpmix/frame.h"
#include "common/openpmix/in_order.h"
#include "common/openpmix/qualified.h"
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

// Writes OpenPMIx's bytes with `fill`; *out_p gets them only on success.
template <typename Fill> pmix_status_t write_answer(openpmix::Encoding encoding, std::vector<uint8_t> *out_p, Fill fill)
{
    openpmix::Writer writer(encoding);
    const pmix_status_t rc = fill(writer);
    if (rc == PMIX_SUCCESS) *out_p = writer.take();
    return rc;
}

// Decodes our message of type Ours from `payload`, then writes OpenPMIx's
// bytes for it with `fill(writer, ours)`.
template <typename Ours, typename Fill>
pmix_status_t translate(openpmix::Encoding encoding, std::span<const uint8_t> payload, std::vector<uint8_t> *out_p,
                        Fill fill)
{
    Ours ours;
    const pmix_status_t rc = wire::decode_payload(payload.data(), payload.size(), &ours);
    if (rc != PMIX_SUCCESS) return rc;
    return write_answer(encoding, out_p, [&](openpmix::Writer &writer) { return fill(writer, ours); });
}

using openpmix::in_order;

// A get's answer as OpenPMIx's gds/hash reads it: the status, then a byte
// object of the proc and its key/values.
pmix_status_t encode_get_answer(openpmix::Encoding encoding, const OpenPmixPending &pending,
                                std::span<const uint8_t> payload, std::vector<uint8_t> *out_p)
{
    return translate<wire::GetReply>(encoding, payload, out_p, [&](openpmix::Writer &writer, const wire::GetReply &r) {
        pmix_status_t rc = writer.pack_status(r.status);
        if (rc != PMIX_SUCCESS || r.status != PMIX_SUCCESS) return rc;
        openpmix::Writer data(encoding);
        rc = data.pack_proc(pending.proc);
        for (const pmix_info_t &info : r.data) {
            if (rc != PMIX_SUCCESS) break;
            rc = pending.qualifiers.empty() ? data.pack_kval(info.key, info.value)
                                            : openpmix::pack_qualified(data, info, pending.qualifiers);
        }
        return rc == PMIX_SUCCESS ? writer.pack_byte_object(data.bytes().data(), data.bytes().size()) : rc;
    });
}

pmix_status_t encode_status(openpmix::Encoding encoding, pmix_status_t status, std::vector<uint8_t> *out_p)
{
    return write_answer(encoding, out_p, [&](openpmix::Writer &writer) { return writer.pack_status(status); });
}

// [status][ninfo][infos], ninfo even on error (query, allocate, monitor,
// validate credential; fabric register and update, whose infos carry the
// fabric's index).
template <typename Reply>
pmix_status_t encode_info_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                 std::vector<uint8_t> *out_p)
{
    return translate<Reply>(encoding, payload, out_p, [](openpmix::Writer &writer, const Reply &r) {
        return in_order([&] { return writer.pack_status(r.status); },
                        [&] { return writer.pack_counted(PMIX_INFO, r.info.data(), r.info.size()); });
    });
}

// Job control: our answer carries a reason for people, theirs infos.
pmix_status_t encode_status_and_no_info(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                        std::vector<uint8_t> *out_p)
{
    return write_answer(encoding, out_p, [&](openpmix::Writer &writer) {
        return in_order([&] { return writer.pack_status(reply_status_of(payload)); },
                        [&] { return writer.pack_size(0); });
    });
}

// [status], then on success [credential BYTE_OBJECT][ninfo][infos].
pmix_status_t encode_credential_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                       std::vector<uint8_t> *out_p)
{
    using Reply = wire::GetCredentialReply;
    return translate<Reply>(encoding, payload, out_p, [](openpmix::Writer &writer, const Reply &r) {
        pmix_status_t rc = writer.pack_status(r.status);
        if (rc != PMIX_SUCCESS || r.status != PMIX_SUCCESS) return rc;
        return in_order([&] { return writer.pack_byte_object(r.credential.data(), r.credential.size()); },
                        [&] { return writer.pack_counted(PMIX_INFO, r.info.data(), r.info.size()); });
    });
}

// [status][context id SIZE]: always the id, SIZE_MAX when none was
// assigned (OpenPMIx's client hands one back whatever it read).
pmix_status_t encode_group_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                  std::vector<uint8_t> *out_p)
{
    return translate<wire::InfoReply>(encoding, payload, out_p, [](openpmix::Writer &writer, const wire::InfoReply &r) {
        std::size_t context = SIZE_MAX;
        const pmix_info_t *id = util::find_info(r.info.data(), r.info.size(), PMIX_GROUP_CONTEXT_ID);
        uint64_t value = 0;
        if (id != nullptr && util::read_unsigned(id->value, UINT64_MAX, &value) == PMIX_SUCCESS) {
            context = value;
        }
        return in_order([&] { return writer.pack_status(r.status); }, [&] { return writer.pack_size(context); });
    });
}

// [status], then on success [n SIZE][PDATA × n].
pmix_status_t encode_lookup_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                   std::vector<uint8_t> *out_p)
{
    return translate<wire::LookupReply>(encoding, payload, out_p,
                                        [](openpmix::Writer &writer, const wire::LookupReply &r) {
                                            pmix_status_t rc = writer.pack_status(r.status);
                                            if (rc != PMIX_SUCCESS || r.status != PMIX_SUCCESS) return rc;
                                            return writer.pack_counted(PMIX_PDATA, r.data.data(), r.data.size());
                                        });
}

// [status][nspace], then on success the new job's job-level key/values,
// which the spawning client keeps as that job's data.
pmix_status_t encode_spawn_answer(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                  std::vector<uint8_t> *out_p)
{
    return translate<wire::SpawnReply>(
        encoding, payload, out_p, [](openpmix::Writer &writer, const wire::SpawnReply &r) {
            pmix_status_t rc =
                in_order([&] { return writer.pack_status(r.status); },
                         [&] { return writer.pack_string(r.nspace.empty() ? nullptr : r.nspace.c_str()); });
            const Server *server = current();
            if (rc != PMIX_SUCCESS || r.status != PMIX_SUCCESS || server == nullptr || r.nspace.empty()) return rc;
            return pack_job_level(*server, r.nspace, writer);
        });
}

pmix_status_t encode_event(openpmix::Encoding encoding, std::span<const uint8_t> payload, std::vector<uint8_t> *out_p)
{
    return translate<wire::Event>(encoding, payload, out_p, [](openpmix::Writer &writer, const wire::Event &event) {
        return in_order([&] { return writer.pack_command(static_cast<uint8_t>(openpmix::Command::notify)); },
                        [&] { return writer.pack_status(event.status); },
                        [&] { return writer.pack_proc(event.source); },
                        [&] { return writer.pack_counted(PMIX_INFO, event.info.data(), event.info.size()); },
                        [&] { return writer.pack(PMIX_DATA_RANGE, &event.range, 1); });
    });
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
    case Command::register_events:
        return translate<wire::RegisterEventsReply>(encoding_, payload, out_p,
                                                    [&](openpmix::Writer &writer, const wire::RegisterEventsReply &r) {
                                                        if (r.status == PMIX_SUCCESS)
                                                            registrations_.push_back({r.reference, pending.codes});
                                                        return writer.pack_status(r.status);
                                                    });
    case Command::iof_pull:
        return translate<wire::IofPullReply>(encoding_, payload, out_p,
                                             [&](openpmix::Writer &writer, const wire::IofPullReply &r) {
                                                 pmix_status_t rc = writer.pack_status(r.status);
                                                 if (rc != PMIX_SUCCESS || r.status != PMIX_SUCCESS) return rc;
                                                 iof_ids_[r.id] = pending.peer_id;
                                                 return writer.pack_size(r.id);
                                             });
    case Command::query:
    case Command::allocate:
    case Command::monitor:
    case Command::validate_credential: return encode_info_answer<wire::InfoReply>(encoding_, payload, out_p);
    case Command::job_control: return encode_status_and_no_info(encoding_, payload, out_p);
    case Command::get_credential: return encode_credential_answer(encoding_, payload, out_p);
    case Command::group_construct: return encode_group_answer(encoding_, payload, out_p);
    case Command::fabric_register:
    case Command::fabric_update: return encode_info_answer<wire::FabricReply>(encoding_, payload, out_p);
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
    return translate<wire::IofData>(encoding_, payload, out_p, [&](openpmix::Writer &writer, const wire::IofData &d) {
        auto found = iof_ids_.find(d.id);
        if (found == iof_ids_.end()) return PMIX_ERR_NOT_FOUND;
        const pmix_iof_channel_t channel = d.channel;
        return in_order([&] { return writer.pack_proc(d.source); },
                        [&] { return writer.pack(PMIX_IOF_CHANNEL, &channel, 1); },
                        [&] { return writer.pack_size(found->second); },
                        [&] { return writer.pack_counted(PMIX_INFO, d.info.data(), d.info.size()); },
                        [&] { return writer.pack_byte_object(d.data.data(), d.data.size()); });
    });
}

}  // namespace pmixpp::server
