// <pmixpp/component.hpp>: the descriptor it builds, and that no exception
// crosses the C boundary (each becomes a status, a decline or a fatal, plus a
// log line through the services table).
#include <pmixpp/component.hpp>

#include <criterion/criterion.h>

// Criterion's Test() macro expands to a C-style cast.
#pragma GCC diagnostic ignored "-Wold-style-cast"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

namespace {

std::string last_log;
std::string registered_param;
int mode = 0;  // which failure the hooks below produce

enum { behave = 0, throw_error = 1, throw_std = 2, throw_fatal = 3, throw_int = 4, throw_nomem = 5 };

void fake_log(const pmixpp_component_t *self, pmixpp_log_level_t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void fake_log(const pmixpp_component_t *self, pmixpp_log_level_t, const char *fmt, ...)
{
    char line[256];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(line, sizeof(line), fmt, args);
    va_end(args);
    last_log = std::string(self->framework) + "/" + self->name + ": " + line;
}

int fake_register(const pmixpp_component_t *, const pmixpp_param_desc_t *desc)
{
    registered_param = desc->name;
    return 0;
}

const char *fake_param_string(const pmixpp_component_t *, const char *)
{
    return "value";
}

pmixpp_services_t make_services()
{
    pmixpp_services_t services{};
    services.struct_size = sizeof(services);
    services.abi_major = PMIXPP_COMPONENT_ABI_MAJOR;
    services.log = fake_log;
    services.register_param = fake_register;
    services.param_string = fake_param_string;
    return services;
}

void maybe_throw()
{
    switch (mode) {
    case throw_error: throw pmixpp::sdk::Error(PMIX_ERR_NOT_SUPPORTED, "no fabric");
    case throw_std: throw std::runtime_error("boom");
    case throw_fatal: throw pmixpp::sdk::Fatal("asked for missing hardware");
    case throw_int: throw 7;
    case throw_nomem: throw std::bad_alloc();
    default: break;
    }
}

const int module_table = 0;

struct Full {
    static constexpr const char *version = "2.1.0";
    static constexpr int priority = 33;
    static constexpr uint16_t framework_major = 4;
    static constexpr uint16_t framework_minor = 2;

    static void register_params(pmixpp::sdk::Services &services)
    {
        services.register_param("key", PMIXPP_PARAM_STRING, "x", "help");
        maybe_throw();
    }
    static void open(pmixpp::sdk::Services &services)
    {
        if (services.param_string("key") != "value") {
            throw std::runtime_error("param not read through services");
        }
        maybe_throw();
    }
    static const void *query(pmixpp::sdk::Services &, int &chosen_priority)
    {
        maybe_throw();
        chosen_priority = 5;
        return &module_table;
    }
    static void close() { maybe_throw(); }
};

struct Bare {
    static constexpr const char *version = "0.1";
    static constexpr int priority = 1;
    static constexpr uint16_t framework_major = 1;
    static constexpr uint16_t framework_minor = 0;
};

}  // namespace

PMIXPP_CXX_COMPONENT(testfw, full, Full)
PMIXPP_CXX_COMPONENT(testfw, bare, Bare)

Test(adapter, descriptor_carries_names_versions_and_hooks)
{
    const pmixpp_component_t *d = pmixpp_testfw_full_component();
    cr_assert_eq(d->struct_size, sizeof(pmixpp_component_t));
    cr_assert_eq(d->abi_major, PMIXPP_COMPONENT_ABI_MAJOR);
    cr_assert_str_eq(d->framework, "testfw");
    cr_assert_str_eq(d->name, "full");
    cr_assert_str_eq(d->version, "2.1.0");
    cr_assert_eq(d->default_priority, 33);
    cr_assert_eq(d->framework_major, 4);
    cr_assert_eq(d->framework_minor, 2);
    cr_assert(d->register_params && d->open && d->query && d->close);
}

Test(adapter, absent_hooks_are_null)
{
    const pmixpp_component_t *d = pmixpp_testfw_bare_component();
    cr_assert_str_eq(d->name, "bare");
    cr_assert_null(reinterpret_cast<void *>(d->register_params));
    cr_assert_null(reinterpret_cast<void *>(d->open));
    cr_assert_null(reinterpret_cast<void *>(d->query));
    cr_assert_null(reinterpret_cast<void *>(d->close));
}

Test(adapter, hooks_succeed_and_use_services)
{
    const pmixpp_services_t services = make_services();
    const pmixpp_component_t *d = pmixpp_testfw_full_component();
    mode = behave;
    cr_assert_eq(d->register_params(&services), PMIX_SUCCESS);
    cr_assert_str_eq(registered_param.c_str(), "key");
    cr_assert_eq(d->open(&services), PMIX_SUCCESS);
    int priority = 33;
    const void *module = nullptr;
    cr_assert_eq(d->query(&services, &priority, &module), PMIXPP_QUERY_AVAILABLE);
    cr_assert_eq(module, &module_table);
    cr_assert_eq(priority, 5);
    d->close();
}

Test(adapter, exceptions_become_statuses_and_log_lines)
{
    const pmixpp_services_t services = make_services();
    const pmixpp_component_t *d = pmixpp_testfw_full_component();
    mode = throw_error;
    cr_assert_eq(d->open(&services), PMIX_ERR_NOT_SUPPORTED);
    cr_assert(last_log.find("testfw/full: open failed: no fabric") != std::string::npos, "%s", last_log.c_str());
    mode = throw_std;
    cr_assert_eq(d->register_params(&services), PMIX_ERROR);
    cr_assert(last_log.find("boom") != std::string::npos);
    mode = throw_nomem;
    cr_assert_eq(d->open(&services), PMIX_ERR_NOMEM);
    mode = throw_int;
    cr_assert_eq(d->open(&services), PMIX_ERROR);
    last_log.clear();
    d->close();  // must not throw; logs through the services seen at open
    cr_assert(last_log.find("close failed") != std::string::npos, "%s", last_log.c_str());
}

Test(adapter, query_exceptions_decline_or_stop_selection)
{
    const pmixpp_services_t services = make_services();
    const pmixpp_component_t *d = pmixpp_testfw_full_component();
    int priority = 33;
    const void *module = nullptr;
    mode = throw_std;
    cr_assert_eq(d->query(&services, &priority, &module), PMIXPP_QUERY_DECLINE);
    cr_assert_null(module);
    cr_assert_eq(priority, 33, "outputs untouched on decline");
    mode = throw_fatal;
    cr_assert_eq(d->query(&services, &priority, &module), PMIXPP_QUERY_FATAL);
    cr_assert(last_log.find("asked for missing hardware") != std::string::npos);
}

Test(adapter, short_services_table_is_not_read_past_its_size)
{
    pmixpp_services_t services = make_services();
    services.struct_size = offsetof(pmixpp_services_t, log);  // an imaginary older core: no log
    const pmixpp_component_t *d = pmixpp_testfw_full_component();
    last_log.clear();
    mode = behave;
    // register_param is beyond the table: the hook fails cleanly, nothing is logged.
    cr_assert_eq(d->register_params(&services), PMIX_ERR_NOT_SUPPORTED);
    cr_assert(last_log.empty());
}
