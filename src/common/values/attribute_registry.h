// Attributes a host declared support for, per server-module function
// (PMIx_Register_attributes). Thread-safe; answers PMIX_QUERY_ATTRIBUTE_SUPPORT.
#ifndef PMIXPP_COMMON_VALUES_ATTRIBUTE_REGISTRY_H
#define PMIXPP_COMMON_VALUES_ATTRIBUTE_REGISTRY_H

#include <cstddef>
#include <string>
#include <vector>

#include <pmix_common.h>

namespace pmixpp::values {

struct RegisteredAttribute {
    std::string name;       // "PMIX_JOB_SIZE"; the key itself when not in the dictionary
    std::string key;        // "pmix.job.size"
    pmix_data_type_t type;  // declared value type; PMIX_UNDEF when unknown
};

// Records attrs (NULL-terminated, key strings or macro names) for function.
// PMIX_ERR_REPEAT_ATTR_REGISTRATION when function was registered before.
pmix_status_t register_attributes(const char *function, char *const attrs[]);

// Copies the attributes registered for function into *attrs_p;
// PMIX_ERR_NOT_FOUND when the host registered nothing for it.
pmix_status_t registered_attributes(const char *function, std::vector<RegisteredAttribute> *attrs_p);

// The functions with registrations, in sorted order.
std::vector<std::string> registered_functions();

// The same as a malloc'ed pmix_regattr_t array (free with free_elements(...,
// PMIX_REGATTR)), ready to return to a querying client.
pmix_status_t registered_attributes_as_regattr(const char *function, pmix_regattr_t **attrs_p, size_t *count_p);

// Forgets every registration (library finalize, tests).
void clear_registered_attributes();

}  // namespace pmixpp::values

#endif
