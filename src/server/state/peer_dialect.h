// A peer that speaks another library's protocol (today OpenPMIx's, in
// server/openpmix/). The server core knows only its own messages: whatever
// it sends to such a peer (a reply, an event, the handshake's answer)
// passes through the peer's dialect, which translates it at the edge. How
// its requests come in is the engine's business (engine/connections.cc).
#ifndef PMIXPP_SERVER_STATE_PEER_DIALECT_H
#define PMIXPP_SERVER_STATE_PEER_DIALECT_H

#include "common/wire/frame.h"

#include <pmix_common.h>

#include <cstdint>
#include <span>
#include <string>

namespace pmixpp::server {

struct Peer;

class PeerDialect {
public:
    virtual ~PeerDialect() = default;
    // For log lines: "OpenPMIx 4.2.2 (v41)".
    virtual std::string name() const = 0;
    // `payload` is one of our messages of `kind` (common/wire/messages.h);
    // the dialect sends the peer what it means in its protocol, or nothing
    // when it has no counterpart there.
    virtual pmix_status_t send(Peer &peer, wire::FrameKind kind, uint32_t tag, std::span<const uint8_t> payload) = 0;
    // False when the peer's answer to a data-collecting fence is its status
    // alone (OpenPMIx's clients fetch each peer's data with a get): the
    // server then neither gathers nor shares the collected data for it.
    virtual bool reads_collected_data() const { return true; }
};

}  // namespace pmixpp::server

#endif
