// PMIx_Get resolution over a Store: given (target proc, key, qualifiers)
// decide which level(s) of the registered data to look in, and in which
// order, the way OpenPMIx clients observe it:
//
//  - rank PMIX_RANK_WILDCARD asks about the job: job level, unless a
//    qualifier names another level: PMIX_SESSION_INFO / PMIX_SESSION_ID ->
//    session, PMIX_APP_INFO / PMIX_APPNUM -> app, PMIX_NODE_INFO /
//    PMIX_NODEID / PMIX_HOSTNAME -> node. A key that only exists at one
//    level (PMIX_LOCAL_SIZE is a node key, PMIX_APP_SIZE an app key,
//    PMIX_UNIV_SIZE a session key) is looked up there even without a
//    qualifier, for the caller's own node / app / session.
//  - a specific rank: that proc's registered data, then its modex data
//    (visible to request.modex_visibility), then - for keys that belong to
//    another level - the level of THAT proc (its node, its app), then the job
//    level (OpenPMIx answers job keys asked of any rank), then the session.
//
// The caller's own identity (request.self) gives "my node" and "my app" when
// no qualifier does; without it node 0 / app 0 ... are not guessed:
// PMIX_ERR_NOT_FOUND.
//
// Depends on nothing of the server: the client uses it on its own store.
#ifndef PMIXPP_COMMON_STORE_RESOLVER_H
#define PMIXPP_COMMON_STORE_RESOLVER_H

#include "common/store/store.h"

#include <pmix_common.h>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace pmixpp::store {

struct GetRequest {
    const pmix_proc_t *target = nullptr;      // required
    const char *key = nullptr;                // required
    const pmix_info_t *qualifiers = nullptr;  // PMIx_Get's info array
    std::size_t nqualifiers = 0;
    const pmix_proc_t *self = nullptr;            // the asking process, may be NULL (server)
    pmix_scope_t modex_visibility = PMIX_GLOBAL;  // see gds.h fetch_modex
};

// The level a key naturally belongs to, from the attribute's definition;
// std::nullopt for keys of no fixed level (job keys, user keys).
std::optional<Level> natural_level(std::string_view key);

// One place to look.
struct Address {
    Level level;
    uint32_t id;
    bool modex = false;  // look in (nspace, id=rank) modex data instead
};

// The addresses to try, in order, for `request`; entries whose id depends on
// the store (a proc's node) are resolved against it. PMIX_ERR_BAD_PARAM for a
// missing target/key or a qualifier of the wrong type (e.g. PMIX_NODEID not
// uint32), PMIX_ERR_NOT_FOUND for a PMIX_HOSTNAME qualifier naming no node.
pmix_status_t plan(const Store &store, const GetRequest &request, std::vector<Address> *plan_p);

// plan() and the first hit. PMIX_ERR_NOT_FOUND when nothing matches.
pmix_status_t get(const Store &store, const GetRequest &request, ValuePtr *value_p);

}  // namespace pmixpp::store

#endif
