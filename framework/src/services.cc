#include "services.h"

#include "diagnostics.h"
#include "param_store.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <string>

namespace pmixpp::framework {
namespace {

constinit std::atomic<void *> current_event_base{nullptr};

// "<fw>_<component>_<name>", or false when `self` is not a component the core accepted.
bool component_param_key(const pmixpp_component_t *self, const char *name, std::string *key_p)
{
    if (name == nullptr || *name == '\0') return false;
    std::string framework;
    std::string component;
    if (!param_store().identify(self, &framework, &component)) return false;
    *key_p = framework + "_" + component + "_" + name;
    return true;
}

const char *level_name(pmixpp_log_level_t level)
{
    switch (level) {
    case PMIXPP_LOG_ERROR: return "error";
    case PMIXPP_LOG_WARN: return "warning";
    case PMIXPP_LOG_INFO: return "info";
    case PMIXPP_LOG_TRACE: return "trace";
    }
    return "log";
}

// Plain C++ functions: GCC gives them the same calling convention as the C
// function pointer types of the table.
__attribute__((format(printf, 3, 4))) void service_log(const pmixpp_component_t *self, pmixpp_log_level_t level,
                                                       const char *fmt, ...)
{
    if (fmt == nullptr) return;
    std::string framework = "?";
    std::string component = "?";
    param_store().identify(self, &framework, &component);
    const int verbosity = param_store().verbosity(framework);
    if (level >= PMIXPP_LOG_TRACE && verbosity <= 0) return;
    char text[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    try {
        const std::string line = framework + "/" + component + ": " + level_name(level) + ": " + text;
        if (level >= PMIXPP_LOG_TRACE) {
            trace(verbosity, line);
        } else {
            warn(line);
        }
    } catch (const std::bad_alloc &) {
        // Logging must never take the process down.
    }
}

int service_register_param(const pmixpp_component_t *self, const pmixpp_param_desc_t *desc)
{
    if (desc == nullptr || desc->struct_size < sizeof(pmixpp_param_desc_t)) return PMIX_ERR_BAD_PARAM;
    try {
        std::string key;
        if (!component_param_key(self, desc->name, &key)) return PMIX_ERR_BAD_PARAM;
        if (desc->type != PMIXPP_PARAM_STRING && desc->type != PMIXPP_PARAM_INT && desc->type != PMIXPP_PARAM_BOOL) {
            return PMIX_ERR_BAD_PARAM;
        }
        ParamDeclaration declaration;
        declaration.framework = key.substr(0, key.find('_'));
        declaration.key = key;
        declaration.type = desc->type;
        declaration.default_value = desc->default_value != nullptr ? desc->default_value : "";
        declaration.help = desc->help != nullptr ? desc->help : "";
        return param_store().declare(declaration);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

const char *service_param_string(const pmixpp_component_t *self, const char *name)
{
    try {
        std::string key;
        if (!component_param_key(self, name, &key)) return nullptr;
        return param_store().value(key);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

long long service_param_int(const pmixpp_component_t *self, const char *name, long long fallback)
{
    const char *text = service_param_string(self, name);
    long long value = 0;
    if (text == nullptr || !parse_int(text, &value)) return fallback;
    return value;
}

int service_param_bool(const pmixpp_component_t *self, const char *name, int fallback)
{
    const char *text = service_param_string(self, name);
    bool value = false;
    if (text == nullptr || !parse_bool(text, &value)) return fallback;
    return value ? 1 : 0;
}

void *service_event_base(void)
{
    return current_event_base.load();
}

constexpr pmixpp_services_t services{
    sizeof(pmixpp_services_t),  PMIXPP_COMPONENT_ABI_MAJOR,
    PMIXPP_COMPONENT_ABI_MINOR, service_log,
    service_register_param,     service_param_string,
    service_param_int,          service_param_bool,
    service_event_base,         {},
};

}  // namespace

const pmixpp_services_t *services_table()
{
    return &services;
}

void set_services_event_base(void *event_base)
{
    current_event_base.store(event_base);
}

}  // namespace pmixpp::framework
