// Checks that PMIX_MCA_* settings name something this library knows, so a
// misspelling gets a warning instead of silently doing nothing.
#ifndef PMIXPP_FRAMEWORK_SETTING_NAMES_H
#define PMIXPP_FRAMEWORK_SETTING_NAMES_H

#include "param_sources.h"

#include <pmix_common.h>

#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::framework {

// Warns about every setting whose name starts with no framework and is no
// core parameter; names the valid frameworks. Names that only OpenPMIx uses
// (its other frameworks, mca_base_*) are accepted silently so site
// configurations written for OpenPMIx keep working.
void warn_unknown_frameworks(const SettingMap &settings);

// Warns about settings <fw>_<x>_... where <x> is no component in
// `component_names` (and not "verbose" or "base"); names the components.
void warn_unknown_components(std::string_view framework, const SettingMap &settings,
                             const std::vector<std::string> &component_names);

// include/exclude list of PMIX_MCA_<fw>.
struct ComponentFilter {
    enum class Mode { all, include, exclude } mode = Mode::all;
    std::vector<std::string> names;
    bool admits(std::string_view name) const;
};

// Parses "a,b" or "^a,b". Mixing (e.g. "a,^b") is PMIX_ERR_BAD_PARAM with a
// message in *error_p.
pmix_status_t parse_component_filter(std::string_view value, ComponentFilter *filter_p, std::string *error_p);

std::string join(const std::vector<std::string> &names);

}  // namespace pmixpp::framework

#endif
