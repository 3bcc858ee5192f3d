#include "fake_components.h"

#include "framework/src/testing.h"

#include <pmixpp/gds.h>
#include <pmixpp/pnet.h>
#include <pmixpp/psec.h>
#include <pmixpp/ptl.h>

#include <array>
#include <utility>

namespace pmixpp::tests {
namespace {

std::array<FakeConfig, max_fakes> configs;
std::array<FakeRecord, max_fakes> records;
std::array<pmixpp_component_t, max_fakes> descriptors;
// Storage for any framework's module table: a fake may be registered under
// any framework, and the core rejects a table shorter than that framework's.
union AnyModule {
    size_t struct_size;
    pmixpp_pnet_module_t pnet;
    pmixpp_gds_module_t gds;
    pmixpp_ptl_module_t ptl;
    pmixpp_psec_module_t psec;
};
std::array<AnyModule, max_fakes> modules;

template <int N> int fake_register_params(const pmixpp_services_t *services)
{
    ++records[N].registers;
    if (!configs[N].registers_params) return 0;
    const pmixpp_param_desc_t color{sizeof(pmixpp_param_desc_t), "color", PMIXPP_PARAM_STRING, "red", "a string"};
    const pmixpp_param_desc_t depth{sizeof(pmixpp_param_desc_t), "depth", PMIXPP_PARAM_INT, "3", "an int"};
    const pmixpp_param_desc_t fast{sizeof(pmixpp_param_desc_t), "fast", PMIXPP_PARAM_BOOL, "false", "a bool"};
    int rc = services->register_param(&descriptors[N], &color);
    if (rc == 0) rc = services->register_param(&descriptors[N], &depth);
    if (rc == 0) rc = services->register_param(&descriptors[N], &fast);
    return rc;
}

template <int N> int fake_open(const pmixpp_services_t *services)
{
    ++records[N].opens;
    if (configs[N].logs_trace) {
        services->log(&descriptors[N], PMIXPP_LOG_TRACE, "trace from %s", configs[N].name);
        services->log(&descriptors[N], PMIXPP_LOG_INFO, "info from %s", configs[N].name);
    }
    if (configs[N].reenters_select) {
        std::vector<framework::SelectedModule> nested;
        records[N].reentry_rc = framework::select(configs[N].framework, &nested);
    }
    return configs[N].open_rc;
}

template <int N>
pmixpp_query_result_t fake_query(const pmixpp_services_t *services, int *priority_p, const void **module_p)
{
    FakeRecord &record = records[N];
    ++record.queries;
    if (configs[N].registers_params) {
        const char *color = services->param_string(&descriptors[N], "color");
        record.color = color != nullptr ? color : "(null)";
        record.depth = services->param_int(&descriptors[N], "depth", -2);
        record.fast = services->param_bool(&descriptors[N], "fast", -2);
    }
    if (configs[N].query_priority >= 0) *priority_p = configs[N].query_priority;
    *module_p = &modules[N];
    return configs[N].result;
}

template <int N> void fake_close()
{
    ++records[N].closes;
}

template <int N> void fill_hooks(pmixpp_component_t *descriptor)
{
    descriptor->register_params = fake_register_params<N>;
    descriptor->open = fake_open<N>;
    descriptor->query = fake_query<N>;
    descriptor->close = fake_close<N>;
}

template <std::size_t... N> void fill_hooks_for(std::size_t index, std::index_sequence<N...>)
{
    ((index == N ? fill_hooks<static_cast<int>(N)>(&descriptors[N]) : void()), ...);
}

}  // namespace

const pmixpp_component_t *add_fake(int index, const FakeConfig &config)
{
    configs[index] = config;
    records[index] = FakeRecord{};
    modules[index] = AnyModule{};
    modules[index].struct_size = sizeof(AnyModule);
    pmixpp_component_t &descriptor = descriptors[index];
    descriptor = pmixpp_component_t{};
    descriptor.struct_size = sizeof(pmixpp_component_t);
    descriptor.abi_major = PMIXPP_COMPONENT_ABI_MAJOR;
    descriptor.abi_minor = PMIXPP_COMPONENT_ABI_MINOR;
    descriptor.framework = config.framework;
    descriptor.framework_major = 1;
    descriptor.framework_minor = 0;
    descriptor.name = config.name;
    descriptor.version = "9.8.7";
    descriptor.default_priority = config.priority;
    fill_hooks_for(static_cast<std::size_t>(index), std::make_index_sequence<max_fakes>{});
    framework::testing::add_component(&descriptor);
    return &descriptor;
}

const FakeRecord &fake_record(int index)
{
    return records[index];
}

std::vector<std::string> names_of(const std::vector<framework::SelectedModule> &modules_list)
{
    std::vector<std::string> names;
    for (const auto &module : modules_list) names.push_back(module.component);
    return names;
}

std::string joined(const std::vector<std::string> &names)
{
    std::string text;
    for (const auto &name : names) text += (text.empty() ? "" : ",") + name;
    return text;
}

}  // namespace pmixpp::tests
