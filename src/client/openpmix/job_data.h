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
pmix_status_t import_openpmix_job_data(openpmix::Encoding encoding, std::span<const uint8_t> answer, const char *nspace,
                                       const store::Store &store, std::string *reason_p);

}  // namespace pmixpp::client

#endif
