// Read-only report of what the component core found and would select, for
// pmixpp_info. Building the report discovers, checks and selects every
// framework under the current environment, then closes and unloads all of it.
#ifndef PMIXPP_FRAMEWORK_INVENTORY_H
#define PMIXPP_FRAMEWORK_INVENTORY_H

#include <pmix_common.h>

#include <string>
#include <vector>

namespace pmixpp::framework {

struct ParamReport {
    std::string name;   // full env name, e.g. PMIX_MCA_pnet_token_length
    std::string value;
    std::string source; // "default", "environment", "user file <path>", "system file <path>"
    std::string help;
};

struct ComponentReport {
    std::string name;
    std::string version;
    int priority;
    std::string path;
    bool selected;
    std::string reason; // why not selected, "" if selected
};

struct FrameworkReport {
    std::string name;
    bool multi_select;
    std::vector<std::string> selected; // in order
    std::vector<ComponentReport> components;
    std::vector<ParamReport> params;
};

// Discovers, checks and selects every framework under the current
// environment; fills reports without keeping components open afterwards.
pmix_status_t inventory(std::vector<FrameworkReport> *reports_p);

// Lines printed during the last inventory (warnings and rejections).
std::vector<std::string> warnings();

} // namespace pmixpp::framework

#endif
