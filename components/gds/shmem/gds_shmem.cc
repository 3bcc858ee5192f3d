// gds/shmem: a namespace's registered data lives once per node in a
// shared-memory segment that every local client maps read-only; the export a
// client receives only names the segment. Modex data stays in process memory.
#include "shmem_store.h"

#include <pmixpp/component.hpp>
#include <pmixpp/gds.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <new>

struct pmixpp_gds_store {
    explicit pmixpp_gds_store(std::string dir) : data(std::move(dir)) {}
    gds_shmem::ShmemStore data;
};

namespace {

using gds_shmem::ShmemStore;

std::atomic<const pmixpp_services_t *> g_services{nullptr};

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

std::string directory_hint(const pmix_info_t info[], size_t ninfo)
{
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (std::strncmp(info[i].key, PMIXPP_GDS_HINT_DIR, PMIX_MAX_KEYLEN) == 0 &&
            info[i].value.type == PMIX_STRING && info[i].value.data.string != nullptr) {
            return info[i].value.data.string;
        }
    }
    return {};
}

pmix_status_t store_create(const pmix_info_t info[], size_t ninfo, pmixpp_gds_store_t **store_p)
{
    if (store_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        *store_p = new pmixpp_gds_store_t(directory_hint(info, ninfo));
        return PMIX_SUCCESS;
    } catch (...) {
        return PMIX_ERR_NOMEM;
    }
}

void store_destroy(pmixpp_gds_store_t *store) { delete store; }

pmix_status_t store(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr, const pmix_info_t info[],
                    size_t ninfo)
{
    if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](ShmemStore &s) { return s.store(*addr, info, ninfo); });
}

pmix_status_t fetch(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr, const char *key,
                    pmix_value_t **value_p)
{
    if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](ShmemStore &s) { return s.fetch(*addr, key, value_p); });
}

pmix_status_t fetch_all(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr, pmix_info_t **info_p,
                        size_t *ninfo_p)
{
    if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](ShmemStore &s) { return s.fetch_all(*addr, info_p, ninfo_p); });
}

pmix_status_t lookup_node(pmixpp_gds_store_t *handle, const char *nspace, const char *hostname,
                          uint32_t *nodeid_p)
{
    return with_store(handle, [&](ShmemStore &s) { return s.lookup_node(nspace, hostname, nodeid_p); });
}

int has_nspace(pmixpp_gds_store_t *handle, const char *nspace)
{
    return handle != nullptr && handle->data.has_nspace(nspace) ? 1 : 0;
}

pmix_status_t store_modex(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank, pmix_scope_t scope,
                          const pmix_info_t info[], size_t ninfo)
{
    return with_store(handle, [&](ShmemStore &s) { return s.store_modex(nspace, rank, scope, info, ninfo); });
}

pmix_status_t fetch_modex(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                          pmix_scope_t visible_to, const char *key, pmix_value_t **value_p)
{
    return with_store(handle,
                      [&](ShmemStore &s) { return s.fetch_modex(nspace, rank, visible_to, key, value_p); });
}

pmix_status_t fetch_modex_all(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                              pmix_scope_t visible_to, pmix_info_t **info_p, size_t *ninfo_p)
{
    return with_store(handle, [&](ShmemStore &s) {
        return s.fetch_modex_all(nspace, rank, visible_to, info_p, ninfo_p);
    });
}

pmix_status_t remove_nspace(pmixpp_gds_store_t *handle, const char *nspace)
{
    return with_store(handle, [&](ShmemStore &s) { return s.remove_nspace(nspace); });
}

pmix_status_t export_nspace(pmixpp_gds_store_t *handle, const char *nspace, pmix_byte_object_t *blob_p)
{
    return with_store(handle, [&](ShmemStore &s) { return s.export_nspace(nspace, false, blob_p); });
}

pmix_status_t export_nspace_inline(pmixpp_gds_store_t *handle, const char *nspace, pmix_byte_object_t *blob_p)
{
    return with_store(handle, [&](ShmemStore &s) { return s.export_nspace(nspace, true, blob_p); });
}

pmix_status_t import_nspace(pmixpp_gds_store_t *handle, const char *nspace, const pmix_byte_object_t *blob)
{
    if (blob == nullptr) return PMIX_ERR_BAD_PARAM;
    return with_store(handle, [&](ShmemStore &s) { return s.import_nspace(nspace, *blob); });
}

constexpr pmixpp_gds_module_t shmem_module = {
    .struct_size = sizeof(pmixpp_gds_module_t),
    .name = "shmem",
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
    .export_nspace_inline = export_nspace_inline,
};

} // namespace

struct GdsShmem {
    static constexpr const char *version = "1.0.0";
    // Above hash: a node's job data lives once in memory. A client that
    // cannot map a segment falls back to a private copy (the core fetches
    // it), so preferring shmem never costs correctness.
    static constexpr int priority = 20;
    static constexpr uint16_t framework_major = PMIXPP_GDS_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_GDS_API_MINOR;

    static void open(pmixpp::sdk::Services &services) { g_services = services.raw(); }
    static const void *query(pmixpp::sdk::Services &services, int &)
    {
        g_services = services.raw();
        return &shmem_module;
    }
    static void close() { g_services = nullptr; }
};

PMIXPP_CXX_COMPONENT(gds, shmem, GdsShmem)

void gds_shmem::report(pmixpp_log_level_t level, const std::string &line)
{
    const pmixpp_services_t *services = g_services.load();
    if (services != nullptr) {
        pmixpp::sdk::Services(services, pmixpp_gds_shmem_component()).log(level, "%s", line.c_str());
    } else {
        std::fprintf(stderr, "pmixpp: gds/shmem: %s\n", line.c_str());
    }
}
