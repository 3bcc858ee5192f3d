// PMIx_Value_load/unload/xfer/compare/destruct for every type a value holds.
#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include <pmix.h>

#include "common/values/type_ops.h"
#include "common/values/type_table.h"
#include "values/samples.h"

using namespace pmixpp::values;

namespace {

// Types whose unload copies into storage the caller provides.
bool unloads_into_caller_storage(pmix_data_type_t type)
{
    const TypeTraits *traits = find_element_type(type);
    return PMIX_POINTER != type && (nullptr == traits->copy || PMIX_PROC_NSPACE == type);
}

bool unloads_raw_bytes(pmix_data_type_t type)
{
    return PMIX_STRING == type || PMIX_BYTE_OBJECT == type || PMIX_COMPRESSED_STRING == type ||
           PMIX_COMPRESSED_BYTE_OBJECT == type || PMIX_REGEX == type;
}

void check_unload(pmix_value_t *val, const void *sample, pmix_data_type_t type)
{
    const TypeTraits *traits = find_element_type(type);
    samples::Storage storage{};
    void *data = storage.bytes;
    size_t size = 0;
    cr_assert_eq(PMIx_Value_unload(val, &data, &size), PMIX_SUCCESS, "type %u", type);
    if (PMIX_POINTER == type) {
        cr_expect_eq(data, *static_cast<void *const *>(sample));
        return;
    }
    if (unloads_into_caller_storage(type)) {
        cr_expect_eq(data, storage.bytes);
        cr_expect_eq(traits->compare(data, sample), PMIX_EQUAL, "type %u", type);
        return;
    }
    cr_assert_neq(data, storage.bytes, "type %u must allocate", type);
    if (PMIX_STRING == type) {
        cr_expect_str_eq(static_cast<char *>(data), *static_cast<char *const *>(sample));
        cr_expect_eq(size, std::strlen(static_cast<char *>(data)));
    } else if (unloads_raw_bytes(type)) {
        auto bo = static_cast<const pmix_byte_object_t *>(sample);
        cr_expect_eq(size, bo->size);
        cr_expect_eq(0, std::memcmp(data, bo->bytes, size));
    } else {
        cr_expect_eq(size, traits->size);
        cr_expect_eq(traits->compare(data, sample), PMIX_EQUAL, "type %u", type);
        destruct_element(data, type);
    }
    std::free(data);
}

}  // namespace

Test(value, round_trip_every_type)
{
    for (pmix_data_type_t type : samples::element_types()) {
        if (!samples::value_holds(type)) {
            continue;
        }
        samples::Storage s0{}, s1{};
        samples::make(type, 0, s0.bytes);
        samples::make(type, 1, s1.bytes);
        pmix_value_t v0, v1, copy;
        cr_assert_eq(PMIx_Value_load(&v0, samples::load_argument(type, s0.bytes), type), PMIX_SUCCESS, "type %u", type);
        cr_assert_eq(PMIx_Value_load(&v1, samples::load_argument(type, s1.bytes), type), PMIX_SUCCESS, "type %u", type);
        cr_expect_eq(v0.type, type);
        cr_assert_eq(PMIx_Value_xfer(&copy, &v0), PMIX_SUCCESS, "type %u", type);
        cr_expect_eq(PMIx_Value_compare(&v0, &copy), PMIX_EQUAL, "type %u", type);
        cr_expect_neq(PMIx_Value_compare(&v0, &v1), PMIX_EQUAL, "type %u", type);
        check_unload(&copy, s0.bytes, type);
        PMIx_Value_destruct(&v0);
        cr_expect_eq(v0.type, PMIX_UNDEF);
        // The copy is independent of the released original.
        void *payload = value_payload(&copy, nullptr);
        if (PMIX_STRING != type && PMIX_REGEX != type && nullptr != payload) {
            cr_expect_eq(find_element_type(type)->compare(payload, s0.bytes), PMIX_EQUAL, "type %u", type);
        }
        PMIx_Value_destruct(&copy);
        PMIx_Value_destruct(&v1);
        PMIx_Value_destruct(&v1);  // idempotent
        destruct_element(s0.bytes, type);
        destruct_element(s1.bytes, type);
    }
}

Test(value, load_without_data)
{
    pmix_value_t val;
    cr_expect_eq(PMIx_Value_load(&val, nullptr, PMIX_BOOL), PMIX_SUCCESS);
    cr_expect(val.data.flag, "a bare boolean attribute means true");
    cr_expect_eq(PMIx_Value_load(&val, nullptr, PMIX_UINT64), PMIX_SUCCESS);
    cr_expect_eq(val.data.uint64, 0u);
    cr_expect_eq(PMIx_Value_load(&val, nullptr, PMIX_PROC), PMIX_SUCCESS);
    cr_expect_null(val.data.proc);
    pmix_value_t copy;
    cr_expect_eq(PMIx_Value_xfer(&copy, &val), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Value_compare(&val, &copy), PMIX_EQUAL);
    PMIx_Value_destruct(&val);
    PMIx_Value_destruct(&copy);
}

