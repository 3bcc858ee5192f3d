// Sample elements of every packable PMIx data type, for the buffer tests.
#ifndef PMIXPP_TESTS_BUFFER_SAMPLES_H
#define PMIXPP_TESTS_BUFFER_SAMPLES_H

#include <cstddef>
#include <vector>

#include <pmix_common.h>

namespace samples {

// Every type the wire format can carry.
const std::vector<pmix_data_type_t> &packable_types();
// Types whose elements own nested memory (the truncation tests walk these).
const std::vector<pmix_data_type_t> &composite_types();

// A calloc'ed element of type filled with non-trivial content; release with
// pmixpp::values::free_elements(e, 1, type).
void *make(pmix_data_type_t type);
void release(void *element, pmix_data_type_t type);

// Value / info loaders that avoid the standard's macros (old-style casts).
void load_string_value(pmix_value_t *v, const char *s);
void load_u32_value(pmix_value_t *v, uint32_t x);
void set_key(char *key, const char *s);

}  // namespace samples

#endif
