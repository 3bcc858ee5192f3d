// Parameter values for the core and the components: settings loaded from the
// environment and param files, parameters declared by the core and by
// components' register_params, and which component descriptor is which (so
// the services table can tell a component's own parameters).
#ifndef PMIXPP_FRAMEWORK_PARAM_STORE_H
#define PMIXPP_FRAMEWORK_PARAM_STORE_H

#include "inventory.h"
#include "param_sources.h"

#include <pmix_common.h>
#include <pmixpp/component.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pmixpp::framework {

struct ParamDeclaration {
    std::string framework;  // the report this parameter appears in
    std::string key;        // without PMIX_MCA_, e.g. "pnet_token_length"
    pmixpp_param_type_t type = PMIXPP_PARAM_STRING;
    std::string default_value;
    std::string help;
};

class ParamStore {
public:
    // Replaces all settings and forgets declared parameters and components.
    // Only valid while no component is open (values handed out would dangle).
    void reset(SettingMap settings);

    std::optional<Setting> setting(std::string_view key) const;
    SettingMap settings() const;

    // Declares (or re-declares) a parameter and resolves its value. An
    // unparsable int/bool value is reported and the default is used.
    pmix_status_t declare(const ParamDeclaration &declaration);

    // Resolved value of a declared parameter; the pointer stays valid until
    // reset(). NULL if never declared.
    const char *value(std::string_view key) const;

    // PMIX_MCA_<fw>_verbose, 0 when unset or not a number.
    int verbosity(std::string_view framework) const;

    std::vector<ParamReport> report(std::string_view framework) const;

    void add_component(const pmixpp_component_t *descriptor, std::string framework, std::string name);
    void remove_component(const pmixpp_component_t *descriptor);
    // Framework and name of a descriptor the core accepted; false for anything else.
    bool identify(const pmixpp_component_t *descriptor, std::string *framework_p, std::string *name_p) const;

private:
    struct Param {
        ParamDeclaration declaration;
        std::string value;
        Setting source;
    };

    mutable std::mutex mutex_;
    SettingMap settings_;
    std::map<std::string, Param, std::less<>> params_;
    std::map<const pmixpp_component_t *, std::pair<std::string, std::string>> components_;
};

// The process's store, created on first use and never destroyed (components
// may still log from their close hooks during exit).
ParamStore &param_store();

// Parsers shared with the services table.
bool parse_int(std::string_view text, long long *value_p);
bool parse_bool(std::string_view text, bool *value_p);

}  // namespace pmixpp::framework

#endif
