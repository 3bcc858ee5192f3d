// pmixrun's name service: what processes publish (PMIx_Publish) for others
// to look up (PMIx_Lookup), the host side of MPI_Publish_name /
// MPI_Lookup_name. Runs in the server's upcalls (its progress thread only).
//
//   ranges       PMIX_RANGE: PMIX_RANGE_PROC_LOCAL (the publisher only),
//                PMIX_RANGE_NAMESPACE / _LOCAL (its namespace), anything
//                else (session, global: default) every job of this pmixrun
//   persistence  PMIX_PERSISTENCE: PMIX_PERSIST_FIRST_READ (gone after one
//                lookup), PMIX_PERSIST_PROC / _APP (gone when the publisher
//                finalizes), otherwise until pmixrun ends
//   duplicates   a key already published in an overlapping range, or twice
//                in one call: PMIX_ERR_DUPLICATE_KEY
//   lookups      every key found: PMIX_SUCCESS with them; otherwise
//                PMIX_ERR_NOT_FOUND, or with PMIX_WAIT the lookup waits until
//                every key is published (the client's PMIX_TIMEOUT bounds it)
#ifndef PMIXPP_BIN_PMIXRUN_NAME_SERVICE_H
#define PMIXPP_BIN_PMIXRUN_NAME_SERVICE_H

#include <pmix_server.h>

namespace pmixrun {

pmix_status_t ns_publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                         void *cbdata);
pmix_status_t ns_lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                        pmix_lookup_cbfunc_t cbfunc, void *cbdata);
pmix_status_t ns_unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                           pmix_op_cbfunc_t cbfunc, void *cbdata);
// A process finalized: its process-lifetime entries go, and a lookup it
// still waits for is answered PMIX_ERR_LOST_CONNECTION.
void ns_proc_finalized(const pmix_proc_t *proc);

}  // namespace pmixrun

#endif
