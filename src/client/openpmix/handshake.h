// Greeting an OpenPMIx server on a connected socket, with blocking I/O on
// the caller's thread as our own handshake does: OpenPMIx 4.2's connect
// request (a client of its version, v41, gds/hash), the server's answer,
// then the job data it keeps for us (REQ) into our store.
#ifndef PMIXPP_CLIENT_OPENPMIX_HANDSHAKE_H
#define PMIXPP_CLIENT_OPENPMIX_HANDSHAKE_H

#include <pmix_common.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "client/openpmix/server_dialect.h"
#include "common/store/store.h"

namespace pmixpp::client {

struct OpenPmixIdentity {
    pmix_proc_t self{};
    // The psec module the server asked for (PMIX_SECURITY_MODE) and our
    // credential from it; for "native" the uid and gid are sent, as
    // OpenPMIx's own client does over tcp.
    std::string psec = "native";
    std::vector<uint8_t> credential;
};

struct OpenPmixGreeting {
    std::shared_ptr<OpenPmixServerDialect> dialect;
    uint32_t index = 0;  // what the server calls us
};

pmix_status_t greet_openpmix_server(int fd, const OpenPmixIdentity &identity, const store::Store &store,
                                    OpenPmixGreeting *greeting_p);

}  // namespace pmixpp::client

#endif
