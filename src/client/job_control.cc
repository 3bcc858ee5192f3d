// Job control directives (kill, signal, registered cleanup of files and
// directories). Issue 4 (cleanup) fills these in.
#include <pmix.h>

pmix_status_t PMIx_Job_control(const pmix_proc_t /*targets*/[], size_t /*ntargets*/,
                               const pmix_info_t /*directives*/[], size_t /*ndirs*/,
                               pmix_info_t ** /*results*/, size_t * /*nresults*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Job_control_nb(const pmix_proc_t /*targets*/[], size_t /*ntargets*/,
                                  const pmix_info_t /*directives*/[], size_t /*ndirs*/,
                                  pmix_info_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
