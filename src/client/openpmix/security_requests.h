// Credentials on a link to an OpenPMIx server: our get and validate as its
// commands 20 and 21, and its answers as our replies. Its server asks its
// host; a host without the upcall makes it answer PMIX_ERR_NOT_SUPPORTED,
// and then the client's own psec answers (client/core/credential_requests.h),
// as under any server without them. Pure data; any thread.
#ifndef PMIXPP_CLIENT_OPENPMIX_SECURITY_REQUESTS_H
#define PMIXPP_CLIENT_OPENPMIX_SECURITY_REQUESTS_H

#include <pmix_common.h>

#include <span>

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

bool is_credential_command(wire::Command command);

// [cmd][ndirs][dirs] or [cmd][credential][ndirs][dirs]
pmix_status_t pack_credential_request(wire::Command command, std::span<const uint8_t> ours, openpmix::Writer &writer);

// OpenPMIx's answer after its status (read already) as our reply: a
// credential's [credential][ninfo][infos] on success, a validation's
// [ninfo][infos].
pmix_status_t credential_reply(wire::Command command, pmix_status_t status, openpmix::Reader &reader,
                               wire::Bytes *ours_p);

}  // namespace pmixpp::client

#endif
