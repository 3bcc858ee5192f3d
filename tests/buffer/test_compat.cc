// Behaviour aligned with OpenPMIx 4.2 after differential probes: integer
// types of one wire width unpack as each other, unpacked infos are owned by
// the receiver, pointers travel inside values as NULL, and a failed unpack
// reports zero values.
#include <criterion/criterion.h>

#include <cstdint>

#include "buffer/samples.h"
#include "buffer/test_helpers.h"
#include "common/values/type_ops.h"

namespace {

struct TypePair {
    pmix_data_type_t packed;
    pmix_data_type_t wanted;
    size_t width;
};

// Pairs OpenPMIx 4.2.2 unpacks with the right value (checked with a probe
// against Debian's libpmix2); the reverse direction of each is tested too.
constexpr TypePair kAliases[] = {
    {PMIX_INT, PMIX_INT32, 4},          {PMIX_UINT, PMIX_UINT32, 4},
    {PMIX_SIZE, PMIX_UINT64, 8},        {PMIX_PID, PMIX_UINT32, 4},
    {PMIX_PID, PMIX_INT32, 4},          {PMIX_STATUS, PMIX_INT32, 4},
    {PMIX_PROC_RANK, PMIX_UINT32, 4},   {PMIX_INFO_DIRECTIVES, PMIX_UINT32, 4},
    {PMIX_DATA_TYPE, PMIX_UINT16, 2},   {PMIX_INT16, PMIX_UINT16, 2},
    {PMIX_BYTE, PMIX_UINT8, 1},         {PMIX_INT8, PMIX_UINT8, 1},
    {PMIX_INT64, PMIX_UINT64, 8},       {PMIX_TIME, PMIX_UINT64, 8},
    {PMIX_BOOL, PMIX_UINT8, 1},         {PMIX_PERSIST, PMIX_UINT8, 1},
    {PMIX_SCOPE, PMIX_UINT8, 1},        {PMIX_PROC_STATE, PMIX_UINT8, 1},
    {PMIX_JOB_STATE, PMIX_UINT8, 1},    {PMIX_DATA_RANGE, PMIX_UINT8, 1},
    {PMIX_LINK_STATE, PMIX_UINT8, 1},   {PMIX_ALLOC_DIRECTIVE, PMIX_UINT8, 1},
    {PMIX_IOF_CHANNEL, PMIX_UINT16, 2}, {PMIX_LOCTYPE, PMIX_UINT16, 2},
    {PMIX_DEVTYPE, PMIX_UINT64, 8},     {PMIX_STOR_MEDIUM, PMIX_UINT64, 8},
};

pmix_status_t pack_then_unpack(pmix_data_type_t packed, const void *in, pmix_data_type_t wanted, void *out,
                               int32_t *n_inout)
{
    ScopedBuffer b;
    pmix_status_t rc = PMIx_Data_pack(nullptr, b.get(), const_cast<void *>(in), 1, packed);
    cr_assert_eq(rc, PMIX_SUCCESS, "pack %s", PMIx_Data_type_string(packed));
    return PMIx_Data_unpack(nullptr, b.get(), out, n_inout, wanted);
}

void expect_alias(pmix_data_type_t packed, pmix_data_type_t wanted, size_t width)
{
    unsigned char in[8] = {1};  // the number 1 at any width (and a valid bool)
    unsigned char out[16];
    memset(out, 0xEE, sizeof out);
    int32_t n = 1;
    cr_expect_eq(pack_then_unpack(packed, in, wanted, out, &n), PMIX_SUCCESS, "%s as %s", PMIx_Data_type_string(packed),
                 PMIx_Data_type_string(wanted));
    cr_expect_eq(n, 1);
    cr_expect_eq(memcmp(out, in, width), 0, "%s as %s: value", PMIx_Data_type_string(packed),
                 PMIx_Data_type_string(wanted));
    cr_expect_eq(out[width], 0xEE, "%s as %s wrote past its element", PMIx_Data_type_string(packed),
                 PMIx_Data_type_string(wanted));
}

void expect_mismatch(pmix_data_type_t packed, pmix_data_type_t wanted)
{
    void *in = samples::make(packed);
    unsigned char out[64] = {};
    int32_t n = 1;
    cr_expect_eq(pack_then_unpack(packed, in, wanted, out, &n), PMIX_ERR_PACK_MISMATCH, "%s as %s",
                 PMIx_Data_type_string(packed), PMIx_Data_type_string(wanted));
    cr_expect_eq(n, 0);
    samples::release(in, packed);
}

}  // namespace

