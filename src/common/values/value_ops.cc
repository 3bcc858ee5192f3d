// pmix_value_t and pmix_info_t operations, driven by the type table.
#include "common/values/value_ops.h"

#include <cstdlib>
#include <cstring>

#include "common/values/memory_helpers.h"
#include "common/values/type_ops.h"
#include "common/values/type_table.h"

namespace pmixpp::values {
namespace {

void reset(pmix_value_t *val)
{
    std::memset(&val->data, 0, sizeof(val->data));
    val->type = PMIX_UNDEF;
}

// Stores a deep copy of one element in val according to how the type is held.
pmix_status_t store_element(pmix_value_t *val, const void *element, const TypeTraits &traits)
{
    if (ValueHolding::kInline == traits.holding) {
        return copy_element(&val->data, element, traits.type);
    }
    void *box = alloc_elements(traits.type, 1);
    if (nullptr == box) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = copy_element(box, element, traits.type);
    if (PMIX_SUCCESS != rc) {
        std::free(box);
        return rc;
    }
    val->data.ptr = box;
    return PMIX_SUCCESS;
}

// PMIX_REGEX values are loaded from the regex string itself, terminator included.
pmix_status_t load_regex(pmix_value_t *val, const char *regex)
{
    pmix_byte_object_t bo;
    bo.bytes = const_cast<char *>(regex);
    bo.size = std::strlen(regex) + 1;
    return copy_element(&val->data.bo, &bo, PMIX_BYTE_OBJECT);
}

pmix_status_t load_payload(pmix_value_t *val, const void *data, const TypeTraits &traits)
{
    switch (traits.type) {
    case PMIX_STRING: return dup_string(&val->data.string, static_cast<const char *>(data));
    case PMIX_REGEX: return load_regex(val, static_cast<const char *>(data));
    case PMIX_POINTER: val->data.ptr = const_cast<void *>(data); return PMIX_SUCCESS;
    default: return store_element(val, data, traits);
    }
}

// Checks that a type can live in a pmix_value_t at all.
pmix_status_t held_traits(pmix_data_type_t type, const TypeTraits **traits_p)
{
    const TypeTraits *traits = find_element_type(type);
    if (nullptr == traits) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (ValueHolding::kNotHeld == traits->holding) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    *traits_p = traits;
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t value_load(pmix_value_t *val, const void *data, pmix_data_type_t type)
{
    reset(val);
    if (PMIX_UNDEF == type) {
        return PMIX_SUCCESS;
    }
    const TypeTraits *traits = nullptr;
    pmix_status_t rc = held_traits(type, &traits);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    val->type = type;
    if (nullptr == data) {
        // The presence of a boolean attribute without data means "true".
        if (PMIX_BOOL == type) {
            val->data.flag = true;
        }
        return PMIX_SUCCESS;
    }
    rc = load_payload(val, data, *traits);
    if (PMIX_SUCCESS != rc) {
        reset(val);
    }
    return rc;
}

namespace {

pmix_status_t unload_copy_into(const pmix_value_t *val, const TypeTraits &traits, void *dest, size_t *size_p)
{
    const void *payload = value_payload(const_cast<pmix_value_t *>(val), nullptr);
    if (nullptr == payload) {
        std::memset(dest, 0, traits.size);
        *size_p = 0;
        return PMIX_SUCCESS;
    }
    if (PMIX_PROC_NSPACE == traits.type) {
        auto nspace = static_cast<const char *>(payload);
        const size_t len = strnlen(nspace, PMIX_MAX_NSLEN);
        std::memcpy(dest, nspace, len);
        static_cast<char *>(dest)[len] = '\0';
        *size_p = len;
        return PMIX_SUCCESS;
    }
    std::memcpy(dest, payload, traits.size);
    *size_p = traits.size;
    return PMIX_SUCCESS;
}

pmix_status_t unload_allocated(const pmix_value_t *val, const TypeTraits &traits, void **data_p, size_t *size_p)
{
    const void *payload = value_payload(const_cast<pmix_value_t *>(val), nullptr);
    if (PMIX_STRING == traits.type) {
        const char *s = val->data.string;
        char *copy = nullptr;
        if (PMIX_SUCCESS != dup_string(&copy, s)) {
            return PMIX_ERR_NOMEM;
        }
        *data_p = copy;
        *size_p = (nullptr == s) ? 0 : std::strlen(s);
        return PMIX_SUCCESS;
    }
    if (ops::copy_byte_object == traits.copy) {
        // Byte-object types (BYTE_OBJECT, COMPRESSED_STRING,
        // COMPRESSED_BYTE_OBJECT, REGEX): the caller gets a malloc'd COPY of
        // the bytes, to free() independently of val. OpenPMIx 4.2 hands back
        // val's own bytes pointer instead, so there the value must stay alive
        // and the result must not be freed separately; a copy is safe under
        // both usages (at worst a leak for code written against OpenPMIx),
        // never a double free. Listed in docs/wire-format.md "Differences".
        pmix_byte_object_t copy{nullptr, 0};
        pmix_status_t rc = copy_element(&copy, &val->data.bo, PMIX_BYTE_OBJECT);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
        *data_p = copy.bytes;
        *size_p = copy.size;
        return PMIX_SUCCESS;
    }
    if (nullptr == payload) {
        *data_p = nullptr;
        *size_p = 0;
        return PMIX_SUCCESS;
    }
    void *element = alloc_elements(traits.type, 1);
    if (nullptr == element) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = copy_element(element, payload, traits.type);
    if (PMIX_SUCCESS != rc) {
        std::free(element);
        return rc;
    }
    *data_p = element;
    *size_p = traits.size;
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t value_unload(const pmix_value_t *val, void **data_p, size_t *size_p)
{
    if (nullptr == val || nullptr == data_p || nullptr == size_p) {
        return PMIX_ERR_BAD_PARAM;
    }
    const TypeTraits *traits = nullptr;
    pmix_status_t rc = held_traits(val->type, &traits);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (ValueHolding::kRawPointer == traits->holding) {
        *data_p = val->data.ptr;
        *size_p = sizeof(void *);
        return PMIX_SUCCESS;
    }
    if (nullptr == traits->copy || PMIX_PROC_NSPACE == traits->type) {
        // Trivially copyable: the caller provides the storage.
        if (nullptr == *data_p) {
            return PMIX_ERR_BAD_PARAM;
        }
        return unload_copy_into(val, *traits, *data_p, size_p);
    }
    return unload_allocated(val, *traits, data_p, size_p);
}

pmix_status_t value_xfer(pmix_value_t *dest, const pmix_value_t *src)
{
    if (nullptr == dest || nullptr == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (dest == src) {
        return PMIX_SUCCESS;
    }
    reset(dest);
    if (PMIX_UNDEF == src->type) {
        return PMIX_SUCCESS;
    }
    const TypeTraits *traits = nullptr;
    pmix_status_t rc = held_traits(src->type, &traits);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    dest->type = src->type;
    if (ValueHolding::kRawPointer == traits->holding) {
        dest->data.ptr = src->data.ptr;
        return PMIX_SUCCESS;
    }
    const void *payload = value_payload(const_cast<pmix_value_t *>(src), nullptr);
    if (nullptr == payload) {
        return PMIX_SUCCESS;  // a boxed type holding nothing stays empty
    }
    rc = store_element(dest, payload, *traits);
    if (PMIX_SUCCESS != rc) {
        reset(dest);
    }
    return rc;
}

void value_destruct(pmix_value_t *val)
{
    if (nullptr == val) {
        return;
    }
    const TypeTraits *traits = find_element_type(val->type);
    if (nullptr != traits) {
        if (ValueHolding::kInline == traits->holding) {
            destruct_element(&val->data, val->type);
        } else if (ValueHolding::kBoxed == traits->holding && nullptr != val->data.ptr) {
            free_elements(val->data.ptr, 1, val->type);
        }
    }
    reset(val);
}

pmix_value_cmp_t value_compare(const pmix_value_t *a, const pmix_value_t *b)
{
    if (nullptr == a || nullptr == b) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    if (a->type != b->type) {
        return PMIX_VALUE_TYPE_DIFFERENT;
    }
    if (PMIX_UNDEF == a->type) {
        return PMIX_EQUAL;
    }
    const TypeTraits *traits = nullptr;
    if (PMIX_SUCCESS != held_traits(a->type, &traits) || nullptr == traits->compare) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    const void *pa = value_payload(const_cast<pmix_value_t *>(a), nullptr);
    const void *pb = value_payload(const_cast<pmix_value_t *>(b), nullptr);
    if (nullptr == pa || nullptr == pb) {
        return three_way(nullptr != pa, nullptr != pb);
    }
    return traits->compare(pa, pb);
}

void load_key(pmix_key_t key, const char *src)
{
    std::memset(key, 0, PMIX_MAX_KEYLEN + 1);
    if (nullptr != src) {
        std::memcpy(key, src, strnlen(src, PMIX_MAX_KEYLEN));
    }
}

pmix_status_t info_load(pmix_info_t *info, const char *key, const void *data, pmix_data_type_t type)
{
    if (nullptr == info || nullptr == key) {
        return PMIX_ERR_BAD_PARAM;
    }
    load_key(info->key, key);
    info->flags = 0;
    return value_load(&info->value, data, type);
}

pmix_status_t info_xfer(pmix_info_t *dest, const pmix_info_t *src)
{
    if (nullptr == dest || nullptr == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (dest == src) {
        return PMIX_SUCCESS;
    }
    load_key(dest->key, src->key);
    dest->flags = src->flags;
    if (0 != (src->flags & PMIX_INFO_PERSISTENT)) {
        dest->value = src->value;
        return PMIX_SUCCESS;
    }
    return value_xfer(&dest->value, &src->value);
}

void info_destruct(pmix_info_t *info)
{
    if (nullptr == info) {
        return;
    }
    if (0 == (info->flags & PMIX_INFO_PERSISTENT)) {
        value_destruct(&info->value);
    }
    std::memset(info, 0, sizeof(*info));
}

}  // namespace pmixpp::values
