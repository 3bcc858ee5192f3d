// pmixrun's side of the server's life: start it (a session server with tool
// support, its session directories under --tmpdir), prepare the job with the
// network components (setup_application, then setup_local_support, waiting
// for each callback as the RFC requires before any fork), register it, and
// take it all down again.
#ifndef PMIXPP_BIN_PMIXRUN_SERVER_SETUP_H
#define PMIXPP_BIN_PMIXRUN_SERVER_SETUP_H

#include "host_module.h"
#include "job.h"
#include "options.h"

#include <string>

namespace pmixrun {

// PMIx_server_init; false with *why_p.
bool start_server(const Options &options, HostEvents *events, std::string *why_p);
// Keeps the server's URI for queries and writes it to options.report_uri
// ("-": stdout; none when empty). False with *why_p.
bool report_uri(const Options &options, std::string *why_p);
// setup_application, register_nspace, setup_local_support. False with *why_p.
bool prepare_job(const Job &job, std::string *why_p);
// Deregisters the job's processes and namespace (its session directory goes).
void release_job(const Job &job);
// Finalizes the server.
void stop_server();

}  // namespace pmixrun

#endif
