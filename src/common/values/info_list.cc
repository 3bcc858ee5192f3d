// PMIx_Info_list_*: an opaque, growable list of pmix_info_t that converts to
// a pmix_data_array_t of PMIX_INFO.
#include <cstdint>
#include <new>
#include <vector>

#include "common/values/array_ops.h"
#include "common/values/type_ops.h"
#include "common/values/value_ops.h"

namespace pmixpp::values {
namespace {

// Guards against a pointer that is not (or no longer) one of our lists.
constexpr uint64_t kInfoListMagic = 0x706d69786c697374ULL;  // "pmixlist"

struct InfoList {
    uint64_t magic = kInfoListMagic;
    std::vector<pmix_info_t> items;
};

InfoList *as_list(void *ptr)
{
    auto list = static_cast<InfoList *>(ptr);
    return (nullptr != list && kInfoListMagic == list->magic) ? list : nullptr;
}

// Appends a zeroed slot; the caller fills it and pops it again on failure.
pmix_info_t *append_slot(InfoList *list)
{
    try {
        list->items.push_back(pmix_info_t{});
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
    return &list->items.back();
}

template <typename Fill> pmix_status_t append(void *ptr, Fill fill)
{
    InfoList *list = as_list(ptr);
    if (nullptr == list) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_info_t *slot = append_slot(list);
    if (nullptr == slot) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = fill(slot);
    if (PMIX_SUCCESS != rc) {
        list->items.pop_back();
    }
    return rc;
}

}  // namespace
}  // namespace pmixpp::values

namespace values = pmixpp::values;

extern "C" {

PMIX_EXPORT void *PMIx_Info_list_start(void)
{
    return new (std::nothrow) values::InfoList;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value, pmix_data_type_t type)
{
    if (nullptr == key) {
        return PMIX_ERR_BAD_PARAM;
    }
    return values::append(ptr, [&](pmix_info_t *slot) { return values::info_load(slot, key, value, type); });
}

// The standard leaves the inserted info's data with the caller: the list
// keeps the struct as given (pointers shared, marked persistent) so that
// releasing the list never frees the caller's data.
PMIX_EXPORT pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info)
{
    if (nullptr == info) {
        return PMIX_ERR_BAD_PARAM;
    }
    return values::append(ptr, [&](pmix_info_t *slot) {
        *slot = *info;
        slot->flags |= PMIX_INFO_PERSISTENT;
        return PMIX_SUCCESS;
    });
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_xfer(void *ptr, const pmix_info_t *info)
{
    if (nullptr == info) {
        return PMIX_ERR_BAD_PARAM;
    }
    return values::append(ptr, [&](pmix_info_t *slot) { return values::info_xfer(slot, info); });
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par)
{
    values::InfoList *list = values::as_list(ptr);
    if (nullptr == list || nullptr == par) {
        return PMIX_ERR_BAD_PARAM;
    }
    par->type = PMIX_INFO;
    par->size = 0;
    par->array = nullptr;
    if (list->items.empty()) {
        return PMIX_ERR_EMPTY;
    }
    void *array = nullptr;
    pmix_status_t rc = values::copy_elements(&array, list->items.data(), list->items.size(), PMIX_INFO);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    par->array = array;
    par->size = list->items.size();
    return PMIX_SUCCESS;
}

PMIX_EXPORT void PMIx_Info_list_release(void *ptr)
{
    values::InfoList *list = values::as_list(ptr);
    if (nullptr == list) {
        return;
    }
    for (pmix_info_t &info : list->items) {
        values::info_destruct(&info);
    }
    list->magic = 0;
    delete list;
}

}  // extern "C"
