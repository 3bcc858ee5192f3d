// Store facade: forwards to the gds module table (see store.h).
#include "common/store/store.h"

#include "common/store/derived_keys.h"

#include "common/values/value_ops.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace pmixpp::store {

void ValueDeleter::operator()(pmix_value_t *value) const noexcept
{
    if (value == nullptr) return;
    values::value_destruct(value);
    std::free(value);
}

InfoArray::InfoArray(InfoArray &&other) noexcept : info_(other.info_), size_(other.size_)
{
    other.info_ = nullptr;
    other.size_ = 0;
}

InfoArray &InfoArray::operator=(InfoArray &&other) noexcept
{
    if (this != &other) {
        InfoArray doomed(std::move(*this));
        info_ = other.info_;
        size_ = other.size_;
        other.info_ = nullptr;
        other.size_ = 0;
    }
    return *this;
}

InfoArray::~InfoArray()
{
    if (info_ == nullptr) return;
    for (std::size_t i = 0; i < size_; ++i) values::info_destruct(&info_[i]);
    std::free(info_);
}

pmix_info_t *InfoArray::release(std::size_t *size_p)
{
    pmix_info_t *info = info_;
    *size_p = size_;
    info_ = nullptr;
    size_ = 0;
    return info;
}

namespace {

// Every operation of interface 1.0 is present.
bool complete(const pmixpp_gds_module_t *m)
{
    constexpr std::size_t v1_size = offsetof(pmixpp_gds_module_t, import_nspace) + sizeof(m->import_nspace);
    return m->struct_size >= v1_size && m->name != nullptr && m->store_create && m->store_destroy && m->store &&
           m->fetch && m->fetch_all && m->lookup_node && m->has_nspace && m->store_modex && m->fetch_modex &&
           m->fetch_modex_all && m->remove_nspace && m->export_nspace && m->import_nspace;
}

pmixpp_gds_address_t address(const char *nspace, Level level, uint32_t id)
{
    return pmixpp_gds_address_t{nspace, level, id};
}

}  // namespace

pmix_status_t Store::create(const pmixpp_gds_module_t *module, std::unique_ptr<Store> *store_p,
                            const pmix_info_t hints[], std::size_t nhints)
{
    if (module == nullptr || store_p == nullptr || !complete(module)) return PMIX_ERR_BAD_PARAM;
    pmixpp_gds_store_t *handle = nullptr;
    const pmix_status_t rc = module->store_create(hints, nhints, &handle);
    if (rc != PMIX_SUCCESS) return rc;
    auto *store = new (std::nothrow) Store(module, handle);
    if (store == nullptr) {
        module->store_destroy(handle);
        return PMIX_ERR_NOMEM;
    }
    store_p->reset(store);
    return PMIX_SUCCESS;
}

Store::~Store()
{
    module_->store_destroy(handle_);
}

pmix_status_t Store::put(const char *nspace, Level level, uint32_t id, const pmix_info_t info[],
                         std::size_t ninfo) const
{
    const pmixpp_gds_address_t addr = address(nspace, level, id);
    return module_->store(handle_, &addr, info, ninfo);
}

pmix_status_t Store::put_value(const char *nspace, Level level, uint32_t id, const char *key,
                               const pmix_value_t *value) const
{
    if (key == nullptr || value == nullptr) return PMIX_ERR_BAD_PARAM;
    pmix_info_t info;
    std::memset(&info, 0, sizeof info);
    values::load_key(info.key, key);
    info.value = *value;  // a shallow view: the module copies, we never destruct it
    return put(nspace, level, id, &info, 1);
}

pmix_status_t Store::fetch(const char *nspace, Level level, uint32_t id, const char *key, ValuePtr *value_p) const
{
    const pmixpp_gds_address_t addr = address(nspace, level, id);
    pmix_value_t *value = nullptr;
    pmix_status_t rc = module_->fetch(handle_, &addr, key, &value);
    if (rc == PMIX_ERR_NOT_FOUND && level == PMIXPP_GDS_LEVEL_PROC && key != nullptr && is_derived_proc_key(key)) {
        value = static_cast<pmix_value_t *>(std::calloc(1, sizeof(pmix_value_t)));
        if (value == nullptr) return PMIX_ERR_NOMEM;
        rc = derive_proc_key(*module_, handle_, nspace, id, key, value);
        if (rc != PMIX_SUCCESS) std::free(value);
    }
    if (rc == PMIX_SUCCESS) value_p->reset(value);
    return rc;
}

