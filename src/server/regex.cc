// Node and proc map encodings (PMIX_NODE_MAP / PMIX_PROC_MAP). Issue 3
// (server/client core) fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_generate_regex(const char * /*input*/, char ** /*regex*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_generate_ppn(const char * /*input*/, char ** /*ppn*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
