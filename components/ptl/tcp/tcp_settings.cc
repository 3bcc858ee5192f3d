// The settings of ptl/tcp: component params (PMIX_MCA_ptl_tcp_<name>) first,
// then the PMIx_server_init info on top, because the host's explicit request
// is the more specific one.
#include "tcp.h"

#include "../shared/ptl_shared.hpp"

#include <new>

namespace pmixpp::ptl::tcp {
namespace {

struct ParamSpec {
    const char *name;
    pmixpp_param_type_t type;
    const char *default_value;
    const char *help;
};

constexpr ParamSpec params[] = {
    {"remote_connections", PMIXPP_PARAM_BOOL, "false",
     "Listen on the interfaces chosen by if_include/if_exclude, not only on loopback"},
    {"if_include", PMIXPP_PARAM_STRING, "", "Interfaces to listen on: names (lo,eth0) or CIDR (10.0.0.0/8)"},
    {"if_exclude", PMIXPP_PARAM_STRING, "", "Interfaces not to listen on: names or CIDR"},
    {"ipv4_port", PMIXPP_PARAM_INT, "0", "Fixed IPv4 port (0: any free port)"},
    {"ipv6_port", PMIXPP_PARAM_INT, "0", "Fixed IPv6 port (0: any free port)"},
    {"disable_ipv4", PMIXPP_PARAM_BOOL, "false", "Do not listen on IPv4"},
    {"disable_ipv6", PMIXPP_PARAM_BOOL, "false", "Do not listen on IPv6"},
    {"report_uri", PMIXPP_PARAM_STRING, "", "Write the URIs after listening: - stdout, + stderr, else a file"},
};

// One source of values: a param (text) or an info value.
class Source {
public:
    virtual ~Source() = default;
    // PMIX_ERR_NOT_FOUND: not set here; anything else but success: garbage.
    virtual pmix_status_t flag(const char *param, const char *key, bool *value_p) const = 0;
    virtual pmix_status_t number(const char *param, const char *key, uint64_t max, uint64_t *value_p) const = 0;
    virtual pmix_status_t text(const char *param, const char *key, std::string *value_p) const = 0;
};

class ParamSource final : public Source {
public:
    pmix_status_t flag(const char *param, const char *, bool *value_p) const override
    {
        const std::string text = value(param);
        if (text.empty()) return PMIX_ERR_NOT_FOUND;
        return check(param, util::parse_bool(text, value_p));
    }
    pmix_status_t number(const char *param, const char *, uint64_t max, uint64_t *value_p) const override
    {
        const std::string text = value(param);
        if (text.empty()) return PMIX_ERR_NOT_FOUND;
        return check(param, util::parse_unsigned(text, max, 10, value_p));
    }
    pmix_status_t text(const char *param, const char *, std::string *value_p) const override
    {
        *value_p = value(param);
        return value_p->empty() ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
    }

private:
    static std::string value(const char *param) { return current_services().param_string(param); }
    static pmix_status_t check(const char *param, pmix_status_t rc)
    {
        if (rc != PMIX_SUCCESS) {
            log(PMIXPP_LOG_ERROR, "PMIX_MCA_ptl_tcp_%s: unreadable value '%s'", param, value(param).c_str());
        }
        return rc;
    }
};

class InfoSource final : public Source {
public:
    InfoSource(const pmix_info_t *info, size_t ninfo) : info_(info), ninfo_(ninfo) {}

