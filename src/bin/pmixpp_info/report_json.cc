// pmixpp_info --json: one object,
//   { "version", "pmix_version",
//     "core": { "params": [ { "name", "value", "source", "help" } ],
//               "component_directories": [ paths, in search order ],
//               "param_files": { "system", "user" } },
//     "frameworks": [ { "name", "multi_select", "selected": [names in order],
//                       "components": [ { "name", "version", "priority", "path",
//                                         "selected", "reason" } ],
//                       "params": [ { "name", "value", "source", "help" } ] } ],
//     "warnings": [ lines ] }
#include "json_writer.h"
#include "report.h"

namespace pmixpp::info {
namespace {

void write_strings(JsonWriter &json, const std::vector<std::string> &items)
{
    json.begin_array();
    for (const auto &item : items) {
        json.string(item);
    }
    json.end_array();
}

void write_component(JsonWriter &json, const framework::ComponentReport &component)
{
    json.begin_object();
    json.member("name", component.name);
    json.member("version", component.version);
    json.member("priority", component.priority);
    json.member("path", component.path);
    json.member("selected", component.selected);
    json.member("reason", component.reason);
    json.end_object();
}

void write_param(JsonWriter &json, const framework::ParamReport &param)
{
    json.begin_object();
    json.member("name", param.name);
    json.member("value", param.value);
    json.member("source", param.source);
    json.member("help", param.help);
    json.end_object();
}

void write_framework(JsonWriter &json, const framework::FrameworkReport &fw)
{
    json.begin_object();
    json.member("name", fw.name);
    json.member("multi_select", fw.multi_select);
    json.key("selected");
    write_strings(json, fw.selected);
    json.key("components");
    json.begin_array();
    for (const auto &component : fw.components) {
        write_component(json, component);
    }
    json.end_array();
    json.key("params");
    json.begin_array();
    for (const auto &param : fw.params) {
        write_param(json, param);
    }
    json.end_array();
    json.end_object();
}

void write_core(JsonWriter &json, const framework::CoreReport &core)
{
    json.begin_object();
    json.key("params");
    json.begin_array();
    for (const auto &param : core.params) {
        write_param(json, param);
    }
    json.end_array();
    json.key("component_directories");
    write_strings(json, core.component_directories);
    json.key("param_files");
    json.begin_object();
    json.member("system", core.system_param_file);
    json.member("user", core.user_param_file);
    json.end_object();
    json.end_object();
}

} // namespace

std::string render_json(const Inventory &inventory)
{
    std::string out;
    JsonWriter json(&out);
    json.begin_object();
    json.member("version", PMIXPP_INFO_VERSION);
    json.member("pmix_version", PMIXPP_INFO_PMIX_VERSION);
    json.key("core");
    write_core(json, inventory.core);
    json.key("frameworks");
    json.begin_array();
    for (const auto &fw : inventory.frameworks) {
        write_framework(json, fw);
    }
    json.end_array();
    json.key("warnings");
    write_strings(json, inventory.warnings);
    json.end_object();
    out += '\n';
    return out;
}

} // namespace pmixpp::info
