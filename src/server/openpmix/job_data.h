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
#include <utility>
#include <vector>

namespace pmixpp::server {

// A job's data in KVAL packs: job level with its session, node and app
// arrays, and each rank's own.
struct JobPieces {
    std::vector<uint8_t> job_level;
    std::vector<std::pair<pmix_rank_t, std::vector<uint8_t>>> ranks;
};
pmix_status_t build_job_pieces(const Server &server, const Namespace &ns, openpmix::Encoding encoding,
                               JobPieces *pieces_p);

// The answer to REQ: [nspace][KVAL...], each rank's data a pmix.pblob.
pmix_status_t build_job_data(const Server &server, const Namespace &ns, openpmix::Encoding encoding,
                             std::vector<uint8_t> *blob_p);

// The answer to a get of another job's data at rank WILDCARD (how
// OpenPMIx's client asks for a job it does not know yet, whatever the key):
// success, then a byte object [proc][KVAL...] for the job level and one per
// rank, as its gds/hash takes them in.
pmix_status_t build_namespace_answer(const Server &server, const Namespace &ns, openpmix::Encoding encoding,
                                     std::vector<uint8_t> *answer_p);

// The job-level key/values of `nspace` (nothing when it is unknown).
pmix_status_t pack_job_level(const Server &server, const std::string &nspace, openpmix::Writer &writer);

// Answers the peer's REQ with its job's data (an empty answer, which
// OpenPMIx's client reads as a failed init, when it cannot be built).
void send_job_data(Server &server, Peer &peer, OpenPmixDialect &dialect, uint32_t tag);

}  // namespace pmixpp::server

#endif
