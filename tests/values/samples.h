// Sample elements of every PMIx data type, for table-driven tests.
#ifndef PMIXPP_TESTS_VALUES_SAMPLES_H
#define PMIXPP_TESTS_VALUES_SAMPLES_H

#include <cstddef>
#include <vector>

#include <pmix_common.h>

namespace samples {

// Every data type of the 4.2 headers that has an element representation.
const std::vector<pmix_data_type_t> &element_types();

// True for types a pmix_value_t can hold (all but INFO, VALUE, PDATA, APP, QUERY).
bool value_holds(pmix_data_type_t type);

// Fills zeroed storage of element_size(type) with an owning sample; different
// variants give elements that compare unequal. Release with
// pmixpp::values::destruct_element.
void make(pmix_data_type_t type, int variant, void *element);

// The "data" argument PMIx_Value_load expects for an element: the element's
// address, except the char* itself for PMIX_STRING/PMIX_REGEX and the stored
// pointer for PMIX_POINTER.
const void *load_argument(pmix_data_type_t type, const void *element);

// Storage large enough for any element.
struct Storage {
    alignas(16) unsigned char bytes[1024];
};

}  // namespace samples

#endif
