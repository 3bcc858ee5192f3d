// The requests a host carries out, on a link to an OpenPMIx server: query,
// log, publish, lookup, unpublish, allocation, job control, monitor,
// spawn, connect and disconnect, each as OpenPMIx's client packs it, and
// their answers as our replies. The job data OpenPMIx's server adds to a
// spawn's and a connect's answer is not kept: a get asks the server for it.
// Pure data; any thread.
#ifndef PMIXPP_CLIENT_OPENPMIX_HOST_REQUESTS_H
#define PMIXPP_CLIENT_OPENPMIX_HOST_REQUESTS_H

#include <pmix_common.h>

#include <span>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

bool is_host_command(wire::Command command);

// Our request payload of `command`, sent by `self`, as OpenPMIx's command.
pmix_status_t pack_host_request(wire::Command command, std::span<const uint8_t> ours, const pmix_proc_t &self,
                                openpmix::Writer &writer);

// OpenPMIx's answer after its status (read already) as our reply.
pmix_status_t host_reply(wire::Command command, pmix_status_t status, openpmix::Reader &reader, wire::Bytes *ours_p);

// Our procs, none meaning the caller's whole namespace, as OpenPMIx's
// [n][procs], which always names at least one (a fence's, a job control's).
pmix_status_t pack_procs_or_own_job(openpmix::Writer &writer, const std::vector<pmix_proc_t> &procs,
                                    const pmix_proc_t &self);

}  // namespace pmixpp::client

#endif
