// What PMIx_tool_init / PMIx_tool_attach_to_server were told: the tool's own
// identity, how to find the server, and what to do without one.
#ifndef PMIXPP_CLIENT_CORE_TOOL_OPTIONS_H
#define PMIXPP_CLIENT_CORE_TOOL_OPTIONS_H

#include <sys/types.h>

#include <chrono>
#include <string>

#include <pmix_common.h>

namespace pmixpp::client {

struct ToolOptions {
    // PMIX_TOOL_NSPACE / PMIX_TOOL_RANK (empty nspace: the server assigns one).
    std::string nspace;
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    bool launcher = false;  // PMIX_LAUNCHER

    // Explicit ways to the server, tried in this order when given.
    std::string server_uri;       // PMIX_SERVER_URI ("<nspace>.<rank>;<uri>" or a plain uri)
    std::string attachment_file;  // PMIX_TOOL_ATTACHMENT_FILE
    pid_t server_pid = 0;         // PMIX_SERVER_PIDINFO
    std::string server_nspace;    // PMIX_SERVER_NSPACE
    bool to_system = false;       // PMIX_CONNECT_TO_SYSTEM
    bool to_scheduler = false;    // PMIX_CONNECT_TO_SCHEDULER
    bool to_controller = false;   // PMIX_CONNECT_TO_SYS_CONTROLLER
    bool system_first = false;    // PMIX_CONNECT_SYSTEM_FIRST (default search)

    std::string system_tmpdir;  // PMIX_SYSTEM_TMPDIR attribute, else environment (tmpdirs.h)
    std::string server_tmpdir;  // PMIX_SERVER_TMPDIR attribute, else environment (tmpdirs.h)
    std::string hostname;       // PMIX_HOSTNAME, else gethostname

    // PMIX_CONNECT_MAX_RETRIES / PMIX_CONNECT_RETRY_DELAY (bounded).
    unsigned max_retries = 0;
    std::chrono::milliseconds retry_delay{1000};

    bool do_not_connect = false;    // PMIX_TOOL_DO_NOT_CONNECT
    bool connect_optional = false;  // PMIX_TOOL_CONNECT_OPTIONAL

    // True when one of the explicit ways above was given.
    bool explicit_target() const;
};

// Reads the attributes of info (unknown ones are ignored). PMIX_ERR_BAD_PARAM
// with *error_p for a known attribute of the wrong type or value.
pmix_status_t read_tool_options(const pmix_info_t info[], size_t ninfo, ToolOptions *options_p, std::string *error_p);

}  // namespace pmixpp::client

#endif
