#include "common/values/cpu_list.h"

namespace pmixpp::values {
namespace {

// Reads one number at text[*at]; false when there is none, it is too big,
// or it has a leading zero (hwloc's list parser reads "08" as octal 0 then
// stumbles, and prints back a list it cannot read: the fuzzer found
// "hwloc:08-65" becoming "hwloc:-65").
bool read_index(std::string_view text, std::size_t *at, unsigned long *value_p)
{
    const std::size_t start = *at;
    if (start + 1 < text.size() && text[start] == '0' && text[start + 1] >= '0' && text[start + 1] <= '9') {
        return false;
    }
    unsigned long value = 0;
    while (*at < text.size() && text[*at] >= '0' && text[*at] <= '9') {
        value = value * 10 + static_cast<unsigned long>(text[*at] - '0');
        if (value > kMaxCpuIndex) return false;
        ++*at;
    }
    *value_p = value;
    return *at > start;
}

bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// One group: an optional (first group: required) "0x" and 1 to 8 hex digits.
bool read_group(std::string_view text, std::size_t *at, bool prefix_required)
{
    if (text.substr(*at, 2) == "0x") {
        *at += 2;
    } else if (prefix_required) {
        return false;
    }
    const std::size_t start = *at;
    while (*at < text.size() && is_hex(text[*at]) && *at - start < 8) ++*at;
    return *at > start;
}

}  // namespace

bool is_bounded_cpu_mask(std::string_view text)
{
    constexpr std::size_t kMaxGroups = (kMaxCpuIndex + 1) / 32;
    std::size_t at = 0;
    std::size_t groups = 0;
    while (true) {
        if (!read_group(text, &at, groups == 0) || ++groups > kMaxGroups) return false;
        if (at == text.size()) return true;
        if (text[at] != ',') return false;
        ++at;
    }
}

bool is_bounded_cpu_list(std::string_view text)
{
    std::size_t at = 0;
    while (at < text.size()) {
        unsigned long first = 0;
        if (!read_index(text, &at, &first)) return false;
        if (at < text.size() && text[at] == '-') {
            ++at;
            unsigned long last = 0;
            if (!read_index(text, &at, &last) || last < first) return false;
        }
        if (at == text.size()) return true;
        if (text[at] != ',' || ++at == text.size()) return false;
    }
    return true;
}

}  // namespace pmixpp::values
