// What tools may ask about the running job (PMIx_Query_info through the
// server's query upcall, on its progress thread): a copy of each process's
// state, kept by the main thread as processes start and end.
//
//   PMIX_QUERY_PROC_TABLE, PMIX_QUERY_LOCAL_PROC_TABLE   pmix_proc_info_t of
//       every process of the namespace given with PMIX_NSPACE (default: the job)
//   PMIX_QUERY_NUM_GROUPS... and anything else: not answered here
#ifndef PMIXPP_BIN_PMIXRUN_JOB_TABLE_H
#define PMIXPP_BIN_PMIXRUN_JOB_TABLE_H

#include "job.h"

#include <pmix_server.h>

namespace pmixrun {

// Main thread: the job's processes as they are now.
void update_job_table(const Job &job);

// The query upcall.
pmix_status_t query_job_table(pmix_proc_t *requester, pmix_query_t *queries, size_t nqueries,
                              pmix_info_cbfunc_t cbfunc, void *cbdata);

} // namespace pmixrun

#endif
