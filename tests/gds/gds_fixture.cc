#include "gds_fixture.h"

#include "framework/src/selection.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace gds_test {

const pmixpp_gds_module_t *module_under_test()
{
    const char *wanted = std::getenv("PMIXPP_GDS_UNDER_TEST");
    cr_assert(wanted != nullptr, "PMIXPP_GDS_UNDER_TEST is not set");
    std::vector<pmixpp::framework::SelectedModule> modules;
    cr_assert_eq(pmixpp::framework::select("gds", &modules), PMIX_SUCCESS);
    for (const auto &m : modules) {
        if (m.component == wanted) return static_cast<const pmixpp_gds_module_t *>(m.module);
    }
    cr_assert_fail("gds component %s was not selected", wanted);
    return nullptr;
}

std::unique_ptr<pmixpp::store::Store> new_store()
{
    std::unique_ptr<pmixpp::store::Store> store;
    cr_assert_eq(pmixpp::store::Store::create(module_under_test(), &store), PMIX_SUCCESS);
    return store;
}

InfoList::~InfoList()
{
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&info[i]);
}

void InfoList::add_u32(const char *key, uint32_t v) { PMIX_INFO_LOAD(&info[n++], key, &v, PMIX_UINT32); }

void InfoList::add_string(const char *key, const char *v) { PMIX_INFO_LOAD(&info[n++], key, v, PMIX_STRING); }

void InfoList::add_bytes(const char *key, const char *bytes, size_t size)
{
    pmix_byte_object_t bo;
    bo.bytes = const_cast<char *>(bytes);
    bo.size = size;
    PMIX_INFO_LOAD(&info[n++], key, &bo, PMIX_BYTE_OBJECT);
}

uint32_t fetch_u32(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                   const char *key)
{
    pmixpp::store::ValuePtr value;
    const pmix_status_t rc = store.fetch(nspace, level, id, key, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "fetch %s level %d id %u: %d", key, level, id, rc);
    cr_assert_eq(value->type, PMIX_UINT32, "%s has type %d", key, value->type);
    return value->data.uint32;
}

std::string fetch_string(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level,
                         uint32_t id, const char *key)
{
    pmixpp::store::ValuePtr value;
    const pmix_status_t rc = store.fetch(nspace, level, id, key, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "fetch %s level %d id %u: %d", key, level, id, rc);
    cr_assert_eq(value->type, PMIX_STRING, "%s has type %d", key, value->type);
    return value->data.string;
}

} // namespace gds_test
