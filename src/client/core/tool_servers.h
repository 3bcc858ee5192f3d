// A tool's server connections behind PMIx_tool_attach_to_server,
// PMIx_tool_get_servers, PMIx_tool_set_server and PMIx_tool_disconnect.
#ifndef PMIXPP_CLIENT_CORE_TOOL_SERVERS_H
#define PMIXPP_CLIENT_CORE_TOOL_SERVERS_H

#include <memory>
#include <string>
#include <vector>

#include <pmix_common.h>

#include "client/core/session.h"
#include "client/core/tool_options.h"

namespace pmixpp::client {

// Finds the server options name and connects (retrying as they say); the
// new link becomes active when the session had none. *problem_p explains a
// failure. Caller's thread (blocking), never the progress thread.
pmix_status_t connect_tool(const std::shared_ptr<Session> &session, const ToolOptions &options,
                           std::shared_ptr<ServerLink> *link_p, std::string *problem_p);

// One more server for an initialized tool, found with the same attributes
// as PMIx_tool_init; the tool keeps its identity. *myproc_p / *server_p may
// be null.
pmix_status_t attach_tool(const pmix_info_t info[], size_t ninfo, pmix_proc_t *myproc_p, pmix_proc_t *server_p);

pmix_status_t tool_servers(std::vector<pmix_proc_t> *servers_p);
pmix_status_t set_tool_server(const pmix_proc_t &server);
pmix_status_t disconnect_tool_server(const pmix_proc_t &server);

}  // namespace pmixpp::client

#endif
