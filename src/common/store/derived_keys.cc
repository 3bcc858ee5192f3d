// Per-proc keys answered from the rank and job/app/node data (see
// derived_keys.h).
#include "common/store/derived_keys.h"

#include "common/values/value_ops.h"

#include <array>
#include <cstdlib>
#include <cstring>

namespace pmixpp::store {
namespace {

constexpr std::array<std::string_view, 5> kDerived{PMIX_RANK, PMIX_GLOBAL_RANK, PMIX_APPNUM, PMIX_APP_RANK,
                                                   PMIX_HOSTNAME};

// A uint32-sized value the module holds (job size, offset, node id).
bool fetch_u32(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace,
               pmixpp_gds_level_t level, uint32_t id, const char *key, uint32_t *out_p)
{
    const pmixpp_gds_address_t addr{nspace, level, id};
    pmix_value_t *value = nullptr;
    if (module.fetch(store, &addr, key, &value) != PMIX_SUCCESS) return false;
    const bool ok = value->type == PMIX_UINT32 || value->type == PMIX_PROC_RANK;
    if (ok) *out_p = value->type == PMIX_UINT32 ? value->data.uint32 : value->data.rank;
    values::value_destruct(value);
    std::free(value);
    return ok;
}

bool in_job(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace, pmix_rank_t rank)
{
    uint32_t size = 0;
    return PMIX_RANK_IS_VALID(rank) &&
           fetch_u32(module, store, nspace, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_SIZE, &size) && rank < size;
}

bool one_app(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace)
{
    uint32_t apps = 0;
    return fetch_u32(module, store, nspace, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_NUM_APPS, &apps) && apps == 1;
}

pmix_status_t load_rank(pmix_value_t *value_p, pmix_rank_t rank)
{
    value_p->type = PMIX_PROC_RANK;
    value_p->data.rank = rank;
    return PMIX_SUCCESS;
}

pmix_status_t derive_known(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace,
                           pmix_rank_t rank, std::string_view key, pmix_value_t *value_p)
{
    if (key == PMIX_RANK) return load_rank(value_p, rank);
    if (key == PMIX_GLOBAL_RANK) {
        uint32_t offset = 0;
        (void)fetch_u32(module, store, nspace, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NPROC_OFFSET, &offset);
        return load_rank(value_p, offset + rank);
    }
    if (key == PMIX_APP_RANK || key == PMIX_APPNUM) {
        if (!one_app(module, store, nspace)) return PMIX_ERR_NOT_FOUND;
        if (key == PMIX_APP_RANK) return load_rank(value_p, rank);
        value_p->type = PMIX_UINT32;
        value_p->data.uint32 = 0;
        return PMIX_SUCCESS;
    }
    // PMIX_HOSTNAME: the node's.
    uint32_t nodeid = 0;
    if (!fetch_u32(module, store, nspace, PMIXPP_GDS_LEVEL_PROC, rank, PMIX_NODEID, &nodeid)) {
        return PMIX_ERR_NOT_FOUND;
    }
    const pmixpp_gds_address_t node{nspace, PMIXPP_GDS_LEVEL_NODE, nodeid};
    pmix_value_t *name = nullptr;
    const pmix_status_t rc = module.fetch(store, &node, PMIX_HOSTNAME, &name);
    if (rc != PMIX_SUCCESS) return rc;
    *value_p = *name;  // the node's copy is ours: take its contents
    std::free(name);
    return PMIX_SUCCESS;
}

}  // namespace

bool is_derived_proc_key(std::string_view key)
{
    for (std::string_view derived : kDerived) {
        if (key == derived) return true;
    }
    return false;
}

pmix_status_t derive_proc_key(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace,
                              pmix_rank_t rank, std::string_view key, pmix_value_t *value_p)
{
    if (!is_derived_proc_key(key) || !in_job(module, store, nspace, rank)) return PMIX_ERR_NOT_FOUND;
    return derive_known(module, store, nspace, rank, key, value_p);
}

pmix_status_t add_derived_proc_keys(const pmixpp_gds_module_t &module, pmixpp_gds_store_t *store, const char *nspace,
                                    pmix_rank_t rank, InfoArray *info_p)
{
    const bool member = in_job(module, store, nspace, rank);
    std::array<pmix_info_t, kDerived.size()> extra{};
    std::size_t nextra = 0;
    for (std::string_view key : kDerived) {
        if (!member) break;
        bool held = false;
        for (const pmix_info_t &info : *info_p) held = held || key == info.key;
        if (held) continue;
        pmix_info_t &slot = extra[nextra];
        if (derive_known(module, store, nspace, rank, key, &slot.value) != PMIX_SUCCESS) continue;
        std::memcpy(slot.key, key.data(), key.size());
        ++nextra;
    }
    if (nextra == 0) return info_p->size() > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    const std::size_t total = info_p->size() + nextra;
    auto *merged = static_cast<pmix_info_t *>(std::calloc(total, sizeof(pmix_info_t)));
    if (merged == nullptr) {
        for (std::size_t i = 0; i < nextra; ++i) values::info_destruct(&extra[i]);
        return PMIX_ERR_NOMEM;
    }
    // Moved, not copied: the old array gives up its values.
    std::size_t held = 0;
    pmix_info_t *old = info_p->release(&held);
    if (held > 0) std::memcpy(merged, old, held * sizeof(pmix_info_t));
    std::free(old);
    std::memcpy(merged + held, extra.data(), nextra * sizeof(pmix_info_t));
    *info_p = InfoArray(merged, total);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::store
