// What a client answers from its own store: PMIx_Get's local path (job data
// from the Welcome, own puts, data cached from fences and earlier gets), and
// caching what the server sent. Any thread (the store is thread-safe).
#ifndef PMIXPP_CLIENT_CORE_LOCAL_DATA_H
#define PMIXPP_CLIENT_CORE_LOCAL_DATA_H

#include <pmix_common.h>

#include "client/core/session.h"
#include "common/store/store.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

struct Lookup {
    pmix_proc_t target{};               // nspace filled; rank may be WILDCARD/UNDEF
    const char *key = nullptr;          // nullptr: everything about target
    const pmix_info_t *info = nullptr;  // PMIx_Get's qualifiers and directives
    size_t ninfo = 0;
    pmix_scope_t visibility = PMIX_GLOBAL;  // PMIX_DATA_SCOPE
};

// The value, or for key == nullptr a PMIX_DATA_ARRAY of PMIX_INFO holding
// every key known for the target. PMIX_ERR_NOT_FOUND when absent.
pmix_status_t lookup_local(const Session &session, const Lookup &lookup, store::ValuePtr *value_p);

// Whether a local miss should go to the server: not for a singleton, not
// with PMIX_OPTIONAL, not for our own data, not for a reserved "pmix" key of
// our own job (the job data we got at Init is complete).
bool should_ask_server(const Session &session, const Lookup &lookup);

// Stores what the server returned about target (job level for
// PMIX_RANK_WILDCARD, else as that proc's data).
void cache_reply(const Session &session, const pmix_proc_t &target, const wire::InfoArray &data);

// Whether the store holds all of proc's modex data (a collecting fence or
// an everything-Get brought it), so PMIx_Get(proc, NULL key) needs no
// server. Any thread.
bool has_collected(const Session &session, const pmix_proc_t &proc);
void mark_collected(const Session &session, const pmix_proc_t &proc);
// A collecting fence over the whole namespace: every rank of it counts as
// collected (a rank that put nothing has no modex data to miss).
void mark_nspace_collected(const Session &session, const char *nspace);
// Nothing of nspace counts as collected any more (its data kept here was
// replaced by shared fence data that may cover fewer ranks).
void forget_collected(const Session &session, const char *nspace);

// The answer to `lookup` from a GetReply's data.
pmix_status_t answer_from(const wire::InfoArray &data, const char *key, store::ValuePtr *value_p);

// A new malloc'ed value holding a PMIX_DATA_ARRAY of copies of info[0..n).
pmix_status_t info_array_value(const pmix_info_t *info, size_t n, store::ValuePtr *value_p);

// A new malloc'ed copy of src.
pmix_status_t copy_value(const pmix_value_t &src, store::ValuePtr *value_p);

}  // namespace pmixpp::client

#endif
