// What an OpenPMIx client receives at PMIx_Init: its job's data laid out as
// OpenPMIx's gds/hash reads it (its namespace, then key/values: job-level
// ones, a session array, one array per node and per application, and one
// byte object per rank with that rank's data). Built once per namespace
// from the store, kept with the namespace, and sent to each of its
// OpenPMIx clients.
#ifndef PMIXPP_SERVER_OPENPMIX_JOB_DATA_H
#define PMIXPP_SERVER_OPENPMIX_JOB_DATA_H

#include "common/openpmix/bfrops.h"
#include "server/openpmix/dialect.h"
#include "server/state/server.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pmixpp::server {

pmix_status_t build_job_data(const Server &server, const Namespace &ns, openpmix::Encoding encoding,
                             std::vector<uint8_t> *blob_p);

// The job-level key/values of `nspace` (nothing when it is unknown).
pmix_status_t pack_job_level(const Server &server, const std::string &nspace, openpmix::Writer &writer);

// Answers the peer's REQ with its job's data (an empty answer, which
// OpenPMIx's client reads as a failed init, when it cannot be built).
void send_job_data(Server &server, Peer &peer, OpenPmixDialect &dialect, uint32_t tag);

}  // namespace pmixpp::server

#endif
