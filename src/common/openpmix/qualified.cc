#include "common/openpmix/qualified.h"

#include "common/openpmix/kvals.h"
#include "common/values/value_ops.h"

#include <algorithm>
#include <vector>

namespace pmixpp::openpmix {

namespace {

bool same(const pmix_info_t &a, const pmix_info_t &b)
{
    return PMIX_CHECK_KEY(&a, b.key) && values::value_compare(&a.value, &b.value) == PMIX_EQUAL;
}

}  // namespace

pmix_status_t qualifiers_among(const wire::InfoArray &directives, wire::InfoArray *qualifiers_p)
{
    std::vector<pmix_info_t> qualifiers;
    for (const pmix_info_t &info : directives) {
        if (PMIX_INFO_IS_QUALIFIER(&info)) qualifiers.push_back(info);
    }
    return qualifiers.empty() ? PMIX_SUCCESS : qualifiers_p->assign_copy(qualifiers.data(), qualifiers.size());
}

pmix_status_t pack_qualified(Writer &writer, const pmix_info_t &info, const wire::InfoArray &qualifiers)
{
    std::vector<pmix_info_t> items;
    items.push_back(info);
    items.insert(items.end(), qualifiers.begin(), qualifiers.end());
    return write_info_array_kval(writer, PMIX_QUALIFIED_VALUE, items);
}

bool unqualify(const pmix_value_t &qualified, const wire::InfoArray &wanted, pmix_info_t *plain_p)
{
    const pmix_data_array_t *array = qualified.type == PMIX_DATA_ARRAY ? qualified.data.darray : nullptr;
    if (array == nullptr || array->type != PMIX_INFO || array->size != wanted.size() + 1) return false;
    const auto *items = static_cast<const pmix_info_t *>(array->array);
    for (std::size_t i = 1; i < array->size; ++i) {
        const bool asked =
            std::any_of(wanted.begin(), wanted.end(), [&](const pmix_info_t &q) { return same(q, items[i]); });
        if (!asked) return false;
    }
    PMIX_INFO_CONSTRUCT(plain_p);
    PMIX_INFO_XFER(plain_p, &items[0]);
    return true;
}

}  // namespace pmixpp::openpmix
