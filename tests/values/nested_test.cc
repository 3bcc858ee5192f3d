// Data arrays nested several levels deep: copy, compare and release.
#include <criterion/criterion.h>

#include <cstring>

#include <pmix.h>

namespace {

// Level 0 is a plain array of strings; every level above is an array of two
// infos whose values are data arrays of the level below (and, for variety,
// one level holds pmix_value_t elements instead of infos).
pmix_data_array_t *build(int depth, const char *leaf)
{
    auto array = static_cast<pmix_data_array_t *>(std::calloc(1, sizeof(pmix_data_array_t)));
    if (0 == depth) {
        array->type = PMIX_STRING;
        array->size = 2;
        auto strs = static_cast<char **>(std::calloc(2, sizeof(char *)));
        strs[0] = strdup(leaf);
        strs[1] = strdup("leaf-b");
        array->array = strs;
        return array;
    }
    pmix_data_array_t *below = build(depth - 1, leaf);
    if (2 == depth) {
        array->type = PMIX_VALUE;
        array->size = 2;
        auto vals = static_cast<pmix_value_t *>(std::calloc(2, sizeof(pmix_value_t)));
        PMIx_Value_load(&vals[0], below, PMIX_DATA_ARRAY);
        PMIx_Value_load(&vals[1], "plain", PMIX_STRING);
        array->array = vals;
    } else {
        array->type = PMIX_INFO;
        array->size = 2;
        auto infos = static_cast<pmix_info_t *>(std::calloc(2, sizeof(pmix_info_t)));
        PMIx_Info_load(&infos[0], "nested", below, PMIX_DATA_ARRAY);
        int depth_copy = depth;
        PMIx_Info_load(&infos[1], "depth", &depth_copy, PMIX_INT);
        array->array = infos;
    }
    PMIX_DATA_ARRAY_FREE(below);
    return array;
}

}  // namespace

Test(nested, five_levels_copy_compare_release)
{
    pmix_data_array_t *original = build(5, "leaf-a");
    pmix_data_array_t *different = build(5, "leaf-z");
    pmix_value_t a, b, copy;
    cr_assert_eq(PMIx_Value_load(&a, original, PMIX_DATA_ARRAY), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Value_load(&b, different, PMIX_DATA_ARRAY), PMIX_SUCCESS);
    PMIX_DATA_ARRAY_FREE(original);
    PMIX_DATA_ARRAY_FREE(different);

    cr_assert_eq(PMIx_Value_xfer(&copy, &a), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Value_compare(&a, &copy), PMIX_EQUAL);
    cr_expect_eq(PMIx_Value_compare(&a, &b), PMIX_VALUE2_GREATER, "leaf-a < leaf-z, 5 levels down");

    // Walk down to the leaf of the copy to prove it is a separate tree.
    pmix_data_array_t *level = copy.data.darray;
    for (int depth = 5; depth > 0; --depth) {
        if (PMIX_VALUE == level->type) {
            level = static_cast<pmix_value_t *>(level->array)[0].data.darray;
        } else {
            cr_assert_eq(level->type, PMIX_INFO);
            level = static_cast<pmix_info_t *>(level->array)[0].value.data.darray;
        }
    }
    cr_assert_eq(level->type, PMIX_STRING);
    char **leaves = static_cast<char **>(level->array);
    cr_expect_str_eq(leaves[0], "leaf-a");
    PMIx_Value_destruct(&a);
    cr_expect_str_eq(leaves[0], "leaf-a");

    PMIx_Value_destruct(&b);
    PMIx_Value_destruct(&copy);
}

Test(nested, array_with_unknown_element_type_fails_cleanly)
{
    pmix_info_t inner;
    PMIx_Info_load(&inner, "k", "v", PMIX_STRING);
    int bogus[2] = {1, 2};
    pmix_data_array_t bad{PMIX_KVAL, 2, bogus};
    pmix_data_array_t outer{PMIX_INFO, 1, &inner};
    pmix_value_t val;
    cr_expect_eq(PMIx_Value_load(&val, &outer, PMIX_DATA_ARRAY), PMIX_SUCCESS);
    PMIx_Value_destruct(&val);
    PMIX_INFO_DESTRUCT(&inner);
    PMIx_Info_load(&inner, "bad", &bad, PMIX_DATA_ARRAY);
    cr_expect_eq(inner.value.type, PMIX_UNDEF, "an unknown element type is not loaded");
    cr_expect_eq(PMIx_Value_load(&val, &bad, PMIX_DATA_ARRAY), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect_eq(val.type, PMIX_UNDEF);
}
