// The attribute dictionary and PMIx_Get_attribute_string/_name.
#include "common/values/attribute_dictionary.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <string_view>

#include <pmix.h>  // declares PMIx_Get_attribute_string/name, defined here

namespace pmixpp::values {
namespace {

constexpr AttributeEntry kAttributes[] = {
#include "common/values/attribute_table.inc"
};
constexpr size_t kCount = std::size(kAttributes);

constexpr bool less(const char *a, const char *b)
{
    return std::string_view(a) < std::string_view(b);
}

static_assert(
    [] {
        for (size_t i = 1; i < kCount; ++i) {
            if (!less(kAttributes[i - 1].name, kAttributes[i].name)) {
                return false;
            }
        }
        return true;
    }(),
    "attribute_table.inc must be sorted by name without duplicates");

// Key order; for a key several names share, current names before deprecated
// ones, then by name.
constexpr bool key_less(const AttributeEntry &a, const AttributeEntry &b)
{
    if (std::string_view(a.key) != std::string_view(b.key)) {
        return less(a.key, b.key);
    }
    return a.deprecated < b.deprecated;
}

// Indices of kAttributes sorted by key_less, computed by the compiler (a
// stable sort, so ties keep name order).
constexpr std::array<unsigned short, kCount> build_key_index()
{
    std::array<unsigned short, kCount> index{};
    for (size_t i = 0; i < kCount; ++i) {
        index[i] = static_cast<unsigned short>(i);
    }
    for (size_t i = 1; i < kCount; ++i) {  // insertion sort: constexpr and stable
        unsigned short item = index[i];
        size_t j = i;
        while (j > 0 && key_less(kAttributes[item], kAttributes[index[j - 1]])) {
            index[j] = index[j - 1];
            --j;
        }
        index[j] = item;
    }
    return index;
}

constexpr auto kByKey = build_key_index();

}  // namespace

const AttributeEntry *find_attribute_by_name(const char *name)
{
    if (nullptr == name) {
        return nullptr;
    }
    auto it = std::lower_bound(std::begin(kAttributes), std::end(kAttributes), name,
                               [](const AttributeEntry &e, const char *n) { return std::strcmp(e.name, n) < 0; });
    return (it != std::end(kAttributes) && 0 == std::strcmp(it->name, name)) ? &*it : nullptr;
}

const AttributeEntry *find_attribute_by_key(const char *key)
{
    if (nullptr == key) {
        return nullptr;
    }
    auto it = std::lower_bound(kByKey.begin(), kByKey.end(), key,
                               [](unsigned short i, const char *k) { return std::strcmp(kAttributes[i].key, k) < 0; });
    if (it == kByKey.end() || 0 != std::strcmp(kAttributes[*it].key, key)) {
        return nullptr;
    }
    return &kAttributes[*it];
}

const AttributeEntry *attribute_entries(size_t *count_p)
{
    *count_p = kCount;
    return kAttributes;
}

}  // namespace pmixpp::values

// Unknown input is handed back unchanged, so callers can print the result of
// either direction without a check.
extern "C" PMIX_EXPORT const char *PMIx_Get_attribute_string(const char *attribute)
{
    const pmixpp::values::AttributeEntry *entry = pmixpp::values::find_attribute_by_name(attribute);
    return nullptr == entry ? attribute : entry->key;
}

extern "C" PMIX_EXPORT const char *PMIx_Get_attribute_name(const char *attrstring)
{
    const pmixpp::values::AttributeEntry *entry = pmixpp::values::find_attribute_by_key(attrstring);
    return nullptr == entry ? attrstring : entry->name;
}
