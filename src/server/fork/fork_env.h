// The environment PMIx_server_setup_fork gives a child: who it is, how to
// reach and authenticate to this server, and which modules to use. Names
// are OpenPMIx's (Open MPI detects a PMIx launch by them) plus our
// PMIXPP_SERVER_URIS with every URI in priority order:
//   PMIX_SERVER_NSPACE, PMIX_SERVER_RANK,
//   PMIX_SERVER_URI41/4/3/2/21 = "<server nspace>.<server rank>;<best uri>",
//   PMIXPP_SERVER_URIS, PMIX_SECURITY_MODE (psec names, best first),
//   PMIX_GDS_MODULE, PMIX_PTL_MODULE (transports listening, best first),
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
