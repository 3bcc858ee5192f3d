// PMIx_Query_info before PMIx_Init: the library's own keys (the standard's
// ABI versions) are answered, as OpenPMIx does (its abi_no_init example);
// anything else, and the non-blocking form, is PMIX_ERR_INIT.
#include <criterion/criterion.h>

#include <pmix.h>

#include <cstring>

namespace {

pmix_query_t query_of(char **keys)
{
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    query.keys = keys;
    return query;
}

void never_called(pmix_status_t, pmix_info_t *, size_t, void *, pmix_release_cbfunc_t, void *) {}

}  // namespace

Test(client_query_before_init, abi_versions_are_answered_without_a_server)
{
    char *stable[] = {const_cast<char *>(PMIX_QUERY_STABLE_ABI_VERSION), nullptr};
    char *provisional[] = {const_cast<char *>(PMIX_QUERY_PROVISIONAL_ABI_VERSION), nullptr};
    pmix_query_t queries[2] = {query_of(stable), query_of(provisional)};
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_assert_eq(PMIx_Query_info(queries, 2, &results, &nresults), PMIX_SUCCESS);
    cr_assert_eq(nresults, 2u);
    cr_expect_str_eq(results[0].key, PMIX_QUERY_STABLE_ABI_VERSION);
    cr_assert_eq(results[0].value.type, PMIX_STRING);
    cr_expect_str_eq(results[0].value.data.string, "0.0");
    cr_expect_str_eq(results[1].key, PMIX_QUERY_PROVISIONAL_ABI_VERSION);
    cr_expect_str_eq(results[1].value.data.string, "0.0");
    PMIX_INFO_FREE(results, nresults);
}

Test(client_query_before_init, any_other_key_needs_init)
{
    char *keys[] = {const_cast<char *>(PMIX_QUERY_STABLE_ABI_VERSION), const_cast<char *>(PMIX_QUERY_NAMESPACES),
                    nullptr};
    pmix_query_t query = query_of(keys);
    pmix_info_t *results = reinterpret_cast<pmix_info_t *>(0x1);
    size_t nresults = 7;
    cr_expect_eq(PMIx_Query_info(&query, 1, &results, &nresults), PMIX_ERR_INIT);
    cr_expect(results == nullptr && nresults == 0);
}

Test(client_query_before_init, non_blocking_form_needs_init)
{
    char *keys[] = {const_cast<char *>(PMIX_QUERY_STABLE_ABI_VERSION), nullptr};
    pmix_query_t query = query_of(keys);
    cr_expect_eq(PMIx_Query_info_nb(&query, 1, never_called, nullptr), PMIX_ERR_INIT);
}
