#include "server/state/config.h"

#include "common/runtime/log.h"
#include "server/state/info_read.h"
#include "common/runtime/tmpdirs.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace pmixpp::server {

std::string local_hostname()
{
    char host[256] = {};
    if (gethostname(host, sizeof(host) - 1) != 0 || host[0] == '\0') return "localhost";
    return host;
}

namespace {

struct FlagAttribute {
    const char *key;
    bool Config::*field;
};

constexpr FlagAttribute kFlags[] = {
    {PMIX_SERVER_SHARE_TOPOLOGY, &Config::share_topology},
    {PMIX_SINGLE_LISTENER, &Config::single_listener},
    {PMIX_SERVER_TOOL_SUPPORT, &Config::tool_support},
    {PMIX_SERVER_SYSTEM_SUPPORT, &Config::system_support},
    {PMIX_SERVER_SESSION_SUPPORT, &Config::session_support},
    {PMIX_SERVER_GATEWAY, &Config::gateway},
    {PMIX_SERVER_SCHEDULER, &Config::scheduler},
    {PMIX_SERVER_ENABLE_MONITORING, &Config::monitoring},
};

struct StringAttribute {
    const char *key;
    std::string Config::*field;
};

constexpr StringAttribute kStrings[] = {
    {PMIX_SERVER_NSPACE, &Config::nspace},
    {PMIX_HOSTNAME, &Config::hostname},
    {PMIX_SERVER_TMPDIR, &Config::server_tmpdir},
    {PMIX_SYSTEM_TMPDIR, &Config::system_tmpdir},
};

pmix_status_t bad(const char *key, const char *expected, std::string *error_p)
{
    if (error_p != nullptr) *error_p = std::string(key) + " must be " + expected;
    return PMIX_ERR_BAD_PARAM;
}

pmix_status_t read_pointers(const pmix_info_t info[], std::size_t ninfo, Config &config, std::string *error_p)
{
    void *pointer = nullptr;
    if (const pmix_info_t *item = find_info(info, ninfo, PMIX_EVENT_BASE)) {
        if (read_pointer(item->value, &pointer) != PMIX_SUCCESS) {
            return bad(PMIX_EVENT_BASE, "a pointer", error_p);
        }
        config.event_base = static_cast<struct event_base *>(pointer);
    }
    if (const pmix_info_t *item = find_info(info, ninfo, PMIX_TOPOLOGY2)) {
        if (item->value.type == PMIX_TOPO) {
            config.topology = item->value.data.topo;
        } else if (read_pointer(item->value, &pointer) == PMIX_SUCCESS) {
            config.topology = static_cast<pmix_topology_t *>(pointer);
        } else {
            return bad(PMIX_TOPOLOGY2, "a pmix_topology_t pointer", error_p);
        }
    }
    return PMIX_SUCCESS;
}

// A bad value is reported and replaced by the default: a typo must not
// leave the server without its guard against silent peers.
std::chrono::milliseconds handshake_timeout_from_environment()
{
    const char *text = std::getenv(kHandshakeTimeoutEnv);
    if (text == nullptr || *text == '\0') return Config::kDefaultHandshakeTimeout;
    char *end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(seconds > 0.0) || seconds > 86400.0) {
        runtime::log_warning("server", std::string(kHandshakeTimeoutEnv) + "='" + text +
                                           "' is not a number of seconds in (0, 86400] "
                                           "(using the default of 10)");
        return Config::kDefaultHandshakeTimeout;
    }
    return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
}

std::chrono::milliseconds event_caching_window_from_environment()
{
    const char *text = std::getenv(kEventCachingWindowEnv);
    if (text == nullptr || *text == '\0') return Config::kDefaultEventCachingWindow;
    char *end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(seconds >= 0.0) || seconds > 3600.0) {
        runtime::log_warning("server", std::string(kEventCachingWindowEnv) + "='" + text +
                                           "' is not a number of seconds in [0, 3600] (using the default of 1)");
        return Config::kDefaultEventCachingWindow;
    }
    return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
}

