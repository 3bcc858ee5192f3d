// Prints, one line per case of golden_cases.h, "<name> <hex>" of the bytes
// the real OpenPMIx library (Debian's libpmix2, linked here instead of ours)
// packs. The encoding comes from OpenPMIx's own environment variables:
// PMIX_MCA_bfrops=v3 for v3, PMIX_BFROP_BUFFER_TYPE=PMIX_BFROP_BUFFER_FULLY_DESC
// for fully described buffers. PMIx_Data_pack needs an initialised library;
// a server with an empty module is enough and talks to nobody.
#include <pmix.h>
#include <pmix_server.h>

#include <cstdio>
#include <cstring>

#include "golden_cases.h"

int main()
{
    pmix_server_module_t module;
    std::memset(&module, 0, sizeof module);
    pmix_status_t rc = PMIx_server_init(&module, nullptr, 0);
    if (PMIX_SUCCESS != rc) {
        std::printf("SKIP PMIx_server_init of %s failed: %d\n", PMIx_Get_version(), rc);
        return 0;
    }
    std::printf("VERSION %s\n", PMIx_Get_version());
    golden::run_cases([](const char *name, pmix_data_type_t type, const void *values, int n) {
        pmix_data_buffer_t buf;
        PMIX_DATA_BUFFER_CONSTRUCT(&buf);
        pmix_status_t prc = PMIx_Data_pack(nullptr, &buf, const_cast<void *>(values), n, type);
        std::printf("%s ", name);
        if (PMIX_SUCCESS != prc) {
            std::printf("ERROR %d\n", prc);
        } else {
            for (size_t i = 0; i < buf.bytes_used; ++i) {
                std::printf("%02x", static_cast<unsigned char>(buf.base_ptr[i]));
            }
            std::printf("\n");
        }
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
    });
    std::fflush(stdout);
    PMIx_server_finalize();
    return 0;
}
