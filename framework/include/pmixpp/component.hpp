/*
 * Optional header-only C++ adapter for the pmixpp component SDK.
 *
 * It lets a component be a C++ class with static hooks and builds the C
 * descriptor of <pmixpp/component.h> from it at compile time. Nothing of C++
 * crosses the boundary: every hook is wrapped so that an exception becomes a
 * PMIx error status (or a declined query) plus one log line.
 *
 *     struct VendorNet {
 *         static constexpr const char *version = "1.0.0";
 *         static constexpr int priority = 20;
 *         static constexpr uint16_t framework_major = PMIXPP_PNET_API_MAJOR;
 *         static constexpr uint16_t framework_minor = PMIXPP_PNET_API_MINOR;
 *
 *         // every hook is optional
 *         static void register_params(pmixpp::sdk::Services &services);
 *         static void open(pmixpp::sdk::Services &services);
 *         static const void *query(pmixpp::sdk::Services &services, int &priority);
 *         static void close();
 *     };
 *     PMIXPP_CXX_COMPONENT(pnet, vendor, VendorNet)
 *
 * query returns the module table, or nullptr to decline quietly; throwing
 * pmixpp::sdk::Fatal stops selection (the user asked for something that
 * cannot work here). Throw pmixpp::sdk::Error(status) from the other hooks to
 * fail with a specific PMIx status.
 */
#ifndef PMIXPP_COMPONENT_HPP
#define PMIXPP_COMPONENT_HPP

