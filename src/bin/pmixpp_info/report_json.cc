// pmixpp_info --json: one object, written with nlohmann/json (members in
// the order below; bytes that are not UTF-8 become U+FFFD, so the output
// is always valid JSON):
//   { "version", "pmix_version",
//     "core": { "params": [ { "name", "value", "source", "help" } ],
//               "component_directories": [ paths, in search order ],
//               "param_files": { "system", "user" } },
//     "frameworks": [ { "name", "multi_select", "selected": [names in order],
//                       "components": [ { "name", "version", "priority", "path",
//                                         "selected", "reason" } ],
//                       "params": [ { "name", "value", "source", "help" } ] } ],
//     "warnings": [ lines ] }
#include "report.h"

#include <nlohmann/json.hpp>

namespace pmixpp::info {
namespace {

using Json = nlohmann::ordered_json;

Json param_json(const framework::ParamReport &param)
{
    return Json{{"name", param.name}, {"value", param.value}, {"source", param.source}, {"help", param.help}};
}

Json params_json(const std::vector<framework::ParamReport> &params)
{
    Json list = Json::array();
    for (const auto &param : params) list.push_back(param_json(param));
    return list;
}

Json component_json(const framework::ComponentReport &component)
{
    return Json{{"name", component.name}, {"version", component.version},   {"priority", component.priority},
                {"path", component.path}, {"selected", component.selected}, {"reason", component.reason}};
}

Json framework_json(const framework::FrameworkReport &fw)
{
    Json components = Json::array();
    for (const auto &component : fw.components) components.push_back(component_json(component));
    return Json{{"name", fw.name},
                {"multi_select", fw.multi_select},
                {"selected", fw.selected},
                {"components", std::move(components)},
                {"params", params_json(fw.params)}};
}

Json core_json(const framework::CoreReport &core)
{
    return Json{{"params", params_json(core.params)},
                {"component_directories", core.component_directories},
                {"param_files", Json{{"system", core.system_param_file}, {"user", core.user_param_file}}}};
}

}  // namespace

std::string render_json(const Inventory &inventory)
{
    Json frameworks = Json::array();
    for (const auto &fw : inventory.frameworks) frameworks.push_back(framework_json(fw));
    const Json doc{{"version", PMIXPP_INFO_VERSION},
                   {"pmix_version", PMIXPP_INFO_PMIX_VERSION},
                   {"core", core_json(inventory.core)},
                   {"frameworks", std::move(frameworks)},
                   {"warnings", inventory.warnings}};
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace pmixpp::info
