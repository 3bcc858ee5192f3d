// Process groups (construct, invite/join, leave, destruct). Issue 3
// (server/client core) fills these in. Until then the blocking calls still
// leave their results empty (NULL, 0), as OpenPMIx does before it starts:
// callers such as python3-pmix read nresults even when the call failed.
#include <pmix.h>

#include "client/no_results.h"

pmix_status_t PMIx_Group_construct(const char /*grp*/[], const pmix_proc_t /*procs*/[],
                                   size_t /*nprocs*/, const pmix_info_t /*directives*/[],
                                   size_t /*ndirs*/, pmix_info_t **results,
                                   size_t *nresults)
{
    pmixpp::client::no_results(results, nresults);
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_construct_nb(const char /*grp*/[], const pmix_proc_t /*procs*/[],
                                      size_t /*nprocs*/, const pmix_info_t /*info*/[],
                                      size_t /*ninfo*/, pmix_info_cbfunc_t /*cbfunc*/,
                                      void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_invite(const char /*grp*/[], const pmix_proc_t /*procs*/[],
                                size_t /*nprocs*/, const pmix_info_t /*info*/[],
                                size_t /*ninfo*/, pmix_info_t **results,
                                size_t *nresults)
{
    pmixpp::client::no_results(results, nresults);
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_invite_nb(const char /*grp*/[], const pmix_proc_t /*procs*/[],
                                   size_t /*nprocs*/, const pmix_info_t /*info*/[],
                                   size_t /*ninfo*/, pmix_info_cbfunc_t /*cbfunc*/,
                                   void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_join(const char /*grp*/[], const pmix_proc_t * /*leader*/,
                              pmix_group_opt_t /*opt*/, const pmix_info_t /*info*/[],
                              size_t /*ninfo*/, pmix_info_t **results,
                              size_t *nresults)
{
    pmixpp::client::no_results(results, nresults);
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_join_nb(const char /*grp*/[], const pmix_proc_t * /*leader*/,
                                 pmix_group_opt_t /*opt*/, const pmix_info_t /*info*/[],
                                 size_t /*ninfo*/, pmix_info_cbfunc_t /*cbfunc*/,
                                 void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_leave(const char /*grp*/[], const pmix_info_t /*info*/[],
                               size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_leave_nb(const char /*grp*/[], const pmix_info_t /*info*/[],
                                  size_t /*ninfo*/, pmix_op_cbfunc_t /*cbfunc*/,
                                  void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_destruct(const char /*grp*/[], const pmix_info_t /*info*/[],
                                  size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Group_destruct_nb(const char /*grp*/[], const pmix_info_t /*info*/[],
                                     size_t /*ninfo*/, pmix_op_cbfunc_t /*cbfunc*/,
                                     void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