long long share_modex_bytes_from_environment()
{
    const char *text = std::getenv(kShareModexBytesEnv);
    if (text == nullptr || *text == '\0') return Config::kDefaultShareModexBytes;
    char *end = nullptr;
    const long long bytes = std::strtoll(text, &end, 10);
    if (end == text || *end != '\0' || bytes < -1) {
        runtime::log_warning("server", std::string(kShareModexBytesEnv) + "='" + text +
                                           "' is not a byte count >= 0, or -1 for never (using the default of " +
                                           std::to_string(Config::kDefaultShareModexBytes) + ")");
        return Config::kDefaultShareModexBytes;
    }
    return bytes;
}

std::size_t count_from_environment(const char *variable, std::size_t fallback)
{
    const char *text = std::getenv(variable);
    if (text == nullptr || *text == '\0') return fallback;
    char *end = nullptr;
    errno = 0;
    const unsigned long long count = std::strtoull(text, &end, 10);
    if (end == text || *end != '\0' || *text == '-' || errno != 0 || count > (1ull << 32)) {
        runtime::log_warning("server", std::string(variable) + "='" + text +
                                           "' is not a count >= 0 (0: no limit; using the default of " +
                                           std::to_string(fallback) + ")");
        return fallback;
    }
    return static_cast<std::size_t>(count);
}

void apply_defaults(Config &config)
{
    config.max_parked_requests = count_from_environment(kMaxParkedRequestsEnv, Config::kDefaultMaxParkedRequests);
    config.max_pending_requests = count_from_environment(kMaxPendingRequestsEnv, Config::kDefaultMaxPendingRequests);
    config.max_connections_per_uid =
        count_from_environment(kMaxConnectionsPerUidEnv, Config::kDefaultMaxConnectionsPerUid);
    config.handshake_timeout = handshake_timeout_from_environment();
    config.share_modex_bytes = share_modex_bytes_from_environment();
    config.event_caching_window = event_caching_window_from_environment();
    config.hostname_given = !config.hostname.empty();
    if (config.hostname.empty()) config.hostname = local_hostname();
    if (config.nspace.empty()) {
        config.nspace = "pmixpp-server-" + config.hostname + "-" + std::to_string(getpid());
        // Long host names must not push the default past the nspace limit.
        if (config.nspace.size() > PMIX_MAX_NSLEN) config.nspace.resize(PMIX_MAX_NSLEN);
    }
    // The seed's fallback orders (the server's also reads PMIX_SERVER_TMPDIR).
    if (config.server_tmpdir.empty()) config.server_tmpdir = runtime::server_tmpdir_fallback();
    if (config.system_tmpdir.empty()) config.system_tmpdir = runtime::system_tmpdir_fallback();
}

}  // namespace

pmix_status_t parse_config(const pmix_info_t info[], std::size_t ninfo, Config *config_p, std::string *error_p)
{
    if (info == nullptr && ninfo > 0) return bad("info", "non-NULL when ninfo > 0", error_p);
    Config config;
    for (const auto &flag : kFlags) {
        const pmix_info_t *item = find_info(info, ninfo, flag.key);
        if (item != nullptr && read_bool(item->value, &(config.*flag.field)) != PMIX_SUCCESS) {
            return bad(flag.key, "a bool", error_p);
        }
    }
    for (const auto &text : kStrings) {
        const pmix_info_t *item = find_info(info, ninfo, text.key);
        if (item != nullptr && read_string(item->value, &(config.*text.field)) != PMIX_SUCCESS) {
            return bad(text.key, "a string", error_p);
        }
    }
    if (config.nspace.size() > PMIX_MAX_NSLEN) {
        return bad(PMIX_SERVER_NSPACE, "at most 255 characters", error_p);
    }
    if (const pmix_info_t *item = find_info(info, ninfo, PMIX_SERVER_RANK)) {
        if (read_rank(item->value, &config.rank) != PMIX_SUCCESS) {
            return bad(PMIX_SERVER_RANK, "a pmix_rank_t", error_p);
        }
    }
    for (const auto &[key, field] :
         {std::pair{PMIX_USERID, &Config::job_uid}, std::pair{PMIX_GRPID, &Config::job_gid}}) {
        uint32_t id = 0;
        const pmix_info_t *item = find_info(info, ninfo, key);
        if (item == nullptr) continue;
        if (read_u32(item->value, &id) != PMIX_SUCCESS) return bad(key, "a uint32 id", error_p);
        config.*field = id;
    }
    const pmix_status_t rc = read_pointers(info, ninfo, config, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    apply_defaults(config);
    *config_p = std::move(config);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::server