Test(buffer_compat, same_width_integer_types_unpack_as_each_other)
{
    for (const TypePair &pair : kAliases) {
        expect_alias(pair.packed, pair.wanted, pair.width);
        expect_alias(pair.wanted, pair.packed, pair.width);
    }
}

Test(buffer_compat, alias_keeps_the_bit_pattern_and_the_count)
{
    int values[3] = {-1, 7, INT32_MIN};
    uint32_t out[3] = {};
    int32_t n = 3;
    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), values, 3, PMIX_INT), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), out, &n, PMIX_UINT32), PMIX_SUCCESS);
    cr_expect_eq(n, 3);
    cr_expect_eq(out[0], 0xFFFFFFFFu);
    cr_expect_eq(out[1], 7u);
    cr_expect_eq(out[2], 0x80000000u);
}

Test(buffer_compat, other_type_differences_stay_mismatches)
{
    expect_mismatch(PMIX_STRING, PMIX_INT32);
    expect_mismatch(PMIX_INT32, PMIX_STRING);
    expect_mismatch(PMIX_INT32, PMIX_INT64);  // widths differ
    expect_mismatch(PMIX_UINT8, PMIX_UINT16);
    expect_mismatch(PMIX_UINT32, PMIX_FLOAT);  // same width, not an integer
    expect_mismatch(PMIX_UINT64, PMIX_DOUBLE);
    expect_mismatch(PMIX_UINT64, PMIX_BYTE_OBJECT);
    expect_mismatch(PMIX_UINT32, PMIX_PROC);
}

Test(buffer_compat, uint8_that_is_not_a_bool_does_not_unpack_as_bool)
{
    uint8_t seven = 7;
    bool out = false;
    int32_t n = 1;
    cr_expect_eq(pack_then_unpack(PMIX_UINT8, &seven, PMIX_BOOL, &out, &n), PMIX_ERR_UNPACK_FAILURE);
    cr_expect_eq(n, 0);
}

// A client that used PMIx_Info_list_insert sends infos flagged persistent;
// the receiver's copies must still be freed by PMIX_INFO_DESTRUCT.
Test(buffer_compat, unpacked_infos_are_never_persistent)
{
    static char text[] = "sender-owned";
    pmix_info_t inner[2];
    memset(inner, 0, sizeof inner);
    for (pmix_info_t &info : inner) {
        strcpy(info.key, "inner");
        info.flags = PMIX_INFO_PERSISTENT;
        info.value.type = PMIX_STRING;
        info.value.data.string = text;
    }
    pmix_data_array_t nested{PMIX_INFO, 2, inner};
    pmix_info_t outer[2];
    memset(outer, 0, sizeof outer);
    strcpy(outer[0].key, "outer.string");
    outer[0].flags = PMIX_INFO_PERSISTENT | PMIX_INFO_REQD;
    outer[0].value.type = PMIX_STRING;
    outer[0].value.data.string = text;
    strcpy(outer[1].key, "outer.array");
    outer[1].flags = PMIX_INFO_PERSISTENT;
    outer[1].value.type = PMIX_DATA_ARRAY;
    outer[1].value.data.darray = &nested;

    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), outer, 2, PMIX_INFO), PMIX_SUCCESS);
    pmix_info_t out[2];
    memset(out, 0, sizeof out);
    int32_t n = 2;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), out, &n, PMIX_INFO), PMIX_SUCCESS);

    cr_expect_eq(out[0].flags, PMIX_INFO_REQD, "other directives survive");
    cr_expect_eq(out[1].flags & PMIX_INFO_PERSISTENT, 0u);
    cr_expect_str_eq(out[0].value.data.string, "sender-owned");
    cr_expect_neq(out[0].value.data.string, text);
    const pmix_data_array_t *got = out[1].value.data.darray;
    cr_assert_eq(got->size, 2u);
    for (size_t i = 0; i < got->size; ++i) {
        cr_expect_eq(static_cast<const pmix_info_t *>(got->array)[i].flags & PMIX_INFO_PERSISTENT, 0u,
                     "nested info %zu", i);
    }
    // Frees everything (valgrind: no leak); with the flag kept it freed nothing.
    pmixpp::values::destruct_element(&out[0], PMIX_INFO);
    pmixpp::values::destruct_element(&out[1], PMIX_INFO);
}