Test(value, bad_arguments)
{
    pmix_value_t val;
    int number = 3;
    cr_expect_eq(PMIx_Value_load(nullptr, &number, PMIX_INT), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Value_load(&val, &number, 29), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect_eq(val.type, PMIX_UNDEF);
    cr_expect_eq(PMIx_Value_load(&val, &number, PMIX_INFO), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(PMIx_Value_xfer(nullptr, &val), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Value_xfer(&val, nullptr), PMIX_ERR_BAD_PARAM);
    PMIx_Value_destruct(nullptr);

    cr_assert_eq(PMIx_Value_load(&val, &number, PMIX_INT), PMIX_SUCCESS);
    size_t size = 0;
    void *data = nullptr;
    cr_expect_eq(PMIx_Value_unload(&val, &data, &size), PMIX_ERR_BAD_PARAM, "an int needs caller storage");
    cr_expect_eq(PMIx_Value_unload(&val, nullptr, &size), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Value_unload(&val, &data, nullptr), PMIX_ERR_BAD_PARAM);
    int out = 0;
    data = &out;
    cr_expect_eq(PMIx_Value_unload(&val, &data, &size), PMIX_SUCCESS);
    cr_expect_eq(out, 3);
    cr_expect_eq(size, sizeof(int));

    pmix_value_t undef{};
    cr_expect_eq(PMIx_Value_unload(&undef, &data, &size), PMIX_ERR_UNKNOWN_DATA_TYPE);
    pmix_value_t garbage{};
    garbage.type = 333;
    cr_expect_eq(PMIx_Value_unload(&garbage, &data, &size), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect_eq(PMIx_Value_compare(&garbage, &garbage), PMIX_VALUE_COMPARISON_NOT_AVAIL);
    cr_expect_eq(PMIx_Value_compare(nullptr, &val), PMIX_VALUE_COMPARISON_NOT_AVAIL);
    cr_expect_eq(PMIx_Value_compare(&undef, &val), PMIX_VALUE_TYPE_DIFFERENT);
    cr_expect_eq(PMIx_Value_compare(&undef, &undef), PMIX_EQUAL);
    PMIx_Value_destruct(&val);
}

Test(value, pointer_is_stored_not_copied)
{
    int target = 5;
    pmix_value_t val, copy;
    cr_assert_eq(PMIx_Value_load(&val, &target, PMIX_POINTER), PMIX_SUCCESS);
    cr_expect_eq(val.data.ptr, &target);
    cr_assert_eq(PMIx_Value_xfer(&copy, &val), PMIX_SUCCESS);
    cr_expect_eq(copy.data.ptr, &target);
    PMIx_Value_destruct(&val);
    PMIx_Value_destruct(&copy);
    cr_expect_eq(target, 5);
}

Test(value, short_nspace_string_is_bounded)
{
    // A namespace loaded from a short literal must not be read past its end.
    pmix_value_t val;
    cr_assert_eq(PMIx_Value_load(&val, "job1", PMIX_PROC_NSPACE), PMIX_SUCCESS);
    cr_expect_str_eq(*val.data.nspace, "job1");
    pmix_nspace_t out;
    void *data = out;
    size_t size = 0;
    cr_expect_eq(PMIx_Value_unload(&val, &data, &size), PMIX_SUCCESS);
    cr_expect_str_eq(out, "job1");
    cr_expect_eq(size, 4u);
    PMIx_Value_destruct(&val);
}

Test(value, data_array_destruct)
{
    pmix_data_array_t array{PMIX_STRING, 2, alloc_elements(PMIX_STRING, 2)};
    static_cast<char **>(array.array)[0] = strdup("a");
    static_cast<char **>(array.array)[1] = strdup("b");
    PMIx_Data_array_destruct(&array);
    cr_expect_null(array.array);
    cr_expect_eq(array.size, 0u);
    PMIx_Data_array_destruct(nullptr);
    PMIx_Data_array_destruct(&array);
}

Test(value, info_load_and_xfer)
{
    pmix_info_t info, copy;
    uint32_t size = 16;
    cr_assert_eq(PMIx_Info_load(&info, PMIX_JOB_SIZE, &size, PMIX_UINT32), PMIX_SUCCESS);
    cr_expect_str_eq(info.key, "pmix.job.size");
    cr_expect_eq(info.flags, 0u);
    cr_assert_eq(PMIx_Info_xfer(&copy, &info), PMIX_SUCCESS);
    cr_expect_str_eq(copy.key, info.key);
    cr_expect_eq(copy.value.data.uint32, 16u);
    cr_expect_eq(PMIx_Info_load(nullptr, "k", &size, PMIX_UINT32), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Info_load(&info, nullptr, &size, PMIX_UINT32), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Info_xfer(nullptr, &info), PMIX_ERR_BAD_PARAM);
    std::string long_key(2000, 'k');
    cr_assert_eq(PMIx_Info_load(&info, long_key.c_str(), "v", PMIX_STRING), PMIX_SUCCESS);
    cr_expect_eq(std::strlen(info.key), static_cast<size_t>(PMIX_MAX_KEYLEN));
    PMIX_INFO_DESTRUCT(&info);
    PMIX_INFO_DESTRUCT(&copy);
}
