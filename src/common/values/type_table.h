// The one declarative table of PMIx data types: what an element looks like,
// how a pmix_value_t holds it, and how to copy, release and compare it.
#ifndef PMIXPP_COMMON_VALUES_TYPE_TABLE_H
#define PMIXPP_COMMON_VALUES_TYPE_TABLE_H

#include <cstddef>

#include <pmix_common.h>

#include "common/values/element_ops.h"

namespace pmixpp::values {

// Where pmix_value_t::data keeps a value of the type.
enum class ValueHolding : unsigned char {
    kInline,      // the element itself sits at &val->data (scalars, char*, bo, envar)
    kBoxed,       // val->data holds a malloc'ed pointer to one element
    kRawPointer,  // PMIX_POINTER: the caller's pointer, never owned
    kNotHeld,     // array-only types (pmix_info_t, pmix_app_t, ...)
};

struct TypeTraits {
    pmix_data_type_t type;
    const char *name;
    size_t size;  // bytes of one element; 0: a name without element ops
    ValueHolding holding;
    ops::CopyFn copy;          // nullptr: trivially copyable (memcpy)
    ops::DestructFn destruct;  // nullptr: owns nothing
    ops::CompareFn compare;
};

// nullptr for a type the table does not know.
const TypeTraits *find_type(pmix_data_type_t type);

// A known type with element operations.
inline const TypeTraits *find_element_type(pmix_data_type_t type)
{
    const TypeTraits *traits = find_type(type);
    return (nullptr != traits && traits->size > 0) ? traits : nullptr;
}

}  // namespace pmixpp::values

#endif
