// Attribute dictionary (both directions, declared types) and the registry
// behind PMIx_Register_attributes.
#include <criterion/criterion.h>

#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <pmix.h>
#include <pmix_server.h>

#include "common/values/attribute_dictionary.h"
#include "common/values/attribute_registry.h"
#include "common/values/type_ops.h"
#include "values/tsv_reader.h"

using namespace pmixpp::values;

Test(attributes, every_attribute_maps_both_ways)
{
    std::vector<tsv::Row> rows;
    for (const tsv::Row &row : tsv::read("pmix-v4.2-constants.tsv")) {
        if ("string" == row.kind && "pmix_common.h" == row.header && row.value != row.name) {
            rows.push_back(row);
        }
    }
    for (const tsv::Row &row : tsv::read("pmix-master-additions.tsv")) {
        if ("string" == row.kind) {
            rows.push_back(row);
        }
    }
    cr_assert_gt(rows.size(), 600u, "the TSVs were read");
    std::set<std::string> seen_keys;
    for (const tsv::Row &row : rows) {
        cr_expect_str_eq(PMIx_Get_attribute_string(row.name.c_str()), row.value.c_str(), "%s", row.name.c_str());
        const char *name = PMIx_Get_attribute_name(row.value.c_str());
        // Two names share a few keys; the reverse lookup gives one of them.
        cr_expect_str_eq(PMIx_Get_attribute_string(name), row.value.c_str(), "%s", row.value.c_str());
        seen_keys.insert(row.value);
    }
    cr_expect_str_eq(PMIx_Get_attribute_string("PMIX_JOB_SIZE"), "pmix.job.size");
    cr_expect_str_eq(PMIx_Get_attribute_name("pmix.job.size"), "PMIX_JOB_SIZE");
    cr_expect_str_eq(PMIx_Get_attribute_name("pmix.qry.quals"), "PMIX_QUERY_QUALIFIERS");
}

Test(attributes, unknown_input_is_returned_unchanged)
{
    const char *odd = "not.an.attribute";
    cr_expect_eq(PMIx_Get_attribute_string(odd), odd);
    cr_expect_eq(PMIx_Get_attribute_name(odd), odd);
    cr_expect_null(PMIx_Get_attribute_string(nullptr));
    cr_expect_null(PMIx_Get_attribute_name(nullptr));
}

Test(attributes, declared_types)
{
    cr_expect_eq(find_attribute_by_name("PMIX_JOB_SIZE")->type, PMIX_UINT32);
    cr_expect_eq(find_attribute_by_key("pmix.hname")->type, PMIX_STRING);
    cr_expect_eq(find_attribute_by_key("pmix.collect")->type, PMIX_BOOL);
    cr_expect_eq(find_attribute_by_key("pmix.rank")->type, PMIX_PROC_RANK);
    cr_expect_eq(find_attribute_by_name("PMIX_EVENT_BASE")->type, PMIX_POINTER);
    cr_expect_null(find_attribute_by_key("pmix.nope"));
    size_t count = 0;
    const AttributeEntry *all = attribute_entries(&count);
    for (size_t i = 1; i < count; ++i) {
        cr_assert_lt(std::strcmp(all[i - 1].name, all[i].name), 0);
    }
}

Test(attributes, register_and_query)
{
    char fn[] = "allocate";
    char a1[] = PMIX_ALLOC_NUM_NODES;
    char a2[] = "PMIX_TIMEOUT";  // a macro name is accepted too
    char a3[] = "vendor.private";
    char *attrs[] = {a1, a2, a3, nullptr};
    cr_assert_eq(PMIx_Register_attributes(fn, attrs), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Register_attributes(fn, attrs), PMIX_ERR_REPEAT_ATTR_REGISTRATION);

    std::vector<RegisteredAttribute> got;
    cr_assert_eq(registered_attributes("allocate", &got), PMIX_SUCCESS);
    cr_assert_eq(got.size(), 3u);
    cr_expect_eq(got[0].name, "PMIX_ALLOC_NUM_NODES");
    cr_expect_eq(got[0].key, PMIX_ALLOC_NUM_NODES);
    cr_expect_eq(got[1].key, PMIX_TIMEOUT);
    cr_expect_eq(got[1].type, PMIX_INT);
    cr_expect_eq(got[2].key, "vendor.private");
    cr_expect_eq(got[2].type, PMIX_UNDEF);
    cr_expect_eq(registered_attributes("fence_nb", &got), PMIX_ERR_NOT_FOUND);

    pmix_regattr_t *regattrs = nullptr;
    size_t n = 0;
    cr_assert_eq(registered_attributes_as_regattr("allocate", &regattrs, &n), PMIX_SUCCESS);
    cr_expect_eq(n, 3u);
    cr_expect_str_eq(regattrs[1].name, "PMIX_TIMEOUT");
    cr_expect_str_eq(regattrs[1].string, PMIX_TIMEOUT);
    free_elements(regattrs, n, PMIX_REGATTR);

    cr_expect_eq(PMIx_Register_attributes(nullptr, attrs), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Register_attributes(fn, nullptr), PMIX_ERR_BAD_PARAM);
    clear_registered_attributes();
    cr_expect_eq(registered_attributes("allocate", &got), PMIX_ERR_NOT_FOUND);
}

Test(attributes, concurrent_registration)
{
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([t] {
            for (int i = 0; i < 50; ++i) {
                std::string fn = "fn." + std::to_string(t) + "." + std::to_string(i);
                char attr[] = PMIX_JOB_SIZE;
                char *attrs[] = {attr, nullptr};
                PMIx_Register_attributes(fn.data(), attrs);
            }
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
    cr_expect_eq(registered_functions().size(), 400u);
    clear_registered_attributes();
}
