// The two ways a session starts, shared by PMIx_Init (lifecycle.cc) and
// PMIx_tool_init (tool_start.cc).
#ifndef PMIXPP_CLIENT_CORE_STARTS_H
#define PMIXPP_CLIENT_CORE_STARTS_H

#include <memory>
#include <string>

#include <pmix_common.h>

#include "client/core/discovery.h"
#include "client/core/session.h"

namespace pmixpp::client {

// Connects to contact's server and makes it the session's active link.
// The session's identity comes from the Welcome (a tool's may be assigned
// by the server) unless it already has one (a second server of a tool).
pmix_status_t start_connected(const std::shared_ptr<Session> &session, const ServerContact &contact,
                              std::shared_ptr<ServerLink> *link_p = nullptr);

// No server: a singleton client (nspace empty: the singleton's name) or a
// standalone tool named nspace.
pmix_status_t start_singleton(Session &session, const std::string &nspace);

// Starts a session as a tool (tool_start.cc): connected, or standalone.
pmix_status_t start_tool(const std::shared_ptr<Session> &session, const pmix_info_t info[], size_t ninfo);

}  // namespace pmixpp::client

#endif