pmix_status_t Store::fetch_all(const char *nspace, Level level, uint32_t id, InfoArray *info_p) const
{
    const pmixpp_gds_address_t addr = address(nspace, level, id);
    pmix_info_t *info = nullptr;
    std::size_t ninfo = 0;
    const pmix_status_t rc = module_->fetch_all(handle_, &addr, &info, &ninfo);
    if (rc != PMIX_SUCCESS && !(rc == PMIX_ERR_NOT_FOUND && level == PMIXPP_GDS_LEVEL_PROC)) return rc;
    InfoArray held = rc == PMIX_SUCCESS ? InfoArray(info, ninfo) : InfoArray();
    if (level == PMIXPP_GDS_LEVEL_PROC) {
        const pmix_status_t derived = add_derived_proc_keys(*module_, handle_, nspace, id, &held);
        if (derived != PMIX_SUCCESS) return derived;
    }
    *info_p = std::move(held);
    return PMIX_SUCCESS;
}

pmix_status_t Store::lookup_node(const char *nspace, const char *hostname, uint32_t *nodeid_p) const
{
    return module_->lookup_node(handle_, nspace, hostname, nodeid_p);
}

bool Store::has_nspace(const char *nspace) const
{
    return module_->has_nspace(handle_, nspace) != 0;
}

pmix_status_t Store::put_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[],
                               std::size_t ninfo) const
{
    return module_->store_modex(handle_, nspace, rank, scope, info, ninfo);
}

pmix_status_t Store::fetch_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, const char *key,
                                 ValuePtr *value_p) const
{
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = module_->fetch_modex(handle_, nspace, rank, visible_to, key, &value);
    if (rc == PMIX_SUCCESS) value_p->reset(value);
    return rc;
}

pmix_status_t Store::fetch_modex_all(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to,
                                     InfoArray *info_p) const
{
    pmix_info_t *info = nullptr;
    std::size_t ninfo = 0;
    const pmix_status_t rc = module_->fetch_modex_all(handle_, nspace, rank, visible_to, &info, &ninfo);
    if (rc == PMIX_SUCCESS) *info_p = InfoArray(info, ninfo);
    return rc;
}

pmix_status_t Store::remove_nspace(const char *nspace) const
{
    return module_->remove_nspace(handle_, nspace);
}

pmix_status_t Store::export_nspace(const char *nspace, pmix_byte_object_t *blob_p) const
{
    return module_->export_nspace(handle_, nspace, blob_p);
}

pmix_status_t Store::export_nspace_inline(const char *nspace, pmix_byte_object_t *blob_p) const
{
    constexpr std::size_t needed =
        offsetof(pmixpp_gds_module_t, export_nspace_inline) + sizeof(module_->export_nspace_inline);
    if (module_->struct_size >= needed && module_->export_nspace_inline != nullptr) {
        return module_->export_nspace_inline(handle_, nspace, blob_p);
    }
    return module_->export_nspace(handle_, nspace, blob_p);
}

void Store::share_nspace_ahead(const char *nspace) const
{
    constexpr std::size_t needed =
        offsetof(pmixpp_gds_module_t, export_nspace_inline) + sizeof(module_->export_nspace_inline);
    if (module_->struct_size < needed || module_->export_nspace_inline == nullptr) return;
    pmix_byte_object_t blob{};
    // A module that cannot write it says so once; the welcomes then carry
    // the data itself, as they would have after the same failure there.
    (void)module_->export_nspace(handle_, nspace, &blob);
    std::free(blob.bytes);
}

pmix_status_t Store::import_nspace(const char *nspace, const pmix_byte_object_t &blob) const
{
    return module_->import_nspace(handle_, nspace, &blob);
}

bool Store::shares_modex() const
{
    constexpr std::size_t needed = offsetof(pmixpp_gds_module_t, import_modex) + sizeof(module_->import_modex);
    return module_->struct_size >= needed && module_->share_modex != nullptr && module_->import_modex != nullptr;
}

pmix_status_t Store::share_modex(const char *nspace, const pmixpp_gds_proc_data_t procs[], std::size_t nprocs,
                                 pmix_byte_object_t *blob_p) const
{
    if (!shares_modex()) return PMIX_ERR_NOT_SUPPORTED;
    return module_->share_modex(handle_, nspace, procs, nprocs, blob_p);
}

pmix_status_t Store::import_modex(const char *nspace, const pmix_byte_object_t &blob, pmix_rank_t keep) const
{
    if (!shares_modex()) return PMIX_ERR_NOT_SUPPORTED;
    return module_->import_modex(handle_, nspace, &blob, keep);
}

}  // namespace pmixpp::store
