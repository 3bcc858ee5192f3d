// PMIx_Data_copy: a malloc'ed deep copy of one element.
#include <cstdlib>
#include <cstring>

#include <pmix.h>

#include "common/values/type_ops.h"

extern "C" pmix_status_t PMIx_Data_copy(void **dest, void *src, pmix_data_type_t type)
{
    if (dest == nullptr || src == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    // The standard's quirk: for strings src is the string itself, not a
    // pointer to a char* element.
    if (type == PMIX_STRING) {
        char *copy = strdup(static_cast<const char *>(src));
        if (copy == nullptr) {
            return PMIX_ERR_NOMEM;
        }
        *dest = copy;
        return PMIX_SUCCESS;
    }
    size_t size = pmixpp::values::element_size(type);
    if (size == 0) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    void *copy = std::calloc(1, size);
    if (copy == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = pmixpp::values::copy_element(copy, src, type);
    if (rc != PMIX_SUCCESS) {
        std::free(copy);
        return rc;
    }
    *dest = copy;
    return PMIX_SUCCESS;
}
