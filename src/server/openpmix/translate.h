// The translation of one OpenPMIx request payload into our request frames,
// without a server or a peer: what openpmix_request (edge.h) does with a
// connected peer's message, minus what needs the connection (the pending
// answer its dialect expects, the event source, the registrations a
// deregistration names, REQ's job data, foreign jobs' gets). Kept apart so
// the fuzz target openpmix_requests (tests/fuzz) reads every payload with
// the server's own code. Pure data; any thread.
#ifndef PMIXPP_SERVER_OPENPMIX_TRANSLATE_H
#define PMIXPP_SERVER_OPENPMIX_TRANSLATE_H

#include "common/openpmix/bfrops.h"
#include "common/wire/frame.h"

#include <pmix_common.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pmixpp::server {

// The tag of the frames translate_openpmix_payload appends (OpenPMIx's
// first request tag); a deregistration's frames have none.
inline constexpr uint32_t kTranslatedTag = 101;

// `payload` is a whole OpenPMIx request ([cmd] first). PMIX_SUCCESS with
// ours appended to *ours_p (none for a deregistration, which needs the
// peer's registrations); PMIX_ERR_NOT_SUPPORTED for a command the server
// answers itself (REQ, and those without a counterpart); otherwise the read
// or encode error, with *reason_p the line the server would log as it
// drops the peer.
pmix_status_t translate_openpmix_payload(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                         std::vector<wire::Frame> *ours_p, std::string *reason_p);

}  // namespace pmixpp::server

#endif
