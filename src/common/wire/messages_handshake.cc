// HANDSHAKE payloads: Hello, Welcome, Refuse, and version negotiation.
#include <algorithm>

#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

bool is_known_peer_type(uint8_t raw)
{
    switch (static_cast<PeerType>(raw)) {
    case PeerType::Client:
    case PeerType::Tool:
    case PeerType::Server:
    case PeerType::Launcher:
    case PeerType::Singleton: return true;
    }
    return false;
}

pmix_status_t get_peer_type(Unpacker &u, PeerType *type_p)
{
    uint8_t raw;
    pmix_status_t rc = u.get_u8(&raw);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (!is_known_peer_type(raw)) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *type_p = static_cast<PeerType>(raw);
    return PMIX_SUCCESS;
}

pmix_status_t put_names(Packer &p, const std::vector<std::string> &names)
{
    if (names.size() > kMaxGdsModules) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = p.put_count(names.size());
    for (size_t i = 0; rc == PMIX_SUCCESS && i < names.size(); ++i) {
        rc = names[i].empty() ? PMIX_ERR_BAD_PARAM : put_text(p, names[i], kMaxNameLength);
    }
    return rc;
}

pmix_status_t get_names(Unpacker &u, std::vector<std::string> *names_p)
{
    size_t n;
    pmix_status_t rc = u.get_count(4, &n);  // a string is at least its u32 length
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (n > kMaxGdsModules) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    std::vector<std::string> names;
    try {
        names.resize(n);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
    for (std::string &name : names) {
        rc = get_text(u, kMaxNameLength, &name);
        if (rc == PMIX_SUCCESS && name.empty()) {
            rc = PMIX_ERR_UNPACK_FAILURE;
        }
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    *names_p = std::move(names);
    return PMIX_SUCCESS;
}

bool versions_are_valid(uint16_t min_version, uint16_t max_version)
{
    return min_version >= 1 && min_version <= max_version;
}

}  // namespace

const char *peer_type_name(PeerType type)
{
    switch (type) {
    case PeerType::Client: return "client";
    case PeerType::Tool: return "tool";
    case PeerType::Server: return "server";
    case PeerType::Launcher: return "launcher";
    case PeerType::Singleton: return "singleton";
    }
    return "unknown";
}

pmix_status_t encode(const Hello &msg, Packer &p)
{
    if (!versions_are_valid(msg.min_version, msg.max_version) ||
        !is_known_peer_type(static_cast<uint8_t>(msg.peer_type))) {
        return PMIX_ERR_BAD_PARAM;
    }
    return chain([&] { return put_code(p, static_cast<uint16_t>(HandshakeMessage::Hello)); },
                 [&] { return p.put_u16(msg.min_version); }, [&] { return p.put_u16(msg.max_version); },
                 [&] { return p.put_u8(static_cast<uint8_t>(msg.peer_type)); },
                 [&] { return put_text(p, msg.nspace, PMIX_MAX_NSLEN); }, [&] { return p.put_u32(msg.rank); },
                 [&] { return p.put_i32(msg.pid); }, [&] { return put_text(p, msg.psec_module, kMaxNameLength); },
                 [&] { return put_blob(p, msg.credential); }, [&] { return put_names(p, msg.gds_modules); },
                 [&] { return put_text(p, msg.ptl_module, kMaxNameLength); },
                 [&] { return put_text(p, msg.library_version, kMaxNameLength); },
                 [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, Hello *msg_p)
{
    return decode_into(msg_p, [&](Hello &msg) {
        return chain(
            [&] { return expect_code(u, static_cast<uint16_t>(HandshakeMessage::Hello)); },
            [&] { return u.get_u16(&msg.min_version); }, [&] { return u.get_u16(&msg.max_version); },
            [&] {
                return versions_are_valid(msg.min_version, msg.max_version) ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE;
            },
            [&] { return get_peer_type(u, &msg.peer_type); }, [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.nspace); },
            [&] { return u.get_u32(&msg.rank); }, [&] { return u.get_i32(&msg.pid); },
            [&] { return get_text(u, kMaxNameLength, &msg.psec_module); }, [&] { return get_blob(u, &msg.credential); },
            [&] { return get_names(u, &msg.gds_modules); },
            [&] { return get_text(u, kMaxNameLength, &msg.ptl_module); },
            [&] { return get_text(u, kMaxNameLength, &msg.library_version); }, [&] { return get_array(u, &msg.info); });
    });
}

pmix_status_t encode(const Welcome &msg, Packer &p)
{
    if (msg.version < 1) {
        return PMIX_ERR_BAD_PARAM;
    }
    return chain([&] { return put_code(p, static_cast<uint16_t>(HandshakeMessage::Welcome)); },
                 [&] { return p.put_u16(msg.version); }, [&] { return put_status(p, msg.status); },
                 [&] { return put_text(p, msg.gds_module, kMaxNameLength); },
                 [&] { return put_text(p, msg.server_nspace, PMIX_MAX_NSLEN); },
                 [&] { return p.put_u32(msg.server_rank); },
                 [&] { return put_text(p, msg.peer_nspace, PMIX_MAX_NSLEN); }, [&] { return p.put_u32(msg.peer_rank); },
                 [&] { return put_text(p, msg.library_version, kMaxNameLength); },
                 [&] { return put_blob(p, msg.job_data); }, [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, Welcome *msg_p)
{
    return decode_into(msg_p, [&](Welcome &msg) {
        return chain(
            [&] { return expect_code(u, static_cast<uint16_t>(HandshakeMessage::Welcome)); },
            [&] { return u.get_u16(&msg.version); },
            [&] { return msg.version >= 1 ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE; },
            [&] { return get_status(u, &msg.status); }, [&] { return get_text(u, kMaxNameLength, &msg.gds_module); },
            [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.server_nspace); },
            [&] { return u.get_u32(&msg.server_rank); }, [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.peer_nspace); },
            [&] { return u.get_u32(&msg.peer_rank); },
            [&] { return get_text(u, kMaxNameLength, &msg.library_version); },
            [&] { return get_blob(u, &msg.job_data); }, [&] { return get_array(u, &msg.info); });
    });
}

pmix_status_t encode(const Refuse &msg, Packer &p)
{
    return chain([&] { return put_code(p, static_cast<uint16_t>(HandshakeMessage::Refuse)); },
                 [&] { return put_status(p, msg.status); }, [&] { return put_text(p, msg.reason, kMaxMessageLength); });
}

pmix_status_t decode(Unpacker &u, Refuse *msg_p)
{
    return decode_into(msg_p, [&](Refuse &msg) {
        return chain([&] { return expect_code(u, static_cast<uint16_t>(HandshakeMessage::Refuse)); },
                     [&] { return get_status(u, &msg.status); },
                     [&] { return get_text(u, kMaxMessageLength, &msg.reason); });
    });
}

pmix_status_t negotiate_version(const Hello &hello, uint16_t *version_p)
{
    uint16_t low = std::max(hello.min_version, kMinProtocolVersion);
    uint16_t high = std::min(hello.max_version, kMaxProtocolVersion);
    if (low > high) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    *version_p = high;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::wire
