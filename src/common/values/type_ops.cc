// type_ops.h and array_ops.h: generic element handling driven by the type table.
#include "common/values/type_ops.h"

#include <cstdlib>
#include <cstring>

#include "common/values/array_ops.h"
#include "common/values/memory_helpers.h"
#include "common/values/type_table.h"

namespace pmixpp::values {

size_t element_size(pmix_data_type_t type)
{
    const TypeTraits *traits = find_element_type(type);
    return nullptr == traits ? 0 : traits->size;
}

pmix_status_t copy_element(void *dest, const void *src, pmix_data_type_t type)
{
    const TypeTraits *traits = find_element_type(type);
    if (nullptr == traits) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (nullptr == dest || nullptr == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (nullptr == traits->copy) {
        std::memcpy(dest, src, traits->size);
        return PMIX_SUCCESS;
    }
    return traits->copy(dest, src);
}

void destruct_element(void *element, pmix_data_type_t type)
{
    const TypeTraits *traits = find_element_type(type);
    if (nullptr == traits || nullptr == element) {
        return;
    }
    if (nullptr != traits->destruct) {
        traits->destruct(element);
    }
    std::memset(element, 0, traits->size);
}

void *alloc_elements(pmix_data_type_t type, size_t n)
{
    const size_t size = element_size(type);
    if (0 == n || 0 == size) {
        return nullptr;
    }
    return std::calloc(n, size);
}

void free_elements(void *array, size_t n, pmix_data_type_t type)
{
    if (nullptr == array) {
        return;
    }
    const TypeTraits *traits = find_element_type(type);
    if (nullptr != traits && nullptr != traits->destruct) {
        auto bytes = static_cast<char *>(array);
        for (size_t i = 0; i < n; ++i) {
            traits->destruct(bytes + i * traits->size);
        }
    }
    std::free(array);
}

pmix_status_t copy_elements(void **dest_p, const void *src, size_t n, pmix_data_type_t type)
{
    if (0 == n || nullptr == src) {
        *dest_p = nullptr;
        return PMIX_SUCCESS;
    }
    const TypeTraits *traits = find_element_type(type);
    if (nullptr == traits) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    void *array = alloc_elements(type, n);
    if (nullptr == array) {
        return PMIX_ERR_NOMEM;
    }
    auto to = static_cast<char *>(array);
    auto from = static_cast<const char *>(src);
    for (size_t i = 0; i < n; ++i) {
        pmix_status_t rc = copy_element(to + i * traits->size, from + i * traits->size, type);
        if (PMIX_SUCCESS != rc) {
            // Elements not yet copied are still zeroed, so releasing all n is safe.
            free_elements(array, n, type);
            return rc;
        }
    }
    *dest_p = array;
    return PMIX_SUCCESS;
}

pmix_value_cmp_t compare_elements(const void *a, size_t na, const void *b, size_t nb, pmix_data_type_t type)
{
    if (nullptr == a) {
        na = 0;
    }
    if (nullptr == b) {
        nb = 0;
    }
    if (na != nb) {
        return three_way(na, nb);
    }
    if (0 == na) {
        return PMIX_EQUAL;
    }
    const TypeTraits *traits = find_element_type(type);
    if (nullptr == traits || nullptr == traits->compare) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    auto x = static_cast<const char *>(a);
    auto y = static_cast<const char *>(b);
    for (size_t i = 0; i < na; ++i) {
        pmix_value_cmp_t rc = traits->compare(x + i * traits->size, y + i * traits->size);
        if (PMIX_EQUAL != rc) {
            return rc;
        }
    }
    return PMIX_EQUAL;
}

pmix_status_t copy_data_array(pmix_data_array_t *dest, const pmix_data_array_t *src)
{
    if (nullptr == dest || nullptr == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    dest->type = src->type;
    dest->size = 0;
    dest->array = nullptr;
    if (0 == src->size) {
        return PMIX_SUCCESS;
    }
    if (nullptr == src->array) {
        return PMIX_ERR_BAD_PARAM;
    }
    void *array = nullptr;
    pmix_status_t rc = copy_elements(&array, src->array, src->size, src->type);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    dest->array = array;
    dest->size = src->size;
    return PMIX_SUCCESS;
}

void *value_payload(pmix_value_t *val, size_t *size_p)
{
    const TypeTraits *traits = (nullptr == val) ? nullptr : find_element_type(val->type);
    void *payload = nullptr;
    if (nullptr != traits) {
        switch (traits->holding) {
        case ValueHolding::kInline:
        case ValueHolding::kRawPointer: payload = &val->data; break;
        case ValueHolding::kBoxed: payload = val->data.ptr; break;
        case ValueHolding::kNotHeld: break;
        }
    }
    if (nullptr != size_p) {
        *size_p = (nullptr == payload) ? 0 : traits->size;
    }
    return payload;
}

}  // namespace pmixpp::values
