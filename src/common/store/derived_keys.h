// Per-proc keys that follow from the rank and from job, app and node data.
// Registration stores them only where they cannot be derived (the host gave
// its own value, or the job's applications are not one block of ranks from
// 0), so a million-proc job keeps a few values per proc instead of eight;
// the Store facade answers the rest here, for the server and for clients
// alike (same data, same answers):
//
//   PMIX_RANK         the rank itself
//   PMIX_GLOBAL_RANK  the job's PMIX_NPROC_OFFSET + rank
//   PMIX_APPNUM       0, in a job of one application
//   PMIX_APP_RANK     the rank, in a job of one application
//   PMIX_HOSTNAME     the PMIX_HOSTNAME of the proc's node (its PMIX_NODEID)
//
// Only for ranks below the job's PMIX_JOB_SIZE: other ranks are not procs
// of the job.
#ifndef PMIXPP_COMMON_STORE_DERIVED_KEYS_H
#define PMIXPP_COMMON_STORE_DERIVED_KEYS_H

#include "common/store/store.h"

#include <pmix_common.h>
#include <pmixpp/gds.h>

#include <string_view>

namespace pmixpp::store {

// True for the keys listed above.
bool is_derived_proc_key(std::string_view key);

// The derived value of `key` for (nspace, rank) into *value_p (an empty
// pmix_value_t the caller destructs). PMIX_ERR_NOT_FOUND when the key is not
// derivable there.
pmix_status_t derive_proc_key(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace,
                              pmix_rank_t rank, std::string_view key, pmix_value_t *value_p);

// Adds to *info_p (what the module holds for the proc, possibly empty) every
// derivable key it lacks. PMIX_ERR_NOT_FOUND when the result is empty.
pmix_status_t add_derived_proc_keys(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace,
                                    pmix_rank_t rank, InfoArray *info_p);

}  // namespace pmixpp::store

#endif
