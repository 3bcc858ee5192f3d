// OpenPMIx's framing (docs/wire-protocol.md, "The OpenPMIx dialect"): every
// message rides behind a 16-byte header of
//   i32 pindex   the sender's index for the receiver (ignored by pmixpp)
//   u32 tag      0 events, 1 heartbeat, 2 IOF; requests count up from 101
//   u32 nbytes   body length
//   u32 padding
// in network byte order, except the client's very first message, the
// connect request, whose header is in host byte order and carries pindex -1
// and tag 0xFFFFFFFF: eight 0xFF bytes that no pmixpp frame begins with,
// which is how one listener tells the two protocols apart. Pure data; any
// thread.
#ifndef PMIXPP_COMMON_OPENPMIX_FRAME_H
#define PMIXPP_COMMON_OPENPMIX_FRAME_H

#include "common/wire/frame.h"

#include <pmix_common.h>

#include <cstdint>
#include <span>
#include <string>

namespace pmixpp::openpmix {

inline constexpr uint32_t kTagEvent = 0;
inline constexpr uint32_t kTagHeartbeat = 1;
inline constexpr uint32_t kTagIof = 2;
// The first tag a client gives its requests (0-99 are the library's own).
inline constexpr uint32_t kFirstRequestTag = 100;
// OpenPMIx refuses a connect request longer than this (its largest
// credential); so do we.
inline constexpr uint32_t kMaxConnectBody = 128u * 1024u;

// True when the first header bytes of a connection are OpenPMIx's connect
// request (eight 0xFF bytes).
bool starts_connect_request(std::span<const uint8_t, wire::kFrameHeaderSize> bytes);

// The connect request's host-order header: kind handshake, tag 0.
pmix_status_t decode_connect_header(std::span<const uint8_t, wire::kFrameHeaderSize> bytes, wire::FrameHeader *header_p,
                                    std::string *reason_p);
wire::HeaderBytes encode_connect_header(uint32_t body_size);

// Any later header. `kind` is what such a frame is to the receiver: a
// request when it serves the peer; from a server, tag 0 is an event (notify)
// and others replies.
pmix_status_t decode_header(std::span<const uint8_t, wire::kFrameHeaderSize> bytes, const wire::FrameLimits &limits,
                            bool from_server, wire::FrameHeader *header_p, std::string *reason_p);
wire::HeaderBytes encode_header(int32_t pindex, uint32_t tag, uint32_t body_size);

}  // namespace pmixpp::openpmix

#endif
