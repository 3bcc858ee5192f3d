// gds/hash: the default data store. Everything lives in hash tables in the
// process's own memory; a namespace travels to a local client as a packed
// byte object (export_nspace / import_nspace).
#include "hash_store.h"

#include <pmixpp/component.hpp>
#include <pmixpp/gds.h>

#include <new>

struct pmixpp_gds_store {
    gds_hash::HashStore data;
};

namespace {

using gds_hash::HashStore;

// Runs op on the store behind handle; no exception leaves the component.
template <class Op>
pmix_status_t with_store(pmixpp_gds_store_t *handle, Op &&op) noexcept
{
    if (handle == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        return op(handle->data);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    } catch (...) {
        return PMIX_ERROR;
    }
}

pmix_status_t store_create(const pmix_info_t *, size_t, pmixpp_gds_store_t **store_p)
{
    if (store_p == nullptr) return PMIX_ERR_BAD_PARAM;
    auto *store = new (std::nothrow) pmixpp_gds_store_t;
    if (store == nullptr) return PMIX_ERR_NOMEM;
    *store_p = store;
    return PMIX_SUCCESS;
}

void store_destroy(pmixpp_gds_store_t *store) { delete store; }

pmix_status_t store(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr,
                    const pmix_info_t info[], size_t ninfo)
{
    if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](HashStore &s) { return s.store(*addr, info, ninfo); });
}

pmix_status_t fetch(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr, const char *key,
                    pmix_value_t **value_p)
{
    if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](HashStore &s) { return s.fetch(*addr, key, value_p); });
}

pmix_status_t fetch_all(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr,
                        pmix_info_t **info_p, size_t *ninfo_p)
{
    if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](HashStore &s) { return s.fetch_all(*addr, info_p, ninfo_p); });
}

pmix_status_t lookup_node(pmixpp_gds_store_t *handle, const char *nspace, const char *hostname,
                          uint32_t *nodeid_p)
{
    return with_store(handle, [&](HashStore &s) { return s.lookup_node(nspace, hostname, nodeid_p); });
}

int has_nspace(pmixpp_gds_store_t *handle, const char *nspace)
{
    return handle != nullptr && handle->data.has_nspace(nspace) ? 1 : 0;
}

pmix_status_t store_modex(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                          pmix_scope_t scope, const pmix_info_t info[], size_t ninfo)
{
    return with_store(handle, [&](HashStore &s) { return s.store_modex(nspace, rank, scope, info, ninfo); });
}

pmix_status_t fetch_modex(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                          pmix_scope_t visible_to, const char *key, pmix_value_t **value_p)
{
    return with_store(handle,
                      [&](HashStore &s) { return s.fetch_modex(nspace, rank, visible_to, key, value_p); });
}

pmix_status_t fetch_modex_all(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                              pmix_scope_t visible_to, pmix_info_t **info_p, size_t *ninfo_p)
{
    return with_store(handle, [&](HashStore &s) {
        return s.fetch_modex_all(nspace, rank, visible_to, info_p, ninfo_p);
    });
}

pmix_status_t remove_nspace(pmixpp_gds_store_t *handle, const char *nspace)
{
    return with_store(handle, [&](HashStore &s) { return s.remove_nspace(nspace); });
}

pmix_status_t export_nspace(pmixpp_gds_store_t *handle, const char *nspace, pmix_byte_object_t *blob_p)
{
    return with_store(handle, [&](HashStore &s) { return s.export_nspace(nspace, blob_p); });
}

pmix_status_t import_nspace(pmixpp_gds_store_t *handle, const char *nspace, const pmix_byte_object_t *blob)
{
    if (blob == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](HashStore &s) { return s.import_nspace(nspace, *blob); });
}

constexpr pmixpp_gds_module_t hash_module = {
    .struct_size = sizeof(pmixpp_gds_module_t),
    .name = "hash",
    .store_create = store_create,
    .store_destroy = store_destroy,
    .store = store,
    .fetch = fetch,
    .fetch_all = fetch_all,
    .lookup_node = lookup_node,
    .has_nspace = has_nspace,
    .store_modex = store_modex,
    .fetch_modex = fetch_modex,
    .fetch_modex_all = fetch_modex_all,
    .remove_nspace = remove_nspace,
    .export_nspace = export_nspace,
    .import_nspace = import_nspace,
    .export_nspace_inline = nullptr, // the export carries the data itself
};

} // namespace

struct GdsHash {
    static constexpr const char *version = "1.0.0";
    // Always usable; a shared-memory store outranks it where it works.
    static constexpr int priority = 10;
    static constexpr uint16_t framework_major = PMIXPP_GDS_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_GDS_API_MINOR;

    static const void *query(pmixpp::sdk::Services &, int &) { return &hash_module; }
};

PMIXPP_CXX_COMPONENT(gds, hash, GdsHash)
