// Output the host hands the server (PMIx_server_IOF_deliver) goes to every
// peer whose pull wants it, as IofData notifications. A puller whose
// connection already holds more than the flow limits' high water is not
// sent the chunk: the bytes are counted as dropped on its pull and the
// count rides on the next chunk that gets through (and a verbose log line
// names the puller). When no chunk follows (the output stopped while the
// puller was behind), an empty chunk carries the count once the puller has
// room again. So a tool that stops reading costs the server at most
// its high water, and the host is never held back. Progress thread only.
#ifndef PMIXPP_SERVER_IOF_DELIVER_H
#define PMIXPP_SERVER_IOF_DELIVER_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>

#include "common/wire/messages.h"
#include "server/state/server.h"
#include "server/iof/iof_registry.h"

namespace pmixpp::server::iof {

// One chunk of any size (split into kMaxIofChunk pieces); also cached.
void deliver(Server &server, const pmix_proc_t &source, uint16_t channel, const uint8_t *data, std::size_t size,
             const wire::InfoArray &info);

// `bytes` the host delivered were lost before they reached the progress
// thread (too much was waiting): every active pull may have missed them and
// hears the count with its next chunk; one verbose line says so.
void dropped_before_delivery(Server &server, uint64_t bytes);

// Sends a new pull the cached output it wants, at most `limit` bytes per
// stream (the newest ones).
void replay_cache(Server &server, Pull &pull, std::size_t limit);

}  // namespace pmixpp::server::iof

#endif
