// Credentials made and checked by this process's own psec modules. OpenPMIx
// uses its psec when no host can answer: a singleton, a tool without a
// server, a server process whose host module has no get_credential /
// validate_credential. pmixpp also does so for a client or tool whose
// server's host has none (the server answers PMIX_ERR_NOT_SUPPORTED, which
// OpenPMIx hands to the caller): the credential is then made by the caller
// itself, so it vouches for the caller's user, never for the server's.
//
// Any thread, including the progress thread (munge asks munged over a local
// socket: a short wait).
#ifndef PMIXPP_CLIENT_CORE_LOCAL_CREDENTIALS_H
#define PMIXPP_CLIENT_CORE_LOCAL_CREDENTIALS_H

#include <pmix_common.h>

#include "common/wire/messages.h"

namespace pmixpp::client {

// A credential from the first psec module that makes portable ones, in
// priority order, or in the order PMIX_CRED_TYPE ("munge,native") names them.
// reply_p->info: PMIX_CRED_TYPE, the module's name.
void make_local_credential(const pmix_info_t directives[], size_t ndirs, wire::GetCredentialReply *reply_p);

// Whose credential `credential` is, by the first module (same order) that
// vouches for it. As OpenPMIx's psec modules do, only this process's own
// effective uid and gid pass; another user's credential is
// PMIX_ERR_INVALID_CRED. reply_p->info: PMIX_CRED_TYPE, PMIX_USERID, PMIX_GRPID.
void check_local_credential(const pmix_byte_object_t &credential, const pmix_info_t directives[], size_t ndirs,
                            wire::InfoReply *reply_p);

}  // namespace pmixpp::client

#endif
