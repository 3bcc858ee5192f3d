// The version of the standard's stable and provisional ABI this library
// claims, as the PMIX_QUERY_*_ABI_VERSION queries answer it. The same as
// OpenPMIx 4.2 ("0.0" for both), which programs written for it compare with.
// Any process answers these from the library itself, before PMIx_Init too.
#ifndef PMIXPP_COMMON_RUNTIME_STANDARD_ABI_H
#define PMIXPP_COMMON_RUNTIME_STANDARD_ABI_H

#include <cstring>

#include <pmix_common.h>

namespace pmixpp::runtime {

// The answer to a query key the library answers itself, or nullptr.
inline const char *standard_abi_answer(const char *key)
{
    if (key == nullptr) return nullptr;
    if (std::strcmp(key, PMIX_QUERY_STABLE_ABI_VERSION) == 0) return "0.0";
    if (std::strcmp(key, PMIX_QUERY_PROVISIONAL_ABI_VERSION) == 0) return "0.0";
    return nullptr;
}

}  // namespace pmixpp::runtime

#endif
