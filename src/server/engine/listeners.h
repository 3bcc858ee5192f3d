// The rendezvous sockets: one or more listeners per selected ptl (or just
// the best one with PMIX_SINGLE_LISTENER), accepted on the progress thread.
#ifndef PMIXPP_SERVER_ENGINE_LISTENERS_H
#define PMIXPP_SERVER_ENGINE_LISTENERS_H

#include "server/state/server.h"

#include <pmix_common.h>

#include <cstddef>

namespace pmixpp::server {

// Opens the listeners (progress thread). info is the host's init info; the
// resolved tmpdir is added when the host gave none. A transport that its
// settings disable is skipped; one that fails is skipped with a warning.
pmix_status_t open_listeners(Server &server, const pmix_info_t info[], std::size_t ninfo);

// Out of descriptors (EMFILE/ENFILE), a listener stops accepting for 100 ms
// or until a peer goes, instead of spinning on the connection it cannot
// take; these resume it (progress thread).
void resume_listener(Server &server, Listener &listener);
void resume_listeners(Server &server);

// Stops accepting and removes the sockets (progress thread).
void close_listeners(Server &server);

}  // namespace pmixpp::server

#endif