Test(buffer_compat, pointer_inside_a_value_travels_as_null)
{
    int target = 0;
    pmix_info_t in[2];
    memset(in, 0, sizeof in);
    strcpy(in[0].key, "p");
    in[0].value.type = PMIX_POINTER;
    in[0].value.data.ptr = &target;
    strcpy(in[1].key, "s");
    in[1].value.type = PMIX_STRING;
    in[1].value.data.string = const_cast<char *>("x");

    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), in, 2, PMIX_INFO), PMIX_SUCCESS);
    pmix_info_t out[2];
    memset(out, 0xAB, sizeof out);
    int32_t n = 2;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), out, &n, PMIX_INFO), PMIX_SUCCESS);
    cr_expect_eq(n, 2);
    cr_expect_eq(out[0].value.type, PMIX_POINTER);
    cr_expect_null(out[0].value.data.ptr);
    cr_expect_str_eq(out[1].value.data.string, "x");
    cr_expect_eq(b.buf.unpack_ptr, b.buf.base_ptr + b.buf.bytes_used, "nothing left over");
    pmixpp::values::destruct_element(&out[0], PMIX_INFO);
    pmixpp::values::destruct_element(&out[1], PMIX_INFO);
}

Test(buffer_compat, pointer_inside_a_data_array_of_values)
{
    pmix_value_t items[2];
    memset(items, 0, sizeof items);
    items[0].type = PMIX_POINTER;
    items[0].data.ptr = items;
    items[1].type = PMIX_UINT32;
    items[1].data.uint32 = 42;
    pmix_data_array_t array{PMIX_VALUE, 2, items};
    pmix_value_t val;
    memset(&val, 0, sizeof val);
    val.type = PMIX_DATA_ARRAY;
    val.data.darray = &array;

    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &val, 1, PMIX_VALUE), PMIX_SUCCESS);
    pmix_value_t out;
    memset(&out, 0, sizeof out);
    int32_t n = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), &out, &n, PMIX_VALUE), PMIX_SUCCESS);
    const auto *got = static_cast<const pmix_value_t *>(out.data.darray->array);
    cr_expect_eq(got[0].type, PMIX_POINTER);
    cr_expect_null(got[0].data.ptr);
    cr_expect_eq(got[1].data.uint32, 42u);
    pmixpp::values::destruct_element(&out, PMIX_VALUE);
}

Test(buffer_compat, top_level_pointer_group_is_still_refused)
{
    ScopedBuffer b;
    void *p = &b;
    cr_expect_eq(PMIx_Data_pack(nullptr, b.get(), &p, 1, PMIX_POINTER), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(b.buf.bytes_used, 0u);
}

Test(buffer_compat, failed_unpack_reports_zero_values)
{
    ScopedBuffer b;
    int32_t v[4] = {};
    int32_t n = 4;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), v, &n, PMIX_INT32), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
                 "empty buffer");
    cr_expect_eq(n, 0);

    n = -3;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), v, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(n, 0);

    int32_t three[3] = {1, 2, 3};
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), three, 3, PMIX_INT32), PMIX_SUCCESS);
    n = 2;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), v, &n, PMIX_INT32), PMIX_ERR_UNPACK_INADEQUATE_SPACE);
    cr_expect_eq(n, 0);
    cr_expect_eq(b.buf.unpack_ptr, b.buf.base_ptr, "too little room consumes nothing");
    cr_expect_eq(v[0], 0, "and writes nothing");
    n = 4;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), v, &n, PMIX_INT32), PMIX_SUCCESS);
    cr_expect_eq(n, 3);
    cr_expect_eq(v[2], 3);
}
