// The job pmixrun runs: its applications and processes, and what happened
// to each process. Owned by the supervisor (main thread).
#ifndef PMIXPP_BIN_PMIXRUN_JOB_H
#define PMIXPP_BIN_PMIXRUN_JOB_H

#include "options.h"

#include <pmix_common.h>

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pmixrun {

struct Proc {
    pmix_rank_t rank = 0;
    uint32_t app = 0;        // index into Job::apps (its appnum)
    uint32_t app_rank = 0;
    pid_t pid = -1;
    int out_fd = -1;         // its stdout and stderr, read by us
    int err_fd = -1;
    bool exited = false;
    int wait_status = 0;     // waitpid's
};

struct Job {
    std::string nspace;
    uint32_t session_id = 1;
    std::string hostname;
    std::vector<AppSpec> apps;
    std::vector<Proc> procs;  // by rank

    uint32_t size() const { return static_cast<uint32_t>(procs.size()); }
};

// Ranks are given application after application: app 0 holds 0..n0-1.
Job make_job(const Options &options, std::string nspace, std::string hostname);

// The info of PMIx_server_register_nspace: session, job, node and proc maps,
// one PMIX_APP_INFO_ARRAY per application, one PMIX_PROC_DATA per process,
// then `extra` (what setup_application returned). Released with
// PMIX_INFO_FREE. PMIX_SUCCESS or the failing call's status.
pmix_status_t job_info(const Job &job, const pmix_info_t extra[], size_t nextra, pmix_info_t **info_p,
                       size_t *ninfo_p);

// PMIX_SESSION_ID, PMIX_JOB_SIZE, node/proc maps: what setup_application's
// components need to know of the job.
pmix_status_t setup_info(const Job &job, pmix_info_t **info_p, size_t *ninfo_p);

} // namespace pmixrun

#endif
