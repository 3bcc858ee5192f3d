// Per-type element operations shared by the value utilities (src/common/values)
// and the buffer code (src/common/buffer). An "element" is one item of a given
// pmix_data_type_t laid out exactly as it sits in pmix_data_array_t::array:
//   PMIX_STRING -> char*, PMIX_INFO -> pmix_info_t, PMIX_VALUE -> pmix_value_t,
//   PMIX_DATA_ARRAY -> pmix_data_array_t, PMIX_PROC -> pmix_proc_t, ...
// Everything an element owns is allocated with libc malloc, because callers of
// the public API release it with free() through the standard's macros.
#ifndef PMIXPP_COMMON_VALUES_TYPE_OPS_H
#define PMIXPP_COMMON_VALUES_TYPE_OPS_H

#include <cstddef>

#include <pmix_common.h>

namespace pmixpp::values {

// Every defined type number is below this: tables indexed by type (codecs,
// formatters) are flat arrays of this size.
inline constexpr pmix_data_type_t kTypeLimit = 128;

// Bytes one element occupies in an array; 0 for an unknown type.
size_t element_size(pmix_data_type_t type);

// Deep-copies one element; dest is zeroed storage of element_size(type).
// On error dest owns nothing.
pmix_status_t copy_element(void *dest, const void *src, pmix_data_type_t type);

// Releases what one element owns (strings, nested arrays, ...), not the
// element's own storage, and leaves it zeroed.
void destruct_element(void *element, pmix_data_type_t type);

// calloc()s n zeroed elements; nullptr for n == 0, an unknown type or no memory.
void *alloc_elements(pmix_data_type_t type, size_t n);

// Destructs n elements and frees the array itself.
void free_elements(void *array, size_t n, pmix_data_type_t type);

// Deep-copies a data array's contents into dest (dest->array is calloc'ed).
pmix_status_t copy_data_array(pmix_data_array_t *dest, const pmix_data_array_t *src);

// Address of the member of val->data that holds a value of val->type, and the
// number of bytes it occupies (0 for PMIX_UNDEF / unknown types).
// Precisely (d1's implementation): the address of ONE ELEMENT of val->type in
// the array layout above, with *size_p = element_size(val->type):
//   - types held inline (scalars, char*, byte objects, pmix_envar_t, and the
//     void* of PMIX_POINTER): &val->data;
//   - types held by pointer (pmix_proc_t*, pmix_data_array_t*, pmix_nspace_t*,
//     pmix_regattr_t* in data.ptr, ...): the pointee, nullptr (size 0) if unset;
//   - array-only types (PMIX_INFO, PMIX_VALUE, PMIX_APP, ...): nullptr, 0.
void *value_payload(pmix_value_t *val, size_t *size_p);

}  // namespace pmixpp::values

#endif
