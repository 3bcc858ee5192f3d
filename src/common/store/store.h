// The library's view of one gds store: a C++ facade over the module table of
// the selected gds component (framework/include/pmixpp/gds.h), used by the
// server (registered job data, modex) and the client (imported job data,
// cached modex) alike. Stateless apart from the store handle, so it adds no
// locking of its own: the component's operations are thread-safe.
//
// The caller picks the module (framework::select("gds", ...) in the roles; a
// client takes the one its server named in PMIX_GDS_MODULE).
#ifndef PMIXPP_COMMON_STORE_STORE_H
#define PMIXPP_COMMON_STORE_STORE_H

#include <pmix_common.h>
#include <pmixpp/gds.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace pmixpp::store {

using Level = pmixpp_gds_level_t;

// Owns a malloc'ed pmix_value_t handed out by a fetch.
struct ValueDeleter {
    void operator()(pmix_value_t *value) const noexcept;
};
using ValuePtr = std::unique_ptr<pmix_value_t, ValueDeleter>;

// Owns a malloc'ed info array handed out by a fetch_all.
class InfoArray {
public:
    InfoArray() = default;
    InfoArray(pmix_info_t *info, std::size_t size) : info_(info), size_(size) {}
    InfoArray(InfoArray &&other) noexcept;
    InfoArray &operator=(InfoArray &&other) noexcept;
    InfoArray(const InfoArray &) = delete;
    InfoArray &operator=(const InfoArray &) = delete;
    ~InfoArray();

    const pmix_info_t *data() const { return info_; }
    std::size_t size() const { return size_; }
    const pmix_info_t *begin() const { return info_; }
    const pmix_info_t *end() const { return info_ + size_; }
    // Gives up ownership (for handing the array to a C caller).
    pmix_info_t *release(std::size_t *size_p);

private:
    pmix_info_t *info_ = nullptr;
    std::size_t size_ = 0;
};

class Store {
public:
    // A new empty store of `module`. PMIX_ERR_BAD_PARAM when the table is
    // NULL or shorter than the 1.0 operations, or an operation is missing.
    // hints: the store_create hints of gds.h (PMIXPP_GDS_HINT_DIR, the job's
    // PMIX_USERID / PMIX_GRPID).
    static pmix_status_t create(const pmixpp_gds_module_t *module, std::unique_ptr<Store> *store_p,
                                const pmix_info_t hints[] = nullptr, std::size_t nhints = 0);

    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    const char *module_name() const { return module_->name; }
    const pmixpp_gds_module_t &module() const { return *module_; }
    // The module's own store, for calling it without the facade's additions.
    pmixpp_gds_store_t *handle() const { return handle_; }

    // Registered data (see gds.h for the addressing and errors).
    pmix_status_t put(const char *nspace, Level level, uint32_t id, const pmix_info_t info[], std::size_t ninfo) const;
    pmix_status_t put_value(const char *nspace, Level level, uint32_t id, const char *key,
                            const pmix_value_t *value) const;
    pmix_status_t fetch(const char *nspace, Level level, uint32_t id, const char *key, ValuePtr *value_p) const;
    pmix_status_t fetch_all(const char *nspace, Level level, uint32_t id, InfoArray *info_p) const;
    pmix_status_t lookup_node(const char *nspace, const char *hostname, uint32_t *nodeid_p) const;
    bool has_nspace(const char *nspace) const;

    // Modex data.
    pmix_status_t put_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[],
                            std::size_t ninfo) const;
    pmix_status_t fetch_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, const char *key,
                              ValuePtr *value_p) const;
    pmix_status_t fetch_modex_all(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to,
                                  InfoArray *info_p) const;

    // Namespaces.
    pmix_status_t remove_nspace(const char *nspace) const;
    pmix_status_t export_nspace(const char *nspace, pmix_byte_object_t *blob_p) const;
    pmix_status_t import_nspace(const char *nspace, const pmix_byte_object_t &blob) const;
    // An export that carries the data itself (gds 1.1 export_nspace_inline);
    // export_nspace when the module has no such operation, as its export
    // then always carries the data.
    pmix_status_t export_nspace_inline(const char *nspace, pmix_byte_object_t *blob_p) const;
    // Server: has a module whose export only names shared data (a segment,
    // it has export_nspace_inline) write that data now, so that the first
    // client's welcome does not wait for it. Nothing for other modules,
    // whose export is the data itself.
    void share_nspace_ahead(const char *nspace) const;

    // Fence results shared with local clients instead of sent to each (gds
    // 1.2 share_modex / import_modex); PMIX_ERR_NOT_SUPPORTED when the
    // module has no such operations.
    bool shares_modex() const;
    pmix_status_t share_modex(const char *nspace, const pmixpp_gds_proc_data_t procs[], std::size_t nprocs,
                              pmix_byte_object_t *blob_p) const;
    pmix_status_t import_modex(const char *nspace, const pmix_byte_object_t &blob, pmix_rank_t keep) const;

private:
    Store(const pmixpp_gds_module_t *module, pmixpp_gds_store_t *handle) : module_(module), handle_(handle) {}

    const pmixpp_gds_module_t *module_;
    pmixpp_gds_store_t *handle_;
};

}  // namespace pmixpp::store

#endif
