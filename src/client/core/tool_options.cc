#include "client/core/tool_options.h"

#include <string_view>

#include <pmixpp/util.hpp>

#include "client/core/singleton.h"
#include "common/runtime/tmpdirs.h"

namespace pmixpp::client {

namespace {

// Limits that keep a misconfigured tool from retrying for days.
constexpr unsigned kMaxRetries = 1000;
constexpr unsigned kMaxRetryDelaySeconds = 60;

// The SDK's readers (pmixpp/util.hpp): a tool's flag or number means what it
// means to the server. read_one wants yes or no, not a status.
using util::key_is;

bool read_flag(const pmix_value_t &v, bool *flag_p)
{
    return util::read_bool(v, flag_p) == PMIX_SUCCESS;
}

bool read_string(const pmix_value_t &v, std::string *text_p)
{
    return util::read_string(v, text_p) == PMIX_SUCCESS;
}

bool read_unsigned(const pmix_value_t &v, unsigned long long *number_p)
{
    return util::read_unsigned(v, number_p) == PMIX_SUCCESS;
}

// One attribute into options; false when it has the wrong type.
bool read_one(const pmix_info_t &info, ToolOptions &o)
{
    const pmix_value_t &v = info.value;
    unsigned long long number = 0;
    if (key_is(info, PMIX_TOOL_NSPACE)) return read_string(v, &o.nspace) && o.nspace.size() <= PMIX_MAX_NSLEN;
    if (key_is(info, PMIX_TOOL_RANK)) {
        if (!read_unsigned(v, &number) || number > 0xffffffffULL) return false;
        o.rank = static_cast<pmix_rank_t>(number);
        return true;
    }
    if (key_is(info, PMIX_LAUNCHER)) return read_flag(v, &o.launcher);
    if (key_is(info, PMIX_SERVER_URI)) return read_string(v, &o.server_uri);
    if (key_is(info, PMIX_TOOL_ATTACHMENT_FILE)) return read_string(v, &o.attachment_file);
    if (key_is(info, PMIX_SERVER_PIDINFO)) {
        if (!read_unsigned(v, &number) || number == 0 || number > 0x7fffffffULL) return false;
        o.server_pid = static_cast<pid_t>(number);
        return true;
    }
    if (key_is(info, PMIX_SERVER_NSPACE)) return read_string(v, &o.server_nspace);
    if (key_is(info, PMIX_CONNECT_TO_SYSTEM)) return read_flag(v, &o.to_system);
    if (key_is(info, PMIX_CONNECT_TO_SCHEDULER)) return read_flag(v, &o.to_scheduler);
    if (key_is(info, PMIX_CONNECT_TO_SYS_CONTROLLER)) return read_flag(v, &o.to_controller);
    if (key_is(info, PMIX_CONNECT_SYSTEM_FIRST)) return read_flag(v, &o.system_first);
    if (key_is(info, PMIX_SYSTEM_TMPDIR)) return read_string(v, &o.system_tmpdir);
    if (key_is(info, PMIX_SERVER_TMPDIR)) return read_string(v, &o.server_tmpdir);
    if (key_is(info, PMIX_HOSTNAME)) return read_string(v, &o.hostname);
    if (key_is(info, PMIX_TOOL_DO_NOT_CONNECT)) return read_flag(v, &o.do_not_connect);
    if (key_is(info, PMIX_TOOL_CONNECT_OPTIONAL)) return read_flag(v, &o.connect_optional);
    if (key_is(info, PMIX_CONNECT_MAX_RETRIES)) {
        if (!read_unsigned(v, &number)) return false;
        o.max_retries = static_cast<unsigned>(number > kMaxRetries ? kMaxRetries : number);
        return true;
    }
    if (key_is(info, PMIX_CONNECT_RETRY_DELAY)) {
        if (!read_unsigned(v, &number)) return false;
        o.retry_delay = std::chrono::seconds{number > kMaxRetryDelaySeconds ? kMaxRetryDelaySeconds : number};
        return true;
    }
    return true;
}

}  // namespace

bool ToolOptions::explicit_target() const
{
    return !server_uri.empty() || !attachment_file.empty() || server_pid != 0 || !server_nspace.empty() || to_system ||
           to_scheduler || to_controller;
}

pmix_status_t read_tool_options(const pmix_info_t info[], size_t ninfo, ToolOptions *options_p, std::string *error_p)
{
    if (info == nullptr && ninfo > 0) {
        *error_p = "info is NULL but ninfo is not 0";
        return PMIX_ERR_BAD_PARAM;
    }
    ToolOptions options;
    for (size_t i = 0; i < ninfo; ++i) {
        if (!read_one(info[i], options)) {
            *error_p = std::string("attribute ") + std::string(info[i].key, strnlen(info[i].key, PMIX_MAX_KEYLEN)) +
                       " has a value of the wrong type or out of range";
            return PMIX_ERR_BAD_PARAM;
        }
    }
    if (options.system_tmpdir.empty()) options.system_tmpdir = runtime::system_tmpdir_fallback();
    if (options.server_tmpdir.empty()) options.server_tmpdir = runtime::server_tmpdir_fallback();
    if (options.hostname.empty()) options.hostname = local_hostname();
    *options_p = std::move(options);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::client
