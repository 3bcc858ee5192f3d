// Internal value and info operations behind the public PMIx_Value_* and
// PMIx_Info_* functions (value_api.cc), usable by any area of the library.
#ifndef PMIXPP_COMMON_VALUES_VALUE_OPS_H
#define PMIXPP_COMMON_VALUES_VALUE_OPS_H

#include <cstddef>

#include <pmix_common.h>

namespace pmixpp::values {

// Copies data of type into val (val is overwritten, not released first).
// As the standard's macros expect: PMIX_STRING and PMIX_REGEX take the char*
// itself, PMIX_POINTER stores the pointer itself, every other type takes a
// pointer to one element; data == nullptr loads a zero value (true for bool).
// On error val is left PMIX_UNDEF and owns nothing.
pmix_status_t value_load(pmix_value_t *val, const void *data, pmix_data_type_t type);

// Hands out the content of val. Scalars, PMIX_PROC and PMIX_PROC_NSPACE are
// copied into the caller's storage at *data_p; strings, byte objects and
// structured types are returned as new malloc'ed copies in *data_p;
// PMIX_POINTER returns the stored pointer.
pmix_status_t value_unload(const pmix_value_t *val, void **data_p, size_t *size_p);

// Deep copy; dest is overwritten. On error dest is PMIX_UNDEF.
pmix_status_t value_xfer(pmix_value_t *dest, const pmix_value_t *src);

// Releases what val owns; val becomes PMIX_UNDEF.
void value_destruct(pmix_value_t *val);

pmix_value_cmp_t value_compare(const pmix_value_t *a, const pmix_value_t *b);

// Copies at most PMIX_MAX_KEYLEN characters and always terminates.
void load_key(pmix_key_t key, const char *src);

pmix_status_t info_load(pmix_info_t *info, const char *key, const void *data, pmix_data_type_t type);

// A PMIX_INFO_PERSISTENT source lends its value: the copy shares it and stays
// persistent, so neither copy releases it (the standard's PMIX_INFO_DESTRUCT
// skips persistent values).
pmix_status_t info_xfer(pmix_info_t *dest, const pmix_info_t *src);

void info_destruct(pmix_info_t *info);

}  // namespace pmixpp::values

#endif
