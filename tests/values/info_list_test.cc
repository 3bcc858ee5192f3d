// PMIx_Info_list_*: building, converting and releasing lists of infos.
#include <criterion/criterion.h>

#include <cstring>

#include <pmix.h>

Test(info_list, add_xfer_insert_convert)
{
    void *list = PMIx_Info_list_start();
    cr_assert_not_null(list);
    uint32_t nprocs = 4;
    cr_expect_eq(PMIx_Info_list_add(list, PMIX_JOB_SIZE, &nprocs, PMIX_UINT32), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Info_list_add(list, PMIX_COLLECT_DATA, nullptr, PMIX_BOOL), PMIX_SUCCESS);

    pmix_info_t source;
    PMIx_Info_load(&source, PMIX_HOSTNAME, "node7", PMIX_STRING);
    cr_expect_eq(PMIx_Info_list_xfer(list, &source), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&source);  // the list holds its own copy

    pmix_info_t lent;
    PMIx_Info_load(&lent, PMIX_NSPACE, "caller-owned", PMIX_STRING);
    char *caller_string = lent.value.data.string;
    cr_expect_eq(PMIx_Info_list_insert(list, &lent), PMIX_SUCCESS);

    pmix_data_array_t array;
    cr_assert_eq(PMIx_Info_list_convert(list, &array), PMIX_SUCCESS);
    PMIx_Info_list_release(list);

    cr_assert_eq(array.type, PMIX_INFO);
    cr_assert_eq(array.size, 4u);
    auto infos = static_cast<pmix_info_t *>(array.array);
    cr_expect_str_eq(infos[0].key, "pmix.job.size");
    cr_expect_eq(infos[0].value.data.uint32, 4u);
    cr_expect_str_eq(infos[1].key, PMIX_COLLECT_DATA);
    cr_expect(infos[1].value.data.flag);
    cr_expect_str_eq(infos[2].value.data.string, "node7");
    // Inserted data stays the caller's: still valid after the list is gone,
    // and shared (not copied) by the converted array.
    cr_expect_str_eq(caller_string, "caller-owned");
    cr_expect_eq(infos[3].value.data.string, caller_string);
    PMIx_Data_array_destruct(&array);
    cr_expect_str_eq(caller_string, "caller-owned");
    PMIX_INFO_DESTRUCT(&lent);
}

Test(info_list, empty_and_bad_arguments)
{
    void *list = PMIx_Info_list_start();
    pmix_data_array_t array;
    cr_expect_eq(PMIx_Info_list_convert(list, &array), PMIX_ERR_EMPTY);
    cr_expect_null(array.array);
    cr_expect_eq(PMIx_Info_list_convert(list, nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Info_list_convert(nullptr, &array), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Info_list_add(nullptr, "k", "v", PMIX_STRING), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Info_list_add(list, nullptr, "v", PMIX_STRING), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Info_list_add(list, "k", "v", 31000), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect_eq(PMIx_Info_list_insert(list, nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Info_list_xfer(list, nullptr), PMIX_ERR_BAD_PARAM);
    int not_a_list[16] = {0};
    cr_expect_eq(PMIx_Info_list_add(not_a_list, "k", "v", PMIX_STRING), PMIX_ERR_BAD_PARAM);
    PMIx_Info_list_release(not_a_list);
    PMIx_Info_list_release(nullptr);
    cr_expect_eq(PMIx_Info_list_convert(list, &array), PMIX_ERR_EMPTY, "failed adds add nothing");
    PMIx_Info_list_release(list);
}

Test(info_list, many_entries)
{
    void *list = PMIx_Info_list_start();
    for (int i = 0; i < 1000; ++i) {
        char key[32];
        snprintf(key, sizeof(key), "key.%d", i);
        cr_assert_eq(PMIx_Info_list_add(list, key, &i, PMIX_INT), PMIX_SUCCESS);
    }
    pmix_data_array_t array;
    cr_assert_eq(PMIx_Info_list_convert(list, &array), PMIX_SUCCESS);
    cr_expect_eq(array.size, 1000u);
    cr_expect_eq(static_cast<pmix_info_t *>(array.array)[999].value.data.integer, 999);
    PMIx_Data_array_destruct(&array);
    PMIx_Info_list_release(list);
}
