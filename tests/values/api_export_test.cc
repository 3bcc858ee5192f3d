// The value utilities are reachable through libpmix.so.2's export map.
#include <criterion/criterion.h>

#include <cstring>

#include <pmix.h>
#include <pmix_server.h>

Test(values_export, round_trip_through_the_shared_library)
{
    pmix_value_t val, copy;
    cr_assert_eq(PMIx_Value_load(&val, "hello", PMIX_STRING), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Value_xfer(&copy, &val), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Value_compare(&val, &copy), PMIX_EQUAL);
    PMIx_Value_destruct(&val);
    PMIx_Value_destruct(&copy);

    void *list = PMIx_Info_list_start();
    cr_assert_not_null(list);
    cr_expect_eq(PMIx_Info_list_add(list, PMIX_JOB_SIZE, nullptr, PMIX_UINT32), PMIX_SUCCESS);
    pmix_data_array_t array;
    cr_expect_eq(PMIx_Info_list_convert(list, &array), PMIX_SUCCESS);
    PMIx_Data_array_destruct(&array);
    PMIx_Info_list_release(list);

    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_BAD_PARAM), "BAD-PARAM");
    cr_expect_str_eq(PMIx_Get_attribute_string("PMIX_JOB_SIZE"), "pmix.job.size");
    cr_expect_gt(PMIx_Get_version()[0], '2');
    char fn[] = "query";
    char *attrs[] = {nullptr};
    cr_expect_eq(PMIx_Register_attributes(fn, attrs), PMIX_SUCCESS);
}
