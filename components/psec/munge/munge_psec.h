// psec/munge internals.
#ifndef PMIXPP_COMPONENTS_PSEC_MUNGE_H
#define PMIXPP_COMPONENTS_PSEC_MUNGE_H

#include <pmixpp/component.hpp>
#include <pmixpp/psec.h>

#include <string>

namespace pmixpp::psec::munge {

// Remembered at open: the core's services (for logging from module calls)
// and the munged socket chosen by PMIX_MCA_psec_munge_socket ("" = libmunge's).
void remember(const sdk::Services &services, const pmixpp_component_t *self);
void forget();
[[gnu::format(printf, 2, 3)]] void log(pmixpp_log_level_t level, const char *fmt, ...);

// True when munged answers; otherwise *problem_p says where and why not.
bool daemon_reachable(std::string *problem_p);

pmix_status_t create_credential(pmix_byte_object_t *cred_p);
pmix_status_t validate_credential(const pmixpp_peer_identity_t *kernel, const pmix_byte_object_t *cred, uid_t *uid_p,
                                  gid_t *gid_p);
// The same check without a connection to compare with.
pmix_status_t validate_portable_credential(const pmix_byte_object_t *cred, uid_t *uid_p, gid_t *gid_p);

}  // namespace pmixpp::psec::munge

#endif
