// The output handlers of PMIx_IOF_pull in this process: each local id (what
// the caller got) maps to the server's registration id, the caller's
// callback and the formatting it asked for. IofData notifications are
// dispatched here on the progress thread. Any thread may add or remove.
#ifndef PMIXPP_CLIENT_CORE_IOF_HANDLERS_H
#define PMIXPP_CLIENT_CORE_IOF_HANDLERS_H

#include <pmix_tool.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/iof/format.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

// Key of a uint64 info handed to a pull's callback with a chunk when the
// server dropped output for it since the previous chunk (a tool that did
// not keep up): how many bytes. Outside the reserved "pmix." prefix.
inline constexpr const char *kIofDroppedKey = "pmixpp.iof.dropped";

// A local id (>= 0, fits pmix_status_t) for a handler registered at the
// server as server_id.
std::size_t add_iof_handler(uint64_t server_id, pmix_iof_cbfunc_t cbfunc, const iof::Format &format);
// The server id of local id, which is forgotten; false when unknown.
bool remove_iof_handler(std::size_t local_id, uint64_t *server_id_p);
// The server id of local id, which stays; false when unknown.
bool find_iof_handler(std::size_t local_id, uint64_t *server_id_p);

// Progress thread: runs the handler the chunk is for (dropped silently when
// its pull was deregistered meanwhile).
void deliver_iof(const wire::IofData &data);

}  // namespace pmixpp::client

#endif
