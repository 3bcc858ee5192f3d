// PMIx_Get_version. Open MPI rejects a library whose version string starts
// with a character <= '2', hence the leading project name.
#include <pmix.h>

#ifndef PMIXPP_VERSION_STRING
#error "PMIXPP_VERSION_STRING is defined by src/common/values/CMakeLists.txt"
#endif

extern "C" PMIX_EXPORT const char *PMIx_Get_version(void)
{
    return "pmixpp " PMIXPP_VERSION_STRING " (PMIx Standard: 4.2, Stable ABI: 0.0, Provisional ABI: 0.0)";
}
