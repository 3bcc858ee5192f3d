// The four frameworks the core knows by name (it never knows a component).
#ifndef PMIXPP_FRAMEWORK_FRAMEWORK_TABLE_H
#define PMIXPP_FRAMEWORK_FRAMEWORK_TABLE_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pmixpp::framework {

struct FrameworkInfo {
    std::string_view name;
    // Every framework keeps an ordered list of usable components; ptl in a
    // client additionally uses only the best one (select_best).
    bool multi_select;
    bool single_select_in_client;
    std::uint16_t api_major;
    std::uint16_t api_minor;
    // A component's module table must be at least this long: the size of the
    // table at interface minor 0, so every 1.0 operation can be called.
    std::size_t min_module_size;
    std::string_view description;
};

std::span<const FrameworkInfo> all_frameworks();
const FrameworkInfo *find_framework(std::string_view name);
// "gds, pnet, psec, ptl" for messages.
std::string framework_names();

}  // namespace pmixpp::framework

#endif
