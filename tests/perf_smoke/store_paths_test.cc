// The store shortcuts taken for speed must not change what is stored or
// found (see tests/perf_smoke/CMakeLists.txt).
#include "common/store/resolver.h"
#include "common/store/store.h"
#include "framework/src/selected_modules.h"

#include <criterion/criterion.h>

#include <pmix.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using pmixpp::store::GetRequest;
using pmixpp::store::Store;
using pmixpp::store::ValuePtr;

namespace {

constexpr const char *kNs = "smoke.job";

std::unique_ptr<Store> hash_store()
{
    std::vector<pmixpp::framework::SelectedModule> modules;
    cr_assert_eq(pmixpp::framework::select("gds", &modules), PMIX_SUCCESS);
    for (const auto &m : modules) {
        if (m.component == "hash") {
            std::unique_ptr<Store> store;
            cr_assert_eq(Store::create(static_cast<const pmixpp_gds_module_t *>(m.module), &store), PMIX_SUCCESS);
            return store;
        }
    }
    cr_assert_fail("gds/hash was not selected");
    return nullptr;
}

void put_u32(const Store &store, pmixpp_gds_level_t level, uint32_t id, const char *key, uint32_t v)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key, &v, PMIX_UINT32);
    cr_assert_eq(store.put(kNs, level, id, &info, 1), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&info);
}

// UINT32_MAX when absent.
uint32_t get_u32(const Store &store, pmixpp_gds_level_t level, uint32_t id, const char *key)
{
    ValuePtr value;
    if (store.fetch(kNs, level, id, key, &value) != PMIX_SUCCESS) return UINT32_MAX;
    cr_assert_eq(value->type, PMIX_UINT32);
    return value->data.uint32;
}

}  // namespace

Test(perf_smoke, dense_sparse_and_huge_ids_coexist)
{
    auto store = hash_store();
    const uint32_t ids[] = {0, 1, 4000, 9000, 5000000, 0xfffffff0u, 2};
    for (uint32_t id : ids) put_u32(*store, PMIXPP_GDS_LEVEL_PROC, id, "smoke.id", id ^ 0x55u);
    for (uint32_t id : ids) cr_assert_eq(get_u32(*store, PMIXPP_GDS_LEVEL_PROC, id, "smoke.id"), id ^ 0x55u);
    // Gaps are absent, not empty values.
    cr_assert_eq(get_u32(*store, PMIXPP_GDS_LEVEL_PROC, 3, "smoke.id"), UINT32_MAX);
    cr_assert_eq(get_u32(*store, PMIXPP_GDS_LEVEL_PROC, 4999999, "smoke.id"), UINT32_MAX);
    pmixpp::store::InfoArray none;
    cr_assert_eq(store->fetch_all(kNs, PMIXPP_GDS_LEVEL_PROC, 3, &none), PMIX_ERR_NOT_FOUND);
}

Test(perf_smoke, a_key_repeated_in_one_call_keeps_the_last_value)
{
    auto store = hash_store();
    pmix_info_t info[3];
    uint32_t a = 1, b = 2, c = 3;
    PMIX_INFO_LOAD(&info[0], "smoke.dup", &a, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], "smoke.other", &b, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[2], "smoke.dup", &c, PMIX_UINT32);
    cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_PROC, 7, info, 3), PMIX_SUCCESS);
    cr_assert_eq(get_u32(*store, PMIXPP_GDS_LEVEL_PROC, 7, "smoke.dup"), 3u);
    cr_assert_eq(get_u32(*store, PMIXPP_GDS_LEVEL_PROC, 7, "smoke.other"), 2u);
    pmixpp::store::InfoArray got;
    cr_assert_eq(store->fetch_all(kNs, PMIXPP_GDS_LEVEL_PROC, 7, &got), PMIX_SUCCESS);
    cr_assert_eq(got.size(), 2u);
    for (auto &i : info) PMIX_INFO_DESTRUCT(&i);
}

Test(perf_smoke, export_import_keeps_sparse_ids)
{
    auto server = hash_store();
    put_u32(*server, PMIXPP_GDS_LEVEL_PROC, 5, "smoke.v", 50);
    put_u32(*server, PMIXPP_GDS_LEVEL_PROC, 3000000000u, "smoke.v", 30);
    put_u32(*server, PMIXPP_GDS_LEVEL_NODE, 2, "smoke.v", 20);
    pmix_byte_object_t blob{};
    cr_assert_eq(server->export_nspace(kNs, &blob), PMIX_SUCCESS);
    auto client = hash_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    free(blob.bytes);
    cr_assert_eq(get_u32(*client, PMIXPP_GDS_LEVEL_PROC, 5, "smoke.v"), 50u);
    cr_assert_eq(get_u32(*client, PMIXPP_GDS_LEVEL_PROC, 3000000000u, "smoke.v"), 30u);
    cr_assert_eq(get_u32(*client, PMIXPP_GDS_LEVEL_NODE, 2, "smoke.v"), 20u);
    cr_assert_eq(get_u32(*client, PMIXPP_GDS_LEVEL_PROC, 4, "smoke.v"), UINT32_MAX);
}

// A wildcard get of a key of no fixed level: job first, then the caller's
// node, then its application; the node id is looked up only when needed.
Test(perf_smoke, resolver_search_order_is_unchanged)
{
    auto store = hash_store();
    pmix_proc_t self;
    PMIX_LOAD_PROCID(&self, kNs, 1);
    put_u32(*store, PMIXPP_GDS_LEVEL_PROC, 1, PMIX_NODEID, 4);
    put_u32(*store, PMIXPP_GDS_LEVEL_NODE, 4, "smoke.where", 400);
    put_u32(*store, PMIXPP_GDS_LEVEL_APP, 0, "smoke.where", 0);
    put_u32(*store, PMIXPP_GDS_LEVEL_APP, 0, "smoke.apponly", 7);
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, kNs, PMIX_RANK_WILDCARD);
    GetRequest request;
    request.target = &job;
    request.self = &self;
    request.key = "smoke.where";
    ValuePtr value;
    cr_assert_eq(pmixpp::store::get(*store, request, &value), PMIX_SUCCESS);
    cr_assert_eq(value->data.uint32, 400u, "the caller's node comes before its app");
    put_u32(*store, PMIXPP_GDS_LEVEL_JOB, 0, "smoke.where", 99);
    cr_assert_eq(pmixpp::store::get(*store, request, &value), PMIX_SUCCESS);
    cr_assert_eq(value->data.uint32, 99u, "the job level comes first");
    request.key = "smoke.apponly";
    cr_assert_eq(pmixpp::store::get(*store, request, &value), PMIX_SUCCESS);
    cr_assert_eq(value->data.uint32, 7u);
    std::vector<pmixpp::store::Address> plan;
    cr_assert_eq(pmixpp::store::plan(*store, request, &plan), PMIX_SUCCESS);
    cr_assert_eq(plan.size(), 4u);  // job, node 4, app 0, session 0
    cr_assert_eq(plan[0].level, PMIXPP_GDS_LEVEL_JOB);
    cr_assert_eq(plan[1].level, PMIXPP_GDS_LEVEL_NODE);
    cr_assert_eq(plan[1].id, 4u);
    cr_assert_eq(plan[2].level, PMIXPP_GDS_LEVEL_APP);
    cr_assert_eq(plan[3].level, PMIXPP_GDS_LEVEL_SESSION);
    request.key = "smoke.absent";
    cr_assert_eq(pmixpp::store::get(*store, request, &value), PMIX_ERR_NOT_FOUND);
}
