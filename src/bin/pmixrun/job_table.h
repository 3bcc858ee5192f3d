// What tools and processes may ask about the running jobs (PMIx_Query_info
// through the server's query upcall, on its progress thread): a copy of
// every job's and session's state, kept by the main thread as they change.
//
//   PMIX_QUERY_NAMESPACES        the jobs not yet done, comma separated
//   PMIX_QUERY_NAMESPACE_INFO    per job: PMIX_NSPACE, PMIX_CMD_LINE,
//                                PMIX_SESSION_ID, PMIX_JOB_SIZE, PMIX_PARENT_ID
//   PMIX_QUERY_PROC_TABLE,       pmix_proc_info_t of every process of the
//   PMIX_QUERY_LOCAL_PROC_TABLE  namespace given with PMIX_NSPACE (default:
//                                the command line's job)
//   PMIX_QUERY_ALLOCATION        per session: PMIX_SESSION_ID, PMIX_ALLOC_ID,
//                                PMIX_ALLOC_REQ_ID, PMIXRUN_SESSION_PARENT,
//                                PMIXRUN_SESSION_STATE, PMIXRUN_SESSION_JOBS
//   anything else: not answered here (PMIX_ERR_NOT_FOUND when nothing is)
#ifndef PMIXPP_BIN_PMIXRUN_JOB_TABLE_H
#define PMIXPP_BIN_PMIXRUN_JOB_TABLE_H

#include "job.h"
#include "sessions.h"

#include <pmix_server.h>

#include <memory>
#include <vector>

// pmixrun's keys in a session's description.
#define PMIXRUN_SESSION_PARENT "pmixrun.ssn.parent" /* uint32_t, absent for the default session */
#define PMIXRUN_SESSION_STATE "pmixrun.ssn.state"   /* char*: running, paused, ended */
#define PMIXRUN_SESSION_JOBS "pmixrun.ssn.jobs"     /* char*: its jobs' namespaces, comma separated */

namespace pmixrun {

// Main thread: the jobs and sessions as they are now.
void update_job_table(const std::vector<std::unique_ptr<Job>> &jobs, const SessionTable &sessions);

// The query upcall.
pmix_status_t query_job_table(pmix_proc_t *requester, pmix_query_t *queries, size_t nqueries,
                              pmix_info_cbfunc_t cbfunc, void *cbdata);

} // namespace pmixrun

#endif
