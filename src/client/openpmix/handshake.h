// Greeting an OpenPMIx server on a connected socket, with blocking I/O on
// the caller's thread as our own handshake does: OpenPMIx 4.2's connect
// request (a client, tool or launcher of its version, v41, gds/hash), the
// server's answer (a tool's carries its name and the server's), then the
// job data it keeps for us (REQ) into our store.
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

enum class OpenPmixRole : uint8_t { client, tool, launcher };

struct OpenPmixIdentity {
    OpenPmixRole role = OpenPmixRole::client;
    // A client's name; the name a tool or launcher asks for (an empty
    // nspace: the server's host names it).
    pmix_proc_t self{};
    // The psec module the server asked for (PMIX_SECURITY_MODE) and our
    // credential from it; for "native" the uid and gid are sent, as
    // OpenPMIx's own client does over tcp.
    std::string psec = "native";
    std::vector<uint8_t> credential;
};

struct OpenPmixGreeting {
    std::shared_ptr<OpenPmixServerDialect> dialect;
    uint32_t index = 0;    // a client's index at the server (a tool has none)
    pmix_proc_t self{};    // our name: a client's own, the one a tool got
    pmix_proc_t server{};  // the server's name, as a tool is told it
};

pmix_status_t greet_openpmix_server(int fd, const OpenPmixIdentity &identity, const store::Store &store,
                                    OpenPmixGreeting *greeting_p);

}  // namespace pmixpp::client

#endif