#include <pmixpp/component.h>
#include <pmix_common.h>

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace pmixpp::sdk {

// Fails a hook with a chosen PMIx status.
class Error : public std::runtime_error {
public:
    Error(pmix_status_t status, const std::string &what) : std::runtime_error(what), status_(status) {}
    pmix_status_t status() const noexcept { return status_; }

private:
    pmix_status_t status_;
};

// Thrown from query: stop selection instead of declining.
class Fatal : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The core's services table, bound to this component. Calls that the table
// given by an older core does not contain act as "not available".
class Services {
public:
    Services(const pmixpp_services_t *raw, const pmixpp_component_t *self) noexcept : raw_(raw), self_(self) {}

    const pmixpp_services_t *raw() const noexcept { return raw_; }

    [[gnu::format(printf, 3, 4)]] void log(pmixpp_log_level_t level, const char *fmt, ...) const
    {
        if (!has(offsetof(pmixpp_services_t, log), sizeof(raw_->log)) || raw_->log == nullptr) {
            return;
        }
        char line[512];
        va_list args;
        va_start(args, fmt);
        std::vsnprintf(line, sizeof(line), fmt, args);
        va_end(args);
        raw_->log(self_, level, "%s", line);
    }

    // Throws Error when the core refuses the declaration.
    void register_param(const char *name, pmixpp_param_type_t type, const char *default_value, const char *help) const
    {
        if (!has(offsetof(pmixpp_services_t, register_param), sizeof(raw_->register_param)) ||
            raw_->register_param == nullptr) {
            throw Error(PMIX_ERR_NOT_SUPPORTED, "core offers no register_param");
        }
        const pmixpp_param_desc_t desc = {sizeof(desc), name, type, default_value, help};
        const int rc = raw_->register_param(self_, &desc);
        if (rc != 0) {
            throw Error(rc, std::string("cannot register parameter ") + name);
        }
    }

    // Empty when the parameter is unknown.
    std::string param_string(const char *name) const
    {
        if (!has(offsetof(pmixpp_services_t, param_string), sizeof(raw_->param_string)) ||
            raw_->param_string == nullptr) {
            return {};
        }
        const char *value = raw_->param_string(self_, name);
        return value ? std::string(value) : std::string();
    }

    long long param_int(const char *name, long long fallback) const noexcept
    {
        if (!has(offsetof(pmixpp_services_t, param_int), sizeof(raw_->param_int)) || raw_->param_int == nullptr) {
            return fallback;
        }
        return raw_->param_int(self_, name, fallback);
    }

    bool param_bool(const char *name, bool fallback) const noexcept
    {
        if (!has(offsetof(pmixpp_services_t, param_bool), sizeof(raw_->param_bool)) || raw_->param_bool == nullptr) {
            return fallback;
        }
        return raw_->param_bool(self_, name, fallback ? 1 : 0) != 0;
    }

    // struct event_base *, or nullptr before the progress engine runs.
    void *event_base() const noexcept
    {
        if (!has(offsetof(pmixpp_services_t, event_base), sizeof(raw_->event_base)) || raw_->event_base == nullptr) {
            return nullptr;
        }
        return raw_->event_base();
    }

private:
    bool has(size_t offset, size_t size) const noexcept
    {
        return raw_ != nullptr && raw_->struct_size >= offset + size;
    }

    const pmixpp_services_t *raw_;
    const pmixpp_component_t *self_;
};

// Sets NAME=value in a NULL-terminated, malloc'ed argv-style environment
// (what a pnet component's setup_fork edits), replacing an existing NAME.
// False when memory ran out; *env_p stays valid either way.
inline bool env_set(char ***env_p, const std::string &name, const std::string &value)
{
    const std::string entry = name + "=" + value;
    std::size_t n = 0;
    for (; *env_p != nullptr && (*env_p)[n] != nullptr; ++n) {
        if (std::string_view((*env_p)[n]).substr(0, name.size() + 1) ==
            std::string_view(entry).substr(0, name.size() + 1)) {
            char *copy = static_cast<char *>(std::malloc(entry.size() + 1));
            if (copy == nullptr) return false;
            std::memcpy(copy, entry.c_str(), entry.size() + 1);
            std::free((*env_p)[n]);
            (*env_p)[n] = copy;
            return true;
        }
    }
    char *copy = static_cast<char *>(std::malloc(entry.size() + 1));
    if (copy == nullptr) return false;
    std::memcpy(copy, entry.c_str(), entry.size() + 1);
    auto **grown = static_cast<char **>(std::realloc(*env_p, (n + 2) * sizeof(char *)));
    if (grown == nullptr) {
        std::free(copy);
        return false;
    }
    grown[n] = copy;
    grown[n + 1] = nullptr;
    *env_p = grown;
    return true;
}

namespace detail {

// Builds the descriptor of component class C and the C hooks around it.
template <class C, const char *Framework, const char *Name> struct Adapter {
    static inline const pmixpp_services_t *last_services = nullptr;

    static Services bind(const pmixpp_services_t *services) noexcept
    {
        if (services != nullptr) {
            last_services = services;
        }
        return Services(services, &descriptor);
    }

    static void report(const Services &services, const char *hook, const char *what) noexcept
    {
        services.log(PMIXPP_LOG_ERROR, "%s failed: %s", hook, what);
    }

    // Runs one hook body; maps every exception to a PMIx status.
    template <class Body> static int guarded(const Services &services, const char *hook, Body &&body) noexcept
    {
        try {
            std::forward<Body>(body)();
            return PMIX_SUCCESS;
        } catch (const Error &e) {
            report(services, hook, e.what());
            return e.status();
        } catch (const std::bad_alloc &) {
            report(services, hook, "out of memory");
            return PMIX_ERR_NOMEM;
        } catch (const std::exception &e) {
            report(services, hook, e.what());
            return PMIX_ERROR;
        } catch (...) {
            report(services, hook, "unknown exception");
            return PMIX_ERROR;
        }
    }

    static int register_params(const pmixpp_services_t *raw) noexcept
    {
        Services services = bind(raw);
        return guarded(services, "register_params", [&] { C::register_params(services); });
    }

    static int open(const pmixpp_services_t *raw) noexcept
    {
        Services services = bind(raw);
        return guarded(services, "open", [&] { C::open(services); });
    }

    static pmixpp_query_result_t query(const pmixpp_services_t *raw, int *priority_p, const void **module_p) noexcept
    {
        Services services = bind(raw);
        if (priority_p == nullptr || module_p == nullptr) {
            return PMIXPP_QUERY_DECLINE;
        }
        try {
            int priority = *priority_p;
            const void *module = C::query(services, priority);
            if (module == nullptr) {
                return PMIXPP_QUERY_DECLINE;
            }
            *priority_p = priority;
            *module_p = module;
            return PMIXPP_QUERY_AVAILABLE;
        } catch (const Fatal &e) {
            report(services, "query", e.what());
            return PMIXPP_QUERY_FATAL;
        } catch (const std::exception &e) {
            report(services, "query", e.what());
        } catch (...) {
            report(services, "query", "unknown exception");
        }
        return PMIXPP_QUERY_DECLINE;
    }

    static void close() noexcept
    {
        (void)guarded(Services(last_services, &descriptor), "close", [] { C::close(); });
        last_services = nullptr;
    }

    static constexpr auto register_params_hook()
    {
        using Fn = int (*)(const pmixpp_services_t *);
        if constexpr (requires(Services & s) { C::register_params(s); }) {
            return static_cast<Fn>(&register_params);
        } else {
            return static_cast<Fn>(nullptr);
        }
    }

    static constexpr auto open_hook()
    {
        using Fn = int (*)(const pmixpp_services_t *);
        if constexpr (requires(Services & s) { C::open(s); }) {
            return static_cast<Fn>(&open);
        } else {
            return static_cast<Fn>(nullptr);
        }
    }

    static constexpr auto query_hook()
    {
        using Fn = pmixpp_query_result_t (*)(const pmixpp_services_t *, int *, const void **);
        if constexpr (requires(Services & s, int &p) { C::query(s, p); }) {
            return static_cast<Fn>(&query);
        } else {
            return static_cast<Fn>(nullptr);
        }
    }

    static constexpr auto close_hook()
    {
        using Fn = void (*)(void);
        if constexpr (requires { C::close(); }) {
            return static_cast<Fn>(&close);
        } else {
            return static_cast<Fn>(nullptr);
        }
    }

    // Constant-initialized: no constructor runs when the .so is loaded.
    static constexpr pmixpp_component_t descriptor = {
        .struct_size = sizeof(pmixpp_component_t),
        .abi_major = PMIXPP_COMPONENT_ABI_MAJOR,
        .abi_minor = PMIXPP_COMPONENT_ABI_MINOR,
        .framework = Framework,
        .framework_major = C::framework_major,
        .framework_minor = C::framework_minor,
        .name = Name,
        .version = C::version,
        .default_priority = C::priority,
        .register_params = register_params_hook(),
        .open = open_hook(),
        .query = query_hook(),
        .close = close_hook(),
        .reserved = {},
    };
};

}  // namespace detail
}  // namespace pmixpp::sdk

/* Defines the entry function of component <name> in framework <fw>, backed by
 * class <cls>. Use once, at namespace scope, in one source file. */
#define PMIXPP_CXX_COMPONENT(fw, name, cls)                                                                            \
    namespace pmixpp_component_names_##fw##_##name                                                                     \
    {                                                                                                                  \
        inline constexpr char framework[] = #fw;                                                                       \
        inline constexpr char component[] = #name;                                                                     \
    }                                                                                                                  \
    PMIXPP_COMPONENT_ENTRY(fw, name)                                                                                   \
    {                                                                                                                  \
        return &::pmixpp::sdk::detail::Adapter<cls, pmixpp_component_names_##fw##_##name::framework,                   \
                                               pmixpp_component_names_##fw##_##name::component>::descriptor;           \
    }

#endif /* PMIXPP_COMPONENT_HPP */
