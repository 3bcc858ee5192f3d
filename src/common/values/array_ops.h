// Helpers for the (pointer, count) arrays embedded in PMIx structs.
#ifndef PMIXPP_COMMON_VALUES_ARRAY_OPS_H
#define PMIXPP_COMMON_VALUES_ARRAY_OPS_H

#include <cstddef>

#include <pmix_common.h>

namespace pmixpp::values {

// *dest_p = deep copy of n elements of type at src (nullptr when n == 0 or
// src is nullptr). *dest_p is only set on success.
pmix_status_t copy_elements(void **dest_p, const void *src, size_t n, pmix_data_type_t type);

// Element-wise comparison of two arrays of the same type: the longer array
// is greater, otherwise the first element that differs decides.
pmix_value_cmp_t compare_elements(const void *a, size_t na, const void *b, size_t nb, pmix_data_type_t type);

}  // namespace pmixpp::values

#endif
