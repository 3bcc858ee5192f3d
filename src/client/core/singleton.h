// A client started without a server (no PMIx server in the environment)
// runs as a singleton: a job of one process whose data is derived locally,
// as OpenPMIx does.
#ifndef PMIXPP_CLIENT_CORE_SINGLETON_H
#define PMIXPP_CLIENT_CORE_SINGLETON_H

#include <memory>
#include <string>

#include <pmix_common.h>

#include "common/store/store.h"

namespace pmixpp::client {

// "singleton.<host>.<pid>" unless PMIX_NAMESPACE names one.
std::string singleton_nspace(const std::string &hostname);

// Registers the one-process job `nspace` (rank 0 on `hostname`) in `store`
// with every derived key (job size 1, local rank 0, local peers "0", ...).
pmix_status_t register_singleton(const char *nspace, const std::string &hostname, const store::Store &store);

std::string local_hostname();

// A tool's own data (PMIx_tool_init): the singleton job above for nspace,
// and PMIX_HOSTNAME for `rank` when the server gave it another rank than 0.
// Lets PMIx_Get answer a tool's own keys locally, connected or not.
pmix_status_t register_tool_self(const char *nspace, pmix_rank_t rank, const std::string &hostname,
                                 const store::Store &store);

}  // namespace pmixpp::client

#endif
