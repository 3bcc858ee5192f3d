#include "client/openpmix/security_requests.h"

#include "common/openpmix/commands.h"
#include "common/openpmix/in_order.h"
#include "common/openpmix/kvals.h"

namespace pmixpp::client {

namespace {

using openpmix::in_order;
using openpmix::Reader;
using openpmix::Writer;

// A credential larger than any psec module makes is the server's mistake.
pmix_status_t read_credential(Reader &reader, wire::Bytes *credential_p)
{
    pmix_byte_object_t object{};
    int32_t n = 1;
    pmix_status_t rc = reader.unpack(PMIX_BYTE_OBJECT, &object, &n);
    if (rc != PMIX_SUCCESS) return rc;
    if (object.size > wire::kMaxCredentialSize) {
        rc = PMIX_ERR_BAD_PARAM;
    } else if (object.size > 0) {
        const auto *first = reinterpret_cast<const uint8_t *>(object.bytes);
        credential_p->assign(first, first + object.size);
    }
    PMIX_BYTE_OBJECT_DESTRUCT(&object);
    return rc;
}

}  // namespace

bool is_credential_command(wire::Command command)
{
    return command == wire::Command::GetCredential || command == wire::Command::ValidateCredential;
}

pmix_status_t pack_credential_request(wire::Command command, std::span<const uint8_t> ours, Writer &writer)
{
    if (command == wire::Command::GetCredential) {
        wire::GetCredentialRequest r;
        const pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        if (rc != PMIX_SUCCESS) return rc;
        return in_order([&] { return writer.pack_command(static_cast<uint8_t>(openpmix::Command::get_credential)); },
                        [&] { return writer.pack_counted(PMIX_INFO, r.directives.data(), r.directives.size()); });
    }
    wire::ValidateCredentialRequest r;
    const pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
    if (rc != PMIX_SUCCESS) return rc;
    return in_order([&] { return writer.pack_command(static_cast<uint8_t>(openpmix::Command::validate_credential)); },
                    [&] { return writer.pack_byte_object(r.credential.data(), r.credential.size()); },
                    [&] { return writer.pack_counted(PMIX_INFO, r.directives.data(), r.directives.size()); });
}

pmix_status_t credential_reply(wire::Command command, pmix_status_t status, Reader &reader, wire::Bytes *ours_p)
{
    if (command == wire::Command::GetCredential) {
        wire::GetCredentialReply reply;
        reply.status = status;
        pmix_status_t rc = PMIX_SUCCESS;
        if (status == PMIX_SUCCESS) {
            rc = in_order([&] { return read_credential(reader, &reply.credential); },
                          [&] { return openpmix::read_counted_infos(reader, &reply.info); });
        }
        return rc == PMIX_SUCCESS ? wire::encode_to_bytes(reply, ours_p) : rc;
    }
    wire::InfoReply reply;
    reply.status = status;
    // OpenPMIx's server counts the infos whatever the status; its client
    // reads them on success only.
    const pmix_status_t rc = status == PMIX_SUCCESS ? openpmix::read_counted_infos(reader, &reply.info) : PMIX_SUCCESS;
    return rc == PMIX_SUCCESS ? wire::encode_to_bytes(reply, ours_p) : rc;
}

}  // namespace pmixpp::client
