#include "client/core/tool_options.h"

#include <cstring>
#include <string_view>

#include "client/core/singleton.h"
#include "common/runtime/tmpdirs.h"

namespace pmixpp::client {

namespace {

// Limits that keep a misconfigured tool from retrying for days.
constexpr unsigned kMaxRetries = 1000;
constexpr unsigned kMaxRetryDelaySeconds = 60;

bool is_key(const pmix_info_t &info, const char *key)
{
    return std::strncmp(info.key, key, PMIX_MAX_KEYLEN) == 0;
}

// A key given without a value counts as true, as for the other flags.
bool read_flag(const pmix_value_t &v, bool *flag_p)
{
    if (v.type == PMIX_UNDEF) {
        *flag_p = true;
        return true;
    }
    if (v.type != PMIX_BOOL) {
        return false;
    }
    *flag_p = v.data.flag;
    return true;
}

bool read_string(const pmix_value_t &v, std::string *text_p)
{
    if (v.type != PMIX_STRING || v.data.string == nullptr) {
        return false;
    }
    *text_p = v.data.string;
    return true;
}

bool read_unsigned(const pmix_value_t &v, unsigned long long *number_p)
{
    long long value = -1;
    switch (v.type) {
    case PMIX_UINT32: value = v.data.uint32; break;
    case PMIX_PROC_RANK: value = v.data.rank; break;
    case PMIX_UINT: value = v.data.uint; break;
    case PMIX_UINT16: value = v.data.uint16; break;
    case PMIX_UINT64: value = static_cast<long long>(v.data.uint64 & 0x7fffffffffffffffULL); break;
    case PMIX_SIZE: value = static_cast<long long>(v.data.size); break;
    case PMIX_INT: value = v.data.integer; break;
    case PMIX_INT32: value = v.data.int32; break;
    case PMIX_INT64: value = v.data.int64; break;
    case PMIX_PID: value = v.data.pid; break;
    default: return false;
    }
    if (value < 0) {
        return false;
    }
    *number_p = static_cast<unsigned long long>(value);
    return true;
}

// One attribute into options; false when it has the wrong type.
bool read_one(const pmix_info_t &info, ToolOptions &o)
{
    const pmix_value_t &v = info.value;
    unsigned long long number = 0;
    if (is_key(info, PMIX_TOOL_NSPACE)) return read_string(v, &o.nspace) && o.nspace.size() <= PMIX_MAX_NSLEN;
    if (is_key(info, PMIX_TOOL_RANK)) {
        if (!read_unsigned(v, &number) || number > 0xffffffffULL) return false;
        o.rank = static_cast<pmix_rank_t>(number);
        return true;
    }
    if (is_key(info, PMIX_LAUNCHER)) return read_flag(v, &o.launcher);
    if (is_key(info, PMIX_SERVER_URI)) return read_string(v, &o.server_uri);
    if (is_key(info, PMIX_TOOL_ATTACHMENT_FILE)) return read_string(v, &o.attachment_file);
    if (is_key(info, PMIX_SERVER_PIDINFO)) {
        if (!read_unsigned(v, &number) || number == 0 || number > 0x7fffffffULL) return false;
        o.server_pid = static_cast<pid_t>(number);
        return true;
    }
    if (is_key(info, PMIX_SERVER_NSPACE)) return read_string(v, &o.server_nspace);
    if (is_key(info, PMIX_CONNECT_TO_SYSTEM)) return read_flag(v, &o.to_system);
    if (is_key(info, PMIX_CONNECT_TO_SCHEDULER)) return read_flag(v, &o.to_scheduler);
    if (is_key(info, PMIX_CONNECT_TO_SYS_CONTROLLER)) return read_flag(v, &o.to_controller);
    if (is_key(info, PMIX_CONNECT_SYSTEM_FIRST)) return read_flag(v, &o.system_first);
    if (is_key(info, PMIX_SYSTEM_TMPDIR)) return read_string(v, &o.system_tmpdir);
    if (is_key(info, PMIX_SERVER_TMPDIR)) return read_string(v, &o.server_tmpdir);
    if (is_key(info, PMIX_HOSTNAME)) return read_string(v, &o.hostname);
    if (is_key(info, PMIX_TOOL_DO_NOT_CONNECT)) return read_flag(v, &o.do_not_connect);
    if (is_key(info, PMIX_TOOL_CONNECT_OPTIONAL)) return read_flag(v, &o.connect_optional);
    if (is_key(info, PMIX_CONNECT_MAX_RETRIES)) {
        if (!read_unsigned(v, &number)) return false;
        o.max_retries = static_cast<unsigned>(number > kMaxRetries ? kMaxRetries : number);
        return true;
    }
    if (is_key(info, PMIX_CONNECT_RETRY_DELAY)) {
        if (!read_unsigned(v, &number)) return false;
        o.retry_delay = std::chrono::seconds{number > kMaxRetryDelaySeconds ? kMaxRetryDelaySeconds : number};
        return true;
    }
    return true;
}

}  // namespace

bool ToolOptions::explicit_target() const
{
    return !server_uri.empty() || !attachment_file.empty() || server_pid != 0 ||
           !server_nspace.empty() || to_system || to_scheduler || to_controller;
}

pmix_status_t read_tool_options(const pmix_info_t info[], size_t ninfo, ToolOptions *options_p,
                                std::string *error_p)
{
    if (info == nullptr && ninfo > 0) {
        *error_p = "info is NULL but ninfo is not 0";
        return PMIX_ERR_BAD_PARAM;
    }
    ToolOptions options;
    for (size_t i = 0; i < ninfo; ++i) {
        if (!read_one(info[i], options)) {
            *error_p = std::string("attribute ") +
                       std::string(info[i].key, strnlen(info[i].key, PMIX_MAX_KEYLEN)) +
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
