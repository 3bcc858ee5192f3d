// Element operations for strings, byte objects, names and other leaf types,
// plus the helpers of memory_helpers.h.
#include <sys/time.h>

#include <cstdlib>
#include <cstring>

#include "common/values/element_ops.h"
#include "common/values/memory_helpers.h"

namespace pmixpp::values {

pmix_status_t dup_string(char **dest_p, const char *src)
{
    if (nullptr == src) {
        *dest_p = nullptr;
        return PMIX_SUCCESS;
    }
    char *copy = strdup(src);
    if (nullptr == copy) {
        return PMIX_ERR_NOMEM;
    }
    *dest_p = copy;
    return PMIX_SUCCESS;
}

void free_argv(char **argv)
{
    if (nullptr == argv) {
        return;
    }
    for (char **p = argv; nullptr != *p; ++p) {
        std::free(*p);
    }
    std::free(argv);
}

pmix_status_t dup_argv(char ***dest_p, char *const *src)
{
    if (nullptr == src) {
        *dest_p = nullptr;
        return PMIX_SUCCESS;
    }
    size_t count = 0;
    while (nullptr != src[count]) {
        ++count;
    }
    auto copy = static_cast<char **>(std::calloc(count + 1, sizeof(char *)));
    if (nullptr == copy) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t n = 0; n < count; ++n) {
        copy[n] = strdup(src[n]);
        if (nullptr == copy[n]) {
            free_argv(copy);
            return PMIX_ERR_NOMEM;
        }
    }
    *dest_p = copy;
    return PMIX_SUCCESS;
}

pmix_value_cmp_t compare_cstrings(const char *a, const char *b)
{
    if (nullptr == a || nullptr == b) {
        return three_way(nullptr != a, nullptr != b);
    }
    return three_way(std::strcmp(a, b), 0);
}

pmix_value_cmp_t compare_bytes(const void *a, size_t na, const void *b, size_t nb)
{
    if (na != nb) {
        return three_way(na, nb);
    }
    if (0 == na) {
        return PMIX_EQUAL;
    }
    if (nullptr == a || nullptr == b) {
        return three_way(nullptr != a, nullptr != b);
    }
    return three_way(std::memcmp(a, b, na), 0);
}

}  // namespace pmixpp::values

namespace pmixpp::values::ops {

pmix_status_t copy_string(void *dest, const void *src)
{
    return dup_string(static_cast<char **>(dest), *static_cast<char *const *>(src));
}

void destruct_string(void *element)
{
    free_and_clear(static_cast<char **>(element));
}

pmix_value_cmp_t compare_string(const void *a, const void *b)
{
    return compare_cstrings(*static_cast<char *const *>(a), *static_cast<char *const *>(b));
}

pmix_status_t copy_byte_object(void *dest, const void *src)
{
    auto to = static_cast<pmix_byte_object_t *>(dest);
    auto from = static_cast<const pmix_byte_object_t *>(src);
    if (nullptr == from->bytes || 0 == from->size) {
        return PMIX_SUCCESS;
    }
    auto bytes = static_cast<char *>(std::malloc(from->size));
    if (nullptr == bytes) {
        return PMIX_ERR_NOMEM;
    }
    std::memcpy(bytes, from->bytes, from->size);
    to->bytes = bytes;
    to->size = from->size;
    return PMIX_SUCCESS;
}

void destruct_byte_object(void *element)
{
    auto bo = static_cast<pmix_byte_object_t *>(element);
    std::free(bo->bytes);
    bo->bytes = nullptr;
    bo->size = 0;
}

pmix_value_cmp_t compare_byte_object(const void *a, const void *b)
{
    auto x = static_cast<const pmix_byte_object_t *>(a);
    auto y = static_cast<const pmix_byte_object_t *>(b);
    return compare_bytes(x->bytes, x->size, y->bytes, y->size);
}

// A namespace may come from a caller's short string, so never read past its
// terminator even though the element is PMIX_MAX_NSLEN+1 bytes.
pmix_status_t copy_nspace(void *dest, const void *src)
{
    auto from = static_cast<const char *>(src);
    std::memcpy(dest, from, strnlen(from, PMIX_MAX_NSLEN));
    return PMIX_SUCCESS;
}

pmix_value_cmp_t compare_nspace(const void *a, const void *b)
{
    return three_way(std::strncmp(static_cast<const char *>(a), static_cast<const char *>(b), PMIX_MAX_NSLEN), 0);
}

pmix_value_cmp_t compare_proc(const void *a, const void *b)
{
    auto x = static_cast<const pmix_proc_t *>(a);
    auto y = static_cast<const pmix_proc_t *>(b);
    FieldComparison cmp;
    cmp.then(compare_nspace(x->nspace, y->nspace)).number(x->rank, y->rank);
    return cmp.result();
}

pmix_value_cmp_t compare_timeval(const void *a, const void *b)
{
    struct timeval x;
    struct timeval y;
    std::memcpy(&x, a, sizeof(x));
    std::memcpy(&y, b, sizeof(y));
    FieldComparison cmp;
    cmp.number(x.tv_sec, y.tv_sec).number(x.tv_usec, y.tv_usec);
    return cmp.result();
}

pmix_value_cmp_t compare_pointer(const void *a, const void *b)
{
    void *x;
    void *y;
    std::memcpy(&x, a, sizeof(x));
    std::memcpy(&y, b, sizeof(y));
    return three_way(reinterpret_cast<uintptr_t>(x), reinterpret_cast<uintptr_t>(y));
}

}  // namespace pmixpp::values::ops
