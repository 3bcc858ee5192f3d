// The acceptance rules for a component descriptor (design.md, Component ABI).
#ifndef PMIXPP_FRAMEWORK_DESCRIPTOR_CHECK_H
#define PMIXPP_FRAMEWORK_DESCRIPTOR_CHECK_H

#include "framework_table.h"

#include <pmixpp/component.h>

#include <string>
#include <string_view>

namespace pmixpp::framework {

// "" when the descriptor is acceptable for `framework` under the name its file
// carries; otherwise the reason, worded for a person (no path, no prefix).
std::string check_descriptor(const pmixpp_component_t *descriptor, const FrameworkInfo &framework,
                             std::string_view expected_name);

// Likewise for the module table a component's query returned.
std::string check_module(const void *module, const FrameworkInfo &framework);

}  // namespace pmixpp::framework

#endif
