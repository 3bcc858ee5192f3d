// PMIx_generate_regex / PMIx_generate_ppn through libpmix.so.2's export map.
#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>

#include <pmix_server.h>

Test(regex_api, node_regex_is_malloced_and_tagged)
{
    char *regex = nullptr;
    cr_assert_eq(PMIx_generate_regex("node01,node02,node03,login", &regex), PMIX_SUCCESS);
    cr_assert_not_null(regex);
    cr_expect_str_eq(regex, "pmixpp1:node[01-03],login");
    free(regex);
}

Test(regex_api, ppn_regex_is_malloced_and_tagged)
{
    char *ppn = nullptr;
    cr_assert_eq(PMIx_generate_ppn("0,1,2,3;4-7;8-11", &ppn), PMIX_SUCCESS);
    cr_assert_not_null(ppn);
    cr_expect_str_eq(ppn, "pmixpp1:0-3*3+4");
    free(ppn);
}

Test(regex_api, bad_arguments_are_refused)
{
    char *out = nullptr;
    cr_expect_eq(PMIx_generate_regex(nullptr, &out), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_regex("", &out), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_regex("n1", nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_regex("n1,,n2", &out), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_ppn(nullptr, &out), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_ppn("", &out), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_ppn("0", nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_ppn("0;;1", &out), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_generate_ppn("0-999999999999", &out), PMIX_ERR_BAD_PARAM);
    cr_expect_null(out);
}
