// Security credentials relayed to the host: get one, validate one.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

// The size check both directions share: an empty credential is never one,
// and nothing larger than kMaxCredentialSize is carried.
bool carriable(const Bytes &credential, bool empty_allowed)
{
    return credential.size() <= kMaxCredentialSize && (empty_allowed || !credential.empty());
}

pmix_status_t get_credential_blob(Unpacker &u, bool empty_allowed, Bytes *credential_p)
{
    const pmix_status_t rc = get_blob(u, credential_p);
    if (rc != PMIX_SUCCESS) return rc;
    return carriable(*credential_p, empty_allowed) ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE;
}

}  // namespace

pmix_status_t encode(const GetCredentialRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::GetCredential); }, [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, GetCredentialRequest *msg_p)
{
    return decode_into(msg_p, [&](GetCredentialRequest &msg) {
        return chain([&] { return expect_command(u, Command::GetCredential); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const ValidateCredentialRequest &msg, Packer &p)
{
    if (!carriable(msg.credential, false)) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_command(p, Command::ValidateCredential); },
                 [&] { return put_blob(p, msg.credential); }, [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, ValidateCredentialRequest *msg_p)
{
    return decode_into(msg_p, [&](ValidateCredentialRequest &msg) {
        return chain([&] { return expect_command(u, Command::ValidateCredential); },
                     [&] { return get_credential_blob(u, false, &msg.credential); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const GetCredentialReply &msg, Packer &p)
{
    if (!carriable(msg.credential, true)) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_blob(p, msg.credential); },
                 [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, GetCredentialReply *msg_p)
{
    return decode_into(msg_p, [&](GetCredentialReply &msg) {
        return chain([&] { return get_status(u, &msg.status); },
                     [&] { return get_credential_blob(u, true, &msg.credential); },
                     [&] { return get_array(u, &msg.info); });
    });
}

}  // namespace pmixpp::wire
