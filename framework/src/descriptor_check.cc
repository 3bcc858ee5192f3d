#include "descriptor_check.h"

#include <cstddef>

namespace pmixpp::framework {
namespace {

// Everything a 1.x descriptor has before its reserved tail.
constexpr std::size_t min_descriptor_size = offsetof(pmixpp_component_t, reserved);
// Enough to read the ABI version, whatever the rest looks like.
constexpr std::size_t abi_header_size = offsetof(pmixpp_component_t, abi_minor) + sizeof(uint16_t);

// Built by appending: GCC 12 at -O3 reports a false -Wrestrict for
// `"\"" + std::string(text)`.
std::string quoted(const char *text)
{
    if (text == nullptr) return "(null)";
    std::string result(1, '"');
    result += text;
    result += '"';
    return result;
}

}  // namespace

std::string check_descriptor(const pmixpp_component_t *descriptor, const FrameworkInfo &framework,
                             std::string_view expected_name)
{
    if (descriptor == nullptr) return "entry function returned NULL";
    if (descriptor->struct_size < abi_header_size) {
        return "descriptor struct_size " + std::to_string(descriptor->struct_size) +
               " is too small to hold an ABI version";
    }
    if (descriptor->abi_major != PMIXPP_COMPONENT_ABI_MAJOR) {
        return "component ABI major " + std::to_string(descriptor->abi_major) +
               " != " + std::to_string(PMIXPP_COMPONENT_ABI_MAJOR) + " (rebuild it against this pmixpp)";
    }
    if (descriptor->struct_size < min_descriptor_size) {
        return "descriptor struct_size " + std::to_string(descriptor->struct_size) + " is smaller than the minimum " +
               std::to_string(min_descriptor_size);
    }
    if (descriptor->framework == nullptr || framework.name != descriptor->framework) {
        return "framework " + quoted(descriptor->framework) + " in file named for \"" + std::string(framework.name) +
               "\"";
    }
    if (descriptor->name == nullptr || expected_name != descriptor->name) {
        return "component name " + quoted(descriptor->name) + " in file named for \"" + std::string(expected_name) +
               "\"";
    }
    if (descriptor->framework_major != framework.api_major) {
        return std::string(framework.name) + " interface major " + std::to_string(descriptor->framework_major) +
               " != " + std::to_string(framework.api_major);
    }
    if (descriptor->framework_minor > framework.api_minor) {
        return std::string(framework.name) + " interface minor " + std::to_string(descriptor->framework_minor) +
               " is newer than this library's " + std::to_string(framework.api_minor);
    }
    return {};
}

std::string check_module(const void *module, const FrameworkInfo &framework)
{
    if (module == nullptr) return "query reported available but returned no module";
    const std::size_t size = *static_cast<const std::size_t *>(module);
    if (size < framework.min_module_size) {
        return std::string(framework.name) + " module struct_size " + std::to_string(size) +
               " is smaller than the minimum " + std::to_string(framework.min_module_size);
    }
    return {};
}

}  // namespace pmixpp::framework
