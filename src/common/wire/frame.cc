#include "common/wire/frame.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <new>

#include "common/runtime/log.h"

namespace pmixpp::wire {

namespace {

// The u32 length field cannot express 4096 MiB.
constexpr unsigned long kMaxMiB = 4095;

void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = static_cast<uint8_t>(v);
    p[1] = static_cast<uint8_t>(v >> 8);
}

void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i) {
        p[i] = static_cast<uint8_t>(v >> (8 * i));
    }
}

uint16_t get_u16(const uint8_t *p)
{
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) {
        v = (v << 8) | p[i];
    }
    return v;
}

bool known_kind(uint16_t kind)
{
    return kind >= static_cast<uint16_t>(FrameKind::handshake) && kind <= static_cast<uint16_t>(FrameKind::notify);
}

}  // namespace

const char *frame_kind_name(FrameKind kind)
{
    switch (kind) {
    case FrameKind::handshake: return "HANDSHAKE";
    case FrameKind::request: return "REQUEST";
    case FrameKind::reply: return "REPLY";
    case FrameKind::notify: return "NOTIFY";
    }
    return "UNKNOWN";
}

FrameLimits FrameLimits::from_environment()
{
    FrameLimits limits;
    const char *value = std::getenv(kMaxMsgSizeEnv);
    if (value == nullptr || *value == '\0') {
        return limits;
    }
    char *end = nullptr;
    errno = 0;
    unsigned long mib = std::strtoul(value, &end, 10);
    if (errno != 0 || *end != '\0' || mib == 0 || mib > kMaxMiB || *value == '-') {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true)) {
            runtime::log_warning("wire", std::string(kMaxMsgSizeEnv) + "=\"" + value +
                                             "\" is not a size in MiB between 1 and 4095 "
                                             "(ignored; using 64)");
        }
        return limits;
    }
    limits.max_payload = static_cast<uint32_t>(mib << 20);
    return limits;
}

HeaderBytes encode_header(const FrameHeader &header)
{
    HeaderBytes bytes{};
    put_u32(&bytes[0], kFrameMagic);
    put_u16(&bytes[4], header.version);
    put_u16(&bytes[6], static_cast<uint16_t>(header.kind));
    put_u32(&bytes[8], header.tag);
    put_u32(&bytes[12], header.payload_size);
    return bytes;
}

pmix_status_t encode_frame(FrameKind kind, uint32_t tag, std::span<const uint8_t> payload,
                           std::vector<uint8_t> *bytes_p)
{
    if (payload.size() > std::numeric_limits<uint32_t>::max()) {
        return PMIX_ERR_BAD_PARAM;
    }
    FrameHeader header;
    header.kind = kind;
    header.tag = tag;
    header.payload_size = static_cast<uint32_t>(payload.size());
    HeaderBytes head = encode_header(header);
    try {
        std::vector<uint8_t> bytes;
        bytes.reserve(kFrameHeaderSize + payload.size());
        bytes.insert(bytes.end(), head.begin(), head.end());
        bytes.insert(bytes.end(), payload.begin(), payload.end());
        *bytes_p = std::move(bytes);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

pmix_status_t decode_header(std::span<const uint8_t, kFrameHeaderSize> bytes, const FrameLimits &limits,
                            FrameHeader *header_p, std::string *reason_p)
{
    const uint8_t *p = bytes.data();
    uint32_t magic = get_u32(p);
    if (magic != kFrameMagic) {
        *reason_p = "bad frame magic (not a pmixpp peer, or the stream is out of sync)";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    uint16_t version = get_u16(p + 4);
    if (version == 0) {
        *reason_p = "frame header carries protocol version 0";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    uint16_t kind = get_u16(p + 6);
    if (!known_kind(kind)) {
        *reason_p = "unknown frame kind " + std::to_string(kind);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    uint32_t length = get_u32(p + 12);
    if (length > limits.max_payload) {
        *reason_p = "frame payload of " + std::to_string(length) + " bytes exceeds the limit of " +
                    std::to_string(limits.max_payload) + " (raise " + kMaxMsgSizeEnv + ", in MiB)";
        return PMIX_ERR_BAD_PARAM;
    }
    header_p->version = version;
    header_p->kind = static_cast<FrameKind>(kind);
    header_p->tag = get_u32(p + 8);
    header_p->payload_size = length;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::wire
