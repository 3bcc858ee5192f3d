// Read-only report of what the component core found and would select, for
// pmixpp_info. Building the report discovers, checks and selects every
// framework under the current environment, then closes and unloads all of it.
#ifndef PMIXPP_FRAMEWORK_INVENTORY_H
#define PMIXPP_FRAMEWORK_INVENTORY_H

#include <pmix_common.h>

#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::framework {

struct ParamReport {
    std::string name;  // full env name, e.g. PMIX_MCA_pnet_token_length
    std::string value;
    std::string source;  // "default", "environment", "user file <path>", "system file <path>"
    std::string help;
};

struct ComponentReport {
    std::string name;
    std::string version;
    int priority;
    std::string path;
    bool selected;
    std::string reason;  // why not selected, "" if selected
};

struct FrameworkReport {
    std::string name;
    bool multi_select;
    std::vector<std::string> selected;  // in order
    std::vector<ComponentReport> components;
    std::vector<ParamReport> params;
};

// Parameters of the core itself and where it looks for things.
struct CoreReport {
    std::vector<ParamReport> params;                 // PMIX_MCA_mca_base_component_path
    std::vector<std::string> component_directories;  // searched in this order, canonical
    std::string system_param_file;                   // as read (it may not exist)
    std::string user_param_file;                     // "" without $HOME
};

// Report group of the core's own parameters (ParamReport lists).
inline constexpr std::string_view core_param_group = "mca_base";

// Discovers, checks and selects every framework under the current
// environment; fills reports without keeping components open afterwards.
pmix_status_t inventory(std::vector<FrameworkReport> *reports_p);

// Loads the settings if no selection has yet, then describes the core.
pmix_status_t core_inventory(CoreReport *report_p);

// Lines printed during the last inventory (warnings and rejections).
std::vector<std::string> warnings();

}  // namespace pmixpp::framework

#endif
