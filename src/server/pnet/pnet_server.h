// Where the server meets its pnet components (the RFC "network support"):
// every active component, best first, is called at each step of a job's
// life on this node. Progress thread only, like everything in Server, but
// for setup_fork (any thread, also a forked child: fork/fork_state.h).
//
//   setup_application   PMIx_server_setup_application (setup_calls.cc)
//   setup_local_support PMIx_server_setup_local_support (setup_calls.cc);
//                       until it completes, setup_fork of that job fails
//   setup_fork          per child, after the job's environment directives
//   child_finalized     a local child ended: its connection was lost (exit,
//                       kill, finalize) or the host deregistered it
//   local_app_finalized the last local child of an application ended
//   deregister_nspace   the namespace was deregistered (or the server ends)
// Each cleanup runs exactly once; deregistering a namespace first ends
// whatever of it had not ended yet, in that order.
#ifndef PMIXPP_SERVER_PNET_PNET_SERVER_H
#define PMIXPP_SERVER_PNET_PNET_SERVER_H

#include <pmix_common.h>
#include <pmixpp/pnet.h>

#include "framework/src/selected_modules.h"

#include <cstddef>
#include <string>

namespace pmixpp::server {
class Server;
struct Namespace;
struct ForkView;
}  // namespace pmixpp::server

namespace pmixpp::server::pnet {

// The module table of a selected pnet component, when it holds `member`
// (an older, shorter table does not).
#define PMIXPP_PNET_HAS(module, member)                                                                                \
    ((module) != nullptr &&                                                                                            \
     (module)->struct_size >= offsetof(pmixpp_pnet_module_t, member) + sizeof((module)->member) &&                     \
     (module)->member != nullptr)

// lifecycle.cc: every active pnet component, best first (none is fine).
pmix_status_t select_components(Server &server);

// The module table of one selected pnet component.
const pmixpp_pnet_module_t *module_of(const framework::SelectedModule &selected);
// One warning line: pnet/<component>: <what> failed (<status>); <consequence>.
void warn_failed(const std::string &component, const char *what, pmix_status_t rc, const char *consequence);

// PMIx_server_setup_fork, on the caller's thread: the job's directives,
// then every component's setup_fork. PMIX_ERR_WOULD_BLOCK (and a line saying
// why) while the job's setup_local_support has not completed: the host must
// wait for it.
pmix_status_t setup_child_env(const ForkView &view, const pmix_proc_t &proc, char ***env_p);

// peer_lifecycle.cc and registration.cc: a local child ended.
void on_child_ended(Server &server, const pmix_proc_t &proc);
// registration.cc: PMIx_server_deregister_nspace, before the namespace goes.
void on_nspace_deregistered(Server &server, const std::string &nspace);
// lifecycle.cc: PMIx_server_finalize ends every namespace still here.
void on_finalize(Server &server);

}  // namespace pmixpp::server::pnet

#endif
