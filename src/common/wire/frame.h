// The frame: how every message between a PMIx client/tool and its server is
// delimited on a stream socket. Pure data, no I/O; any thread.
//
// Header, 16 bytes, little-endian:
//   u32 magic   "PMXP" (bytes 'P','M','X','P')
//   u16 version protocol version of the sender (kProtocolVersion today)
//   u16 kind    FrameKind
//   u32 tag     request/reply correlation (0 = none, e.g. NOTIFY, HANDSHAKE)
//   u32 length  payload bytes that follow
// The payload's meaning (handshake, request, reply, notification) is defined
// in wire/messages.h.
#ifndef PMIXPP_COMMON_WIRE_FRAME_H
#define PMIXPP_COMMON_WIRE_FRAME_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <pmix_common.h>

namespace pmixpp::wire {

inline constexpr uint32_t kFrameMagic = 0x50584D50u;  // "PMXP" read little-endian
inline constexpr uint16_t kProtocolVersion = 1;
inline constexpr size_t kFrameHeaderSize = 16;
inline constexpr uint32_t kNoTag = 0;
// Caps a payload, in MiB, as OpenPMIx reads it (FrameLimits::from_environment).
inline constexpr const char *kMaxMsgSizeEnv = "PMIX_MCA_ptl_base_max_msg_size";

// How a connection's frames are delimited. pmixpp's own frames (this file);
// OpenPMIx's (common/openpmix/frame.h), from the side that serves the peer or
// from the side that is served; or, on a server's connection, decided by the
// first bytes the peer sends.
enum class Framing : uint8_t { pmixpp, detect, openpmix_from_client, openpmix_from_server };

inline bool is_openpmix(Framing framing)
{
    return framing == Framing::openpmix_from_client || framing == Framing::openpmix_from_server;
}

enum class FrameKind : uint16_t {
    handshake = 1,
    request = 2,
    reply = 3,
    notify = 4,
};

const char *frame_kind_name(FrameKind kind);

struct FrameHeader {
    uint16_t version = kProtocolVersion;
    FrameKind kind = FrameKind::request;
    uint32_t tag = kNoTag;
    uint32_t payload_size = 0;
};

struct Frame {
    FrameHeader header;
    std::vector<uint8_t> payload;
};

struct FrameLimits {
    static constexpr uint32_t kDefaultMaxPayload = 64u << 20;  // 64 MiB

    uint32_t max_payload = kDefaultMaxPayload;

    // kDefaultMaxPayload, or PMIX_MCA_ptl_base_max_msg_size (in MiB, as
    // OpenPMIx reads it) when set to a positive number below 4096. A bad value
    // is ignored with one warning naming the variable.
    static FrameLimits from_environment();
};

using HeaderBytes = std::array<uint8_t, kFrameHeaderSize>;

HeaderBytes encode_header(const FrameHeader &header);

// Header followed by payload, ready to write. PMIX_ERR_BAD_PARAM when the
// payload does not fit a u32 length; PMIX_ERR_NOMEM on allocation failure.
pmix_status_t encode_frame(FrameKind kind, uint32_t tag, std::span<const uint8_t> payload,
                           std::vector<uint8_t> *bytes_p);

// Validates and decodes a received header. On failure header_p is untouched,
// *reason_p says what was wrong (for the log line) and the status is:
//   PMIX_ERR_UNPACK_FAILURE  bad magic, version 0 or unknown kind
//   PMIX_ERR_BAD_PARAM       payload length above limits.max_payload
pmix_status_t decode_header(std::span<const uint8_t, kFrameHeaderSize> bytes, const FrameLimits &limits,
                            FrameHeader *header_p, std::string *reason_p);

}  // namespace pmixpp::wire

#endif
