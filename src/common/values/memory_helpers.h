// Small allocation and comparison helpers shared by the element operations.
// Everything handed to callers comes from libc (see type_ops.h).
#ifndef PMIXPP_COMMON_VALUES_MEMORY_HELPERS_H
#define PMIXPP_COMMON_VALUES_MEMORY_HELPERS_H

#include <cstdlib>
#include <cstring>

#include <pmix_common.h>

namespace pmixpp::values {

// *dest_p = strdup(src), or nullptr when src is nullptr.
pmix_status_t dup_string(char **dest_p, const char *src);

// Deep copy of a NULL-terminated argv array (nullptr stays nullptr).
pmix_status_t dup_argv(char ***dest_p, char *const *src);
void free_argv(char **argv);

// Releases *s and sets it to nullptr.
inline void free_and_clear(char **s)
{
    std::free(*s);
    *s = nullptr;
}

// Three-way comparison mapped onto pmix_value_cmp_t.
template <typename T> pmix_value_cmp_t three_way(const T &a, const T &b)
{
    if (a < b) {
        return PMIX_VALUE2_GREATER;
    }
    if (b < a) {
        return PMIX_VALUE1_GREATER;
    }
    return PMIX_EQUAL;
}

// nullptr sorts before any string; two nullptrs are equal.
pmix_value_cmp_t compare_cstrings(const char *a, const char *b);

// Shorter sorts first, then bytes.
pmix_value_cmp_t compare_bytes(const void *a, size_t na, const void *b, size_t nb);

// Chains field comparisons: the first field that differs decides.
class FieldComparison {
public:
    template <typename T> FieldComparison &number(const T &a, const T &b)
    {
        if (PMIX_EQUAL == result_) {
            result_ = three_way(a, b);
        }
        return *this;
    }
    FieldComparison &string(const char *a, const char *b)
    {
        if (PMIX_EQUAL == result_) {
            result_ = compare_cstrings(a, b);
        }
        return *this;
    }
    FieldComparison &bytes(const void *a, size_t na, const void *b, size_t nb)
    {
        if (PMIX_EQUAL == result_) {
            result_ = compare_bytes(a, na, b, nb);
        }
        return *this;
    }
    FieldComparison &then(pmix_value_cmp_t next)
    {
        if (PMIX_EQUAL == result_) {
            result_ = next;
        }
        return *this;
    }
    bool undecided() const { return PMIX_EQUAL == result_; }
    pmix_value_cmp_t result() const { return result_; }

private:
    pmix_value_cmp_t result_ = PMIX_EQUAL;
};

}  // namespace pmixpp::values

#endif
