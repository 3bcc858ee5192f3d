// Lookup of printable names in small constant tables.
#ifndef PMIXPP_COMMON_VALUES_NAMED_VALUES_H
#define PMIXPP_COMMON_VALUES_NAMED_VALUES_H

#include <cstddef>

namespace pmixpp::values {

template <typename T> struct NamedValue {
    T value;
    const char *name;
};

template <typename T, typename U, size_t N>
const char *name_of(const NamedValue<T> (&table)[N], U value, const char *unknown)
{
    for (const NamedValue<T> &entry : table) {
        if (entry.value == static_cast<T>(value)) {
            return entry.name;
        }
    }
    return unknown;
}

}  // namespace pmixpp::values

#endif
