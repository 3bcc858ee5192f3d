// Client life cycle. Issue 3 (server/client core) fills these in: connection
// to the local server, reference-counted init, progress thread.
#include <pmix.h>

pmix_status_t PMIx_Init(pmix_proc_t * /*proc*/, pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Finalize(const pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

int PMIx_Initialized(void)
{
    return 0;
}

pmix_status_t PMIx_Abort(int /*status*/, const char /*msg*/[], pmix_proc_t /*procs*/[],
                         size_t /*nprocs*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

void PMIx_Progress(void) {}
