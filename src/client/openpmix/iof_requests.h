// Output and input on a link to an OpenPMIx server: our IOF pull,
// deregister and push as its commands 22, 29 and 23, and the output it
// sends on tag 2 as our IofData. OpenPMIx names a pull twice: the id the
// puller gives it (echoed in every output message, our reply's id here)
// and the id the server gives it (which a deregistration names); the
// dialect keeps the second for the first. Pure data; any thread.
#ifndef PMIXPP_CLIENT_OPENPMIX_IOF_REQUESTS_H
#define PMIXPP_CLIENT_OPENPMIX_IOF_REQUESTS_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

bool is_iof_command(wire::Command command);

// [cmd][nprocs][procs][ndirs][dirs][channel][local_id]
pmix_status_t pack_iof_pull(std::span<const uint8_t> ours, uint64_t local_id, openpmix::Writer &writer);
// [cmd][ndirs][dirs][the server's id of the pull]
pmix_status_t pack_iof_deregister(const wire::IofDeregisterRequest &request, std::size_t server_id,
                                  openpmix::Writer &writer);
// [cmd][ntargets][targets][ndirs][dirs][data]; the end of input is an
// empty byte object with PMIX_IOF_COMPLETE among the directives.
pmix_status_t pack_iof_push(std::span<const uint8_t> ours, openpmix::Writer &writer);

// A pull's answer after its status: the server's id on success.
pmix_status_t read_pull_answer(pmix_status_t status, openpmix::Reader &reader, std::size_t *server_id_p);

// Tag 2: [source][channel][local id][ninfo][infos][data].
pmix_status_t read_output(openpmix::Encoding encoding, std::span<const uint8_t> theirs, wire::IofData *data_p);

}  // namespace pmixpp::client

#endif
