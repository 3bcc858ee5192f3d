#include "gds_fixture.h"

#include "framework/src/selected_modules.h"

#include <criterion/criterion.h>

#include <pmix.h>

#include <sys/wait.h>
#include <unistd.h>

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

void InfoList::add_u32(const char *key, uint32_t v)
{
    PMIX_INFO_LOAD(&info[n++], key, &v, PMIX_UINT32);
}

void InfoList::add_string(const char *key, const char *v)
{
    PMIX_INFO_LOAD(&info[n++], key, v, PMIX_STRING);
}

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

std::string fetch_string(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                         const char *key)
{
    pmixpp::store::ValuePtr value;
    const pmix_status_t rc = store.fetch(nspace, level, id, key, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "fetch %s level %d id %u: %d", key, level, id, rc);
    cr_assert_eq(value->type, PMIX_STRING, "%s has type %d", key, value->type);
    return value->data.string;
}

int in_child_process(const std::function<int()> &body)
{
    const pid_t child = ::fork();
    cr_assert_geq(child, 0, "fork failed");
    if (child == 0) {
        int failures = 0;
        try {
            failures = body();
        } catch (...) {
            failures = 99;
        }
        ::_exit(failures > 99 ? 99 : failures);
    }
    int status = 0;
    cr_assert_eq(::waitpid(child, &status, 0), child);
    if (WIFSIGNALED(status)) return 100 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

bool child_expect_u32(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                      const char *key, uint32_t expected)
{
    pmixpp::store::ValuePtr value;
    return store.fetch(nspace, level, id, key, &value) == PMIX_SUCCESS && value->type == PMIX_UINT32 &&
           value->data.uint32 == expected;
}

bool values_equal(const pmix_value_t &a, const pmix_value_t &b)
{
    if (a.type != b.type) return false;
    if (a.type == PMIX_BYTE_OBJECT) {
        return a.data.bo.size == b.data.bo.size &&
               (a.data.bo.size == 0 || std::memcmp(a.data.bo.bytes, b.data.bo.bytes, a.data.bo.size) == 0);
    }
    return PMIx_Value_compare(const_cast<pmix_value_t *>(&a), const_cast<pmix_value_t *>(&b)) == PMIX_EQUAL;
}

uint32_t read_versioned(const pmixpp::store::Store &store, const char *nspace, const char *key, uint32_t max)
{
    pmixpp::store::ValuePtr value;
    if (store.fetch(nspace, PMIXPP_GDS_LEVEL_JOB, 0, key, &value) != PMIX_SUCCESS) return UINT32_MAX;
    if (value->type != PMIX_STRING || value->data.string == nullptr) return UINT32_MAX;
    const char *text = value->data.string;
    if (std::strncmp(text, "value-", 6) != 0 || text[6] == '\0') return UINT32_MAX;
    char *end = nullptr;
    const unsigned long n = std::strtoul(text + 6, &end, 10);
    if (*end != '\0' || n > max) return UINT32_MAX;
    return static_cast<uint32_t>(n);
}

}  // namespace gds_test
