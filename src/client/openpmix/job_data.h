// The job data an OpenPMIx server sends a client at init (its answer to
// REQ), laid out as OpenPMIx's gds/hash reads it, into our store at the
// levels our server would have registered it.
#ifndef PMIXPP_CLIENT_OPENPMIX_JOB_DATA_H
#define PMIXPP_CLIENT_OPENPMIX_JOB_DATA_H

#include <pmix_common.h>

#include <cstdint>
#include <span>
#include <string>

#include "common/openpmix/bfrops.h"
#include "common/store/store.h"

namespace pmixpp::client {

// [nspace][KVALs...]: job-level keys, the session, node and application
// arrays (pmix.ssn.arr, pmix.node.arr, pmix.app.arr) and one pmix.pblob
// ([rank][KVALs]) per rank. The nspace must be `nspace` (a tool, nullptr:
// any, as the server names it); *reason_p says what was wrong otherwise.
// *carried_job_level_p (when given) says whether the job-level keys came:
// a namespace served by gds/ds21 gets only the arrays here, its job-level
// and per-rank data stay in the server's shared memory.
pmix_status_t import_openpmix_job_data(openpmix::Encoding encoding, std::span<const uint8_t> answer, const char *nspace,
                                       const store::Store &store, std::string *reason_p,
                                       bool *carried_job_level_p = nullptr);

// The answer to a get of `nspace`'s data ([status][byte objects of
// [proc][KVALs]]): rank WILDCARD's to the job level, a rank's to its own.
// How a client whose job data stayed in ds21's shared memory reads it.
pmix_status_t import_openpmix_get_answer(openpmix::Encoding encoding, std::span<const uint8_t> answer,
                                         const char *nspace, const store::Store &store, std::string *reason_p);

}  // namespace pmixpp::client

#endif
