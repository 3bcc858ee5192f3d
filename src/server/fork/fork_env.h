// The environment PMIx_server_setup_fork gives a child: who it is, how to
// reach and authenticate to this server, and which modules to use. A child
// may load our library or OpenPMIx's (a container's, Open MPI's bundled
// one), so both find their way: OpenPMIx's names lead to our tcp listener,
// which speaks its protocol too (server/openpmix/), and our own client reads
// the PMIXPP_ names first, keeping usock and our store.
//   PMIX_SERVER_NSPACE, PMIX_SERVER_RANK,
//   PMIXPP_SERVER_URIS (every URI of ours, best first),
//   PMIX_SERVER_URI41/4/3/2/21 = "<server nspace>.<server rank>;<tcp uri>"
//     (only with a tcp listener: OpenPMIx 4 speaks nothing else),
//   PMIX_SECURITY_MODE (psec names, best first),
//   PMIXPP_GDS_MODULE (our store), PMIX_GDS_MODULE=hash and
//   PMIX_BFROP_BUFFER_TYPE (for OpenPMIx's clients),
//   PMIX_PTL_MODULE (transports listening, best first),
//   PMIX_SERVER_TMPDIR, PMIX_SYSTEM_TMPDIR, PMIX_VERSION,
//   PMIXPP_SERVER_COMPONENT_PATH (where the server's components are),
//   PMIX_NAMESPACE, PMIX_RANK, PMIX_HOSTNAME.
#ifndef PMIXPP_SERVER_FORK_FORK_ENV_H
#define PMIXPP_SERVER_FORK_FORK_ENV_H

#include "server/state/server.h"

#include <string>
#include <utility>
#include <vector>

namespace pmixpp::server {

using EnvList = std::vector<std::pair<std::string, std::string>>;

// The entries every child of this server gets (all but the last three above).
EnvList fork_environment(const Server &server);
// The entries of one child: PMIX_NAMESPACE, PMIX_RANK and PMIX_HOSTNAME (this
// node's name as the child's job knows it).
EnvList child_environment(const pmix_proc_t &proc, const std::string &hostname);

// Sets NAME=value in a NULL-terminated, malloc'ed argv-style array,
// replacing an existing NAME. PMIX_ERR_NOMEM leaves *env_p valid.
pmix_status_t env_set(char ***env_p, const std::string &name, const std::string &value);
// The value of NAME in such an array, or nullptr.
const char *env_get(char *const *env, const std::string &name);
// Removes NAME from such an array (nothing when absent).
void env_unset(char **env, const std::string &name);

}  // namespace pmixpp::server

#endif
