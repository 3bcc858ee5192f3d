// What every gds component of this tree shares (header-only, compiled into
// each component's own .so, like components/ptl/shared): the C module table
// generated from a C++ store class, with no exception crossing the boundary,
// and the argument checks every store makes.
//
// A Store class provides the operations of pmixpp_gds_module_t as members
// (store, fetch, fetch_all, lookup_node, has_nspace, store_modex,
// fetch_modex, fetch_modex_all, remove_nspace, export_nspace,
// import_nspace), optionally export_nspace_inline and the pair
// share_modex/import_modex, and a constructor taking
// the store_create hints (const pmix_info_t[], size_t) or none.
#ifndef PMIXPP_COMPONENTS_GDS_SHARED_GDS_MODULE_HPP
#define PMIXPP_COMPONENTS_GDS_SHARED_GDS_MODULE_HPP

#include <pmixpp/gds.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

namespace gds_shared {

inline bool valid_nspace(const char *nspace)
{
    return nspace != nullptr && nspace[0] != '\0' && strnlen(nspace, PMIX_MAX_NSLEN + 1) <= PMIX_MAX_NSLEN;
}

inline bool valid_key(const char *key)
{
    return key != nullptr && key[0] != '\0' && strnlen(key, PMIX_MAX_KEYLEN + 1) <= PMIX_MAX_KEYLEN;
}

// A level as an integer (from a wire buffer or a file) before it is
// converted to pmixpp_gds_level_t.
inline bool valid_level(uint32_t level)
{
    return level < PMIXPP_GDS_NUM_LEVELS;
}

// The level a caller stored in an address. The caller may be C, where any
// int fits the enum; in C++ reading an out-of-range value through the enum
// type is undefined, so the bytes are checked as the underlying integer.
inline bool valid_level(const pmixpp_gds_address_t &addr)
{
    std::underlying_type_t<pmixpp_gds_level_t> raw;
    static_assert(sizeof raw == sizeof addr.level);
    std::memcpy(&raw, &addr.level, sizeof raw);
    // A negative value turns into a large unsigned one, refused as well.
    const auto as_unsigned = static_cast<std::make_unsigned_t<decltype(raw)>>(raw);
    return as_unsigned < PMIXPP_GDS_NUM_LEVELS;
}

// True when an entry put with `scope` may be seen by a requester in
// `visible_to` (the rules of fetch_modex in gds.h).
inline bool visible(pmix_scope_t scope, pmix_scope_t visible_to)
{
    switch (visible_to) {
    case PMIX_LOCAL: return scope == PMIX_LOCAL || scope == PMIX_GLOBAL || scope == PMIX_INTERNAL;
    case PMIX_REMOTE: return scope == PMIX_REMOTE || scope == PMIX_GLOBAL;
    default: return true;
    }
}

template <class Store> class ModuleGlue {
public:
    // The module table; `name` must outlive it (a string literal).
    static constexpr pmixpp_gds_module_t table(const char *name)
    {
        pmixpp_gds_module_t module{};
        module.struct_size = sizeof(pmixpp_gds_module_t);
        module.name = name;
        module.store_create = store_create;
        module.store_destroy = store_destroy;
        module.store = store;
        module.fetch = fetch;
        module.fetch_all = fetch_all;
        module.lookup_node = lookup_node;
        module.has_nspace = has_nspace;
        module.store_modex = store_modex;
        module.fetch_modex = fetch_modex;
        module.fetch_modex_all = fetch_modex_all;
        module.remove_nspace = remove_nspace;
        module.export_nspace = export_nspace;
        module.import_nspace = import_nspace;
        if constexpr (kHasInlineExport) module.export_nspace_inline = export_nspace_inline;
        if constexpr (kSharesModex) {
            module.share_modex = share_modex;
            module.import_modex = import_modex;
        }
        return module;
    }

private:
    static constexpr bool kHasInlineExport = requires(Store & s, const char *n, pmix_byte_object_t *b)
    {
        s.export_nspace_inline(n, b);
    };
    static constexpr bool kSharesModex = requires(Store & s, const char *n, const pmixpp_gds_proc_data_t *p,
                                                  const pmix_byte_object_t &c, pmix_byte_object_t *b)
    {
        s.share_modex(n, p, size_t{0}, b);
        s.import_modex(n, c, pmix_rank_t{0});
    };

    // pmixpp_gds_store_t is opaque to the core: here it is a Store.
    static Store *of(pmixpp_gds_store_t *handle) { return reinterpret_cast<Store *>(handle); }

    template <class Op> static pmix_status_t with_store(pmixpp_gds_store_t *handle, Op &&op) noexcept
    {
        if (handle == nullptr) return PMIX_ERR_BAD_PARAM;
        try {
            return op(*of(handle));
        } catch (const std::bad_alloc &) {
            return PMIX_ERR_NOMEM;
        } catch (...) {
            return PMIX_ERROR;
        }
    }

    static pmix_status_t store_create(const pmix_info_t info[], size_t ninfo, pmixpp_gds_store_t **store_p)
    {
        if (store_p == nullptr) return PMIX_ERR_BAD_PARAM;
        try {
            Store *created = nullptr;
            if constexpr (std::is_constructible_v<Store, const pmix_info_t *, size_t>) {
                created = new Store(info, ninfo);
            } else {
                created = new Store();
            }
            *store_p = reinterpret_cast<pmixpp_gds_store_t *>(created);
            return PMIX_SUCCESS;
        } catch (...) {
            return PMIX_ERR_NOMEM;
        }
    }

    static void store_destroy(pmixpp_gds_store_t *handle) { delete of(handle); }

    static pmix_status_t store(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr, const pmix_info_t info[],
                               size_t ninfo)
    {
        if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
        return with_store(handle, [&](Store &s) { return s.store(*addr, info, ninfo); });
    }

    static pmix_status_t fetch(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr, const char *key,
                               pmix_value_t **value_p)
    {
        if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
        return with_store(handle, [&](Store &s) { return s.fetch(*addr, key, value_p); });
    }

    static pmix_status_t fetch_all(pmixpp_gds_store_t *handle, const pmixpp_gds_address_t *addr, pmix_info_t **info_p,
                                   size_t *ninfo_p)
    {
        if (addr == nullptr) return PMIX_ERR_BAD_PARAM;
        return with_store(handle, [&](Store &s) { return s.fetch_all(*addr, info_p, ninfo_p); });
    }

    static pmix_status_t lookup_node(pmixpp_gds_store_t *handle, const char *nspace, const char *hostname,
                                     uint32_t *nodeid_p)
    {
        return with_store(handle, [&](Store &s) { return s.lookup_node(nspace, hostname, nodeid_p); });
    }

    static int has_nspace(pmixpp_gds_store_t *handle, const char *nspace)
    {
        return handle != nullptr && of(handle)->has_nspace(nspace) ? 1 : 0;
    }

    static pmix_status_t store_modex(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                                     pmix_scope_t scope, const pmix_info_t info[], size_t ninfo)
    {
        return with_store(handle, [&](Store &s) { return s.store_modex(nspace, rank, scope, info, ninfo); });
    }

    static pmix_status_t fetch_modex(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                                     pmix_scope_t visible_to, const char *key, pmix_value_t **value_p)
    {
        return with_store(handle, [&](Store &s) { return s.fetch_modex(nspace, rank, visible_to, key, value_p); });
    }

    static pmix_status_t fetch_modex_all(pmixpp_gds_store_t *handle, const char *nspace, pmix_rank_t rank,
                                         pmix_scope_t visible_to, pmix_info_t **info_p, size_t *ninfo_p)
    {
        return with_store(handle,
                          [&](Store &s) { return s.fetch_modex_all(nspace, rank, visible_to, info_p, ninfo_p); });
    }

    static pmix_status_t remove_nspace(pmixpp_gds_store_t *handle, const char *nspace)
    {
        return with_store(handle, [&](Store &s) { return s.remove_nspace(nspace); });
    }

    static pmix_status_t export_nspace(pmixpp_gds_store_t *handle, const char *nspace, pmix_byte_object_t *blob_p)
    {
        return with_store(handle, [&](Store &s) { return s.export_nspace(nspace, blob_p); });
    }

    static pmix_status_t export_nspace_inline(pmixpp_gds_store_t *handle, const char *nspace,
                                              pmix_byte_object_t *blob_p)
    {
        return with_store(handle, [&](Store &s) { return s.export_nspace_inline(nspace, blob_p); });
    }

    static pmix_status_t import_nspace(pmixpp_gds_store_t *handle, const char *nspace, const pmix_byte_object_t *blob)
    {
        if (blob == nullptr) return PMIX_ERR_BAD_PARAM;
        return with_store(handle, [&](Store &s) { return s.import_nspace(nspace, *blob); });
    }

    static pmix_status_t share_modex(pmixpp_gds_store_t *handle, const char *nspace,
                                     const pmixpp_gds_proc_data_t procs[], size_t nprocs, pmix_byte_object_t *blob_p)
    {
        if ((procs == nullptr && nprocs > 0) || blob_p == nullptr) return PMIX_ERR_BAD_PARAM;
        return with_store(handle, [&](Store &s) { return s.share_modex(nspace, procs, nprocs, blob_p); });
    }

    static pmix_status_t import_modex(pmixpp_gds_store_t *handle, const char *nspace, const pmix_byte_object_t *blob,
                                      pmix_rank_t keep)
    {
        if (blob == nullptr) return PMIX_ERR_BAD_PARAM;
        return with_store(handle, [&](Store &s) { return s.import_modex(nspace, *blob, keep); });
    }
};

}  // namespace gds_shared

#endif
