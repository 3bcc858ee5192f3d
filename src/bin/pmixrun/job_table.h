// What tools and processes may ask about the running jobs (PMIx_Query_info
// through the server's query upcall, on its progress thread): a copy of
// every job's and session's state, kept by the main thread as they change.
//
//   PMIX_QUERY_NAMESPACES        the jobs not yet done, comma separated
//   PMIX_QUERY_NAMESPACE_INFO    per job: PMIX_NSPACE, PMIX_CMD_LINE (strings,
//                                as PRRTE)
//   PMIX_QUERY_PROC_TABLE,       pmix_proc_info_t of every process of the
//   PMIX_QUERY_LOCAL_PROC_TABLE  namespace given with PMIX_NSPACE (default:
//                                the command line's job)
//   PMIX_QUERY_ALLOCATION        per session: PMIX_SESSION_ID, PMIX_ALLOC_ID,
//                                PMIX_ALLOC_REQ_ID, PMIXRUN_SESSION_PARENT,
//                                PMIXRUN_SESSION_STATE, PMIXRUN_SESSION_JOBS
//   PMIX_QUERY_ALLOC_STATUS      "granted", "paused" or "released", for the
//                                PMIX_ALLOC_ID / PMIX_ALLOC_REQ_ID qualifier
//   PMIX_QUERY_SPAWN_SUPPORT,    the spawn directives pmixrun honours, and
//   PMIX_QUERY_DEBUG_SUPPORT     the debugger stops it offers (none), comma
//                                separated
//   PMIX_SERVER_URI              its server's (PMIX_HOSTNAME: this node only)
//   PMIX_JOB_SIZE                of the PMIX_NSPACE qualifier's job (uint32)
//   PMIX_QUERY_NUM_PSETS,        0 and "": pmixrun defines no process sets
//   PMIX_QUERY_PSET_NAMES
//   anything else: not answered here (PMIX_ERR_NOT_FOUND when nothing is)
#ifndef PMIXPP_BIN_PMIXRUN_JOB_TABLE_H
#define PMIXPP_BIN_PMIXRUN_JOB_TABLE_H

#include "job.h"
#include "sessions.h"

#include <pmix_server.h>

#include <memory>
#include <string>
#include <vector>

// pmixrun's keys in a session's description.
#define PMIXRUN_SESSION_PARENT "pmixrun.ssn.parent" /* uint32_t, absent for the default session */
#define PMIXRUN_SESSION_STATE "pmixrun.ssn.state"   /* char*: running, paused, ended */
#define PMIXRUN_SESSION_JOBS "pmixrun.ssn.jobs"     /* char*: its jobs' namespaces, comma separated */

namespace pmixrun {

// Main thread: the jobs and sessions as they are now.
void update_job_table(const std::vector<std::unique_ptr<Job>> &jobs, const SessionTable &sessions);

// The server's URI, answered to PMIX_SERVER_URI.
void set_server_uri(const std::string &uri);

// The answers to a query upcall's queries, taken from the table (any
// thread): *answers_p (malloc'ed, release with release_answers) and the
// status for the callback (PMIX_ERR_NOT_FOUND when no key was answered,
// PMIX_QUERY_PARTIAL_SUCCESS when some were not).
pmix_status_t answer_queries(const pmix_proc_t *requester, const pmix_query_t *queries, size_t nqueries,
                             pmix_data_array_t **answers_p, pmix_status_t *status_p);
void release_answers(void *cbdata);

}  // namespace pmixrun

#endif
