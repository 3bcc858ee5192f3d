#include "common/openpmix/frame.h"

#include <arpa/inet.h>

#include <cstring>

namespace pmixpp::openpmix {

namespace {

uint32_t host_u32(const uint8_t *p)
{
    uint32_t v = 0;
    std::memcpy(&v, p, sizeof(v));
    return v;
}

uint32_t network_u32(const uint8_t *p)
{
    return ntohl(host_u32(p));
}

void put_host_u32(uint8_t *p, uint32_t v)
{
    std::memcpy(p, &v, sizeof(v));
}

}  // namespace

bool starts_connect_request(std::span<const uint8_t, wire::kFrameHeaderSize> bytes)
{
    for (std::size_t i = 0; i < 8; ++i) {
        if (bytes[i] != 0xFF) return false;
    }
    return true;
}

pmix_status_t decode_connect_header(std::span<const uint8_t, wire::kFrameHeaderSize> bytes, wire::FrameHeader *header_p,
                                    std::string *reason_p)
{
    if (!starts_connect_request(bytes)) {
        *reason_p = "an OpenPMIx connection that does not begin with a connect request";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    const uint32_t length = host_u32(bytes.data() + 8);
    if (length > kMaxConnectBody) {
        *reason_p = "an OpenPMIx connect request of " + std::to_string(length) + " bytes (at most " +
                    std::to_string(kMaxConnectBody) + ")";
        return PMIX_ERR_BAD_PARAM;
    }
    header_p->kind = wire::FrameKind::handshake;
    header_p->tag = wire::kNoTag;
    header_p->payload_size = length;
    return PMIX_SUCCESS;
}

wire::HeaderBytes encode_connect_header(uint32_t body_size)
{
    wire::HeaderBytes bytes{};
    put_host_u32(&bytes[0], 0xFFFFFFFFu);
    put_host_u32(&bytes[4], 0xFFFFFFFFu);
    put_host_u32(&bytes[8], body_size);
    return bytes;
}

pmix_status_t decode_header(std::span<const uint8_t, wire::kFrameHeaderSize> bytes, const wire::FrameLimits &limits,
                            bool from_server, wire::FrameHeader *header_p, std::string *reason_p)
{
    const uint32_t tag = network_u32(bytes.data() + 4);
    const uint32_t length = network_u32(bytes.data() + 8);
    if (length > limits.max_payload) {
        *reason_p = "an OpenPMIx message of " + std::to_string(length) + " bytes exceeds the limit of " +
                    std::to_string(limits.max_payload) + " (raise " + wire::kMaxMsgSizeEnv + ", in MiB)";
        return PMIX_ERR_BAD_PARAM;
    }
    header_p->kind = !from_server                         ? wire::FrameKind::request
                     : tag == kTagEvent || tag == kTagIof ? wire::FrameKind::notify
                                                          : wire::FrameKind::reply;
    header_p->tag = tag;
    header_p->payload_size = length;
    return PMIX_SUCCESS;
}

wire::HeaderBytes encode_header(int32_t pindex, uint32_t tag, uint32_t body_size)
{
    wire::HeaderBytes bytes{};
    put_host_u32(&bytes[0], htonl(static_cast<uint32_t>(pindex)));
    put_host_u32(&bytes[4], htonl(tag));
    put_host_u32(&bytes[8], htonl(body_size));
    return bytes;
}

}  // namespace pmixpp::openpmix
