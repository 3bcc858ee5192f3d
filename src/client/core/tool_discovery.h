// Where a tool finds its server: an attribute naming it, a rendezvous file
// (src/common/rendezvous/rendezvous.h) the server left in a tmpdir, or the
// environment of the launcher that started the tool. docs/tools.md lists the
// order.
#ifndef PMIXPP_CLIENT_CORE_TOOL_DISCOVERY_H
#define PMIXPP_CLIENT_CORE_TOOL_DISCOVERY_H

#include <string>

#include <pmix_common.h>

#include "client/core/discovery.h"
#include "client/core/tool_options.h"

namespace pmixpp::client {

// The server options point at, with the tool's identity and Hello type
// filled in. PMIX_ERR_UNREACH with *problem_p saying what was searched and
// how to point the tool at a server; PMIX_ERR_BAD_PARAM when the default
// search finds several servers (*problem_p lists their pids).
pmix_status_t find_tool_server(const ToolOptions &options, ServerContact *contact_p, std::string *problem_p);

// One line for the trace of the search (PMIX_MCA_pmix_client_verbose > 0,
// or PMIX_DEBUG >= 10).
void tool_trace(const std::string &what);

}  // namespace pmixpp::client

#endif
