// gds/hash: the data store that is always usable. Selection prefers
// gds/shmem (priority 20 over 10); hash serves where shmem is not installed
// or PMIX_MCA_gds leaves it out (PMIX_MCA_gds=hash). Everything lives in
// hash tables in the process's own memory; a namespace travels to a local
// client as a packed byte object (export_nspace / import_nspace).
#include "hash_store.h"

#include <pmixpp/component.hpp>
#include <pmixpp/gds.h>

namespace {

constexpr pmixpp_gds_module_t hash_module = gds_shared::ModuleGlue<gds_hash::HashStore>::table("hash");

}  // namespace

struct GdsHash {
    static constexpr const char *version = "1.0.0";
    // Always usable; a shared-memory store outranks it where it works.
    static constexpr int priority = 10;
    static constexpr uint16_t framework_major = PMIXPP_GDS_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_GDS_API_MINOR;

    static const void *query(pmixpp::sdk::Services &, int &) { return &hash_module; }
};

PMIXPP_CXX_COMPONENT(gds, hash, GdsHash)
