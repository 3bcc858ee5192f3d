// Shared set-up of the gds conformance suite: the component under test is
// named by PMIXPP_GDS_UNDER_TEST (CMake registers one test per component) and
// loaded through the real framework selection, as the library loads it.
#ifndef PMIXPP_TESTS_GDS_FIXTURE_H
#define PMIXPP_TESTS_GDS_FIXTURE_H

#include "common/store/store.h"

#include <pmix_common.h>

#include <functional>
#include <memory>
#include <string>

namespace gds_test {

// The module of the component under test (selection asserted inside).
const pmixpp_gds_module_t *module_under_test();

// A fresh store of that module.
std::unique_ptr<pmixpp::store::Store> new_store();

// An info with a copied value (released by InfoList).
struct InfoList {
    InfoList() = default;
    InfoList(const InfoList &) = delete;
    InfoList &operator=(const InfoList &) = delete;
    ~InfoList();
    void add_u32(const char *key, uint32_t v);
    void add_string(const char *key, const char *v);
    void add_bytes(const char *key, const char *bytes, size_t size);
    pmix_info_t *data() { return info; }
    size_t size() const { return n; }

    pmix_info_t info[64];
    size_t n = 0;
};

uint32_t fetch_u32(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                   const char *key);
std::string fetch_string(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                         const char *key);

// Runs body in a forked child and returns what it returned (its count of
// failures), or 100 + signal when it died. The child never runs Criterion
// asserts: it only counts.
int in_child_process(const std::function<int()> &body);

// In a child: true when (level, id, key) holds the uint32 `expected`.
bool child_expect_u32(const pmixpp::store::Store &store, const char *nspace, pmixpp_gds_level_t level, uint32_t id,
                      const char *key, uint32_t expected);

bool values_equal(const pmix_value_t &a, const pmix_value_t &b);

// Reads job-level `key` holding "value-<n>" and returns n; UINT32_MAX when
// the fetch fails or the value is not exactly of that form with n <= max.
uint32_t read_versioned(const pmixpp::store::Store &store, const char *nspace, const char *key, uint32_t max);

}  // namespace gds_test

#endif