    pmix_status_t flag(const char *, const char *key, bool *value_p) const override
    {
        const pmix_info_t *item = find_info(info_, ninfo_, key);
        if (item == nullptr) return PMIX_ERR_NOT_FOUND;
        const pmix_status_t rc = read_bool(item->value, value_p);
        return rc == PMIX_SUCCESS ? rc : report_bad_info(key, rc, "a bool");
    }
    pmix_status_t number(const char *, const char *key, uint64_t max, uint64_t *value_p) const override
    {
        const pmix_info_t *item = find_info(info_, ninfo_, key);
        if (item == nullptr) return PMIX_ERR_NOT_FOUND;
        const pmix_status_t rc = read_unsigned(item->value, max, 10, value_p);
        return rc == PMIX_SUCCESS ? rc : report_bad_info(key, rc, "an integer port from 0 to 65535");
    }
    pmix_status_t text(const char *, const char *key, std::string *value_p) const override
    {
        const pmix_info_t *item = find_info(info_, ninfo_, key);
        if (item == nullptr) return PMIX_ERR_NOT_FOUND;
        const pmix_status_t rc = read_string(item->value, value_p);
        return rc == PMIX_SUCCESS ? rc : report_bad_info(key, rc, "a string");
    }

private:
    const pmix_info_t *info_;
    size_t ninfo_;
};

// Not-found leaves the current value alone.
pmix_status_t keep_or_fail(pmix_status_t rc)
{
    return rc == PMIX_ERR_NOT_FOUND ? PMIX_SUCCESS : rc;
}

pmix_status_t apply(const Source &source, Settings *settings)
{
    uint64_t port = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    if ((rc = keep_or_fail(source.flag("remote_connections", PMIX_SERVER_REMOTE_CONNECTIONS,
                                       &settings->remote_connections))) != PMIX_SUCCESS ||
        (rc = keep_or_fail(source.text("if_include", PMIX_TCP_IF_INCLUDE, &settings->if_include))) != PMIX_SUCCESS ||
        (rc = keep_or_fail(source.text("if_exclude", PMIX_TCP_IF_EXCLUDE, &settings->if_exclude))) != PMIX_SUCCESS ||
        (rc = keep_or_fail(source.flag("disable_ipv4", PMIX_TCP_DISABLE_IPV4, &settings->disable_ipv4))) !=
            PMIX_SUCCESS ||
        (rc = keep_or_fail(source.flag("disable_ipv6", PMIX_TCP_DISABLE_IPV6, &settings->disable_ipv6))) !=
            PMIX_SUCCESS ||
        (rc = keep_or_fail(source.text("report_uri", PMIX_TCP_REPORT_URI, &settings->report_uri))) != PMIX_SUCCESS) {
        return rc;
    }
    if ((rc = source.number("ipv4_port", PMIX_TCP_IPV4_PORT, 65535, &port)) == PMIX_SUCCESS) {
        settings->ipv4_port = static_cast<unsigned>(port);
    } else if (rc != PMIX_ERR_NOT_FOUND) {
        return rc;
    }
    if ((rc = source.number("ipv6_port", PMIX_TCP_IPV6_PORT, 65535, &port)) == PMIX_SUCCESS) {
        settings->ipv6_port = static_cast<unsigned>(port);
    } else if (rc != PMIX_ERR_NOT_FOUND) {
        return rc;
    }
    return PMIX_SUCCESS;
}

}  // namespace

void declare_params(const pmixpp::sdk::Services &services)
{
    for (const ParamSpec &param : params) {
        services.register_param(param.name, param.type, param.default_value, param.help);
    }
}

pmix_status_t read_settings(const pmix_info_t info[], size_t ninfo, Settings *settings_p)
{
    try {
        Settings settings;
        pmix_status_t rc = apply(ParamSource(), &settings);
        if (rc == PMIX_SUCCESS) rc = apply(InfoSource(info, ninfo), &settings);
        if (rc != PMIX_SUCCESS) return rc;
        if (!settings.if_include.empty() && !settings.if_exclude.empty()) {
            log(PMIXPP_LOG_ERROR, "%s and %s are mutually exclusive (give only one)", PMIX_TCP_IF_INCLUDE,
                PMIX_TCP_IF_EXCLUDE);
            return PMIX_ERR_BAD_PARAM;
        }
        if (settings.disable_ipv4 && settings.disable_ipv6) {
            log(PMIXPP_LOG_TRACE, "both IPv4 and IPv6 are disabled: not listening on tcp");
            return PMIX_ERR_NOT_AVAILABLE;
        }
        *settings_p = std::move(settings);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::ptl::tcp
