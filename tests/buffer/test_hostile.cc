// Wrong types, truncated and malformed input: always an error, never a crash,
// and a failed unpack leaves the buffer where it was.
#include <criterion/criterion.h>

#include <hwloc.h>

#include "buffer/samples.h"
#include "buffer/test_helpers.h"
#include "common/values/type_ops.h"

Test(buffer_hostile, type_mismatch_is_reported_and_not_consumed)
{
    ScopedBuffer b;
    int32_t v = 5;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &v, 1, PMIX_INT32), PMIX_SUCCESS);
    int64_t wrong;
    int32_t n = 1;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), &wrong, &n, PMIX_INT64), PMIX_ERR_PACK_MISMATCH);
    cr_expect_eq(n, 0, "a failed unpack reports zero values");
    char *s = nullptr;
    n = 1;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), &s, &n, PMIX_STRING), PMIX_ERR_PACK_MISMATCH);
    cr_expect_eq(n, 0);
    int32_t right = 0;
    n = 1;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), &right, &n, PMIX_INT32), PMIX_SUCCESS);
    cr_expect_eq(right, 5);
}

Test(buffer_hostile, group_larger_than_destination)
{
    ScopedBuffer b;
    uint8_t v[3] = {1, 2, 3};
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), v, 3, PMIX_UINT8), PMIX_SUCCESS);
    uint8_t out[3] = {};
    int32_t n = 2;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), out, &n, PMIX_UINT8), PMIX_ERR_UNPACK_INADEQUATE_SPACE);
    cr_expect_eq(out[0], 0);
    n = 3;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), out, &n, PMIX_UINT8), PMIX_SUCCESS);
    cr_expect_eq(out[2], 3);
}

Test(buffer_hostile, bad_parameters)
{
    ScopedBuffer b;
    int32_t v = 1;
    int32_t n = 1;
    cr_expect_eq(PMIx_Data_pack(nullptr, nullptr, &v, 1, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Data_pack(nullptr, b.get(), &v, -1, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Data_pack(nullptr, b.get(), nullptr, 1, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), &v, nullptr, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    n = 0;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), &v, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    n = 1;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), &v, &n, PMIX_INT32), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    void *p = &v;
    cr_expect_eq(PMIx_Data_pack(nullptr, b.get(), &p, 1, PMIX_POINTER), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(PMIx_Data_pack(nullptr, b.get(), &v, 1, 400), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect_eq(b.buf.bytes_used, 0u);
}

Test(buffer_hostile, inconsistent_buffer_fields_are_rejected)
{
    ScopedBuffer b;
    int32_t v = 1;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &v, 1, PMIX_INT32), PMIX_SUCCESS);
    char *saved = b.buf.unpack_ptr;
    b.buf.unpack_ptr = b.buf.base_ptr + b.buf.bytes_used + 1;
    int32_t n = 1;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), &v, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    b.buf.unpack_ptr = saved;
}

// Packs a sample of type, then offers every proper prefix to unpack.
static void check_all_truncations(pmix_data_type_t t)
{
    void *sample = samples::make(t);
    ScopedBuffer full;
    cr_assert_eq(PMIx_Data_pack(nullptr, full.get(), sample, 1, t), PMIX_SUCCESS);
    samples::release(sample, t);
    std::string bytes = full.bytes();
    for (size_t len = 0; len < bytes.size(); ++len) {
        ScopedBuffer cut;
        cut.assign(bytes.substr(0, len));
        void *dest = pmixpp::values::alloc_elements(t, 1);
        int32_t n = 1;
        pmix_status_t rc = PMIx_Data_unpack(nullptr, cut.get(), dest, &n, t);
        cr_expect_neq(rc, PMIX_SUCCESS, "%s cut at %zu of %zu unpacked", PMIx_Data_type_string(t), len, bytes.size());
        cr_expect_eq(cut.buf.unpack_ptr, cut.buf.base_ptr);
        pmixpp::values::free_elements(dest, 1, t);
    }
}

Test(buffer_hostile, every_truncation_of_every_composite_fails)
{
    for (pmix_data_type_t t : samples::composite_types()) {
        check_all_truncations(t);
    }
}

static pmix_status_t unpack_raw(const std::string &raw, pmix_data_type_t t)
{
    ScopedBuffer b;
    b.assign(raw);
    void *dest = pmixpp::values::alloc_elements(t, 4);
    int32_t n = 4;
    pmix_status_t rc = PMIx_Data_unpack(nullptr, b.get(), dest, &n, t);
    pmixpp::values::free_elements(dest, rc == PMIX_SUCCESS ? static_cast<size_t>(n) : 0, t);
    return rc;
}

Test(buffer_hostile, huge_length_fields_fail_fast)
{
    std::string tail(64, 'x');
    // a 4 GiB string
    cr_expect_eq(unpack_raw(le16(PMIX_STRING) + le32(1) + le32(0xFFFFFFFF) + tail, PMIX_STRING),
                 PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    // a 2^62-byte byte object
    cr_expect_eq(unpack_raw(le16(PMIX_BYTE_OBJECT) + le32(1) + le64(1ULL << 62) + tail, PMIX_BYTE_OBJECT),
                 PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    // 4 billion infos in the group header
    cr_expect_eq(unpack_raw(le16(PMIX_INFO) + le32(0xFFFFFFFF) + tail, PMIX_INFO),
                 PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    // a data array announcing 4 billion values
    cr_expect_eq(
        unpack_raw(le16(PMIX_DATA_ARRAY) + le32(1) + le16(PMIX_VALUE) + le32(0xFFFFFFFF) + tail, PMIX_DATA_ARRAY),
        PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    // an argv announcing 4 billion strings
    cr_expect_eq(unpack_raw(le16(PMIX_QUERY) + le32(1) + le32(0xFFFFFFFF) + tail, PMIX_QUERY),
                 PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
}

Test(buffer_hostile, malformed_fields_are_rejected)
{
    // bool that is neither 0 nor 1
    cr_expect_eq(unpack_raw(le16(PMIX_BOOL) + le32(1) + std::string(1, '\x07'), PMIX_BOOL), PMIX_ERR_UNPACK_FAILURE);
    // string with an embedded NUL
    cr_expect_eq(unpack_raw(le16(PMIX_STRING) + le32(1) + le32(4) + std::string("a\0b", 3), PMIX_STRING),
                 PMIX_ERR_UNPACK_FAILURE);
    // nspace longer than PMIX_MAX_NSLEN
    cr_expect_eq(unpack_raw(le16(PMIX_PROC) + le32(1) + le32(301) + std::string(300, 'n') + le32(0), PMIX_PROC),
                 PMIX_ERR_UNPACK_FAILURE);
    // a value of an unknown type
    cr_expect_eq(unpack_raw(le16(PMIX_VALUE) + le32(1) + le16(499) + le32(0), PMIX_VALUE), PMIX_ERR_UNKNOWN_DATA_TYPE);
    // a value of a type that no value can hold (PMIX_KVAL is OpenPMIx-internal)
    cr_expect_neq(unpack_raw(le16(PMIX_VALUE) + le32(1) + le16(PMIX_KVAL) + le64(0), PMIX_VALUE), PMIX_SUCCESS);
}

Test(buffer_hostile, nesting_bomb_is_bounded)
{
    // 100000 data arrays each holding one data array: far past the depth limit.
    std::string raw = le16(PMIX_DATA_ARRAY) + le32(1);
    for (int i = 0; i < 100000; ++i) {
        raw += le16(PMIX_DATA_ARRAY) + le32(1);
    }
    raw += le16(PMIX_INT32) + le32(0);
    cr_expect_eq(unpack_raw(raw, PMIX_DATA_ARRAY), PMIX_ERR_UNPACK_FAILURE);
}

Test(buffer_hostile, deep_but_legal_nesting_unpacks)
{
    std::string raw = le16(PMIX_DATA_ARRAY) + le32(1);
    for (int i = 0; i < 20; ++i) {
        raw += le16(PMIX_DATA_ARRAY) + le32(1);
    }
    raw += le16(PMIX_INT32) + le32(0);
    cr_expect_eq(unpack_raw(raw, PMIX_DATA_ARRAY), PMIX_SUCCESS);
}

// The packed form of a hwloc cpuset "hwloc" / `list`, made by packing 0-3
// and swapping the list text (its length field too).
static std::string packed_cpuset_with_list(const std::string &list)
{
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    cpuset.source = strdup("hwloc");
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    hwloc_bitmap_set_range(bitmap, 0, 3);
    cpuset.bitmap = bitmap;
    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &cpuset, 1, PMIX_PROC_CPUSET), PMIX_SUCCESS);
    PMIx_Cpuset_destruct(&cpuset);
    std::string raw = b.bytes();
    const std::size_t at = raw.rfind(std::string("0-3"));
    cr_assert(at != std::string::npos && at >= 4, "no list text in the packed cpuset");
    uint32_t length = 0;
    std::memcpy(&length, raw.data() + at - 4, 4);
    length = static_cast<uint32_t>(length - 3 + list.size());
    return raw.substr(0, at - 4) + le32(length) + list + raw.substr(at + 3);
}

// A peer's cpuset list is bounded before hwloc sizes a bitmap after it:
// "0-4000000000" would take half a gigabyte, "4-" is endless.
Test(buffer_hostile, unbounded_cpuset_lists_are_refused)
{
    cr_expect_eq(unpack_raw(packed_cpuset_with_list("0-7"), PMIX_PROC_CPUSET), PMIX_SUCCESS, "the splice works");
    for (const char *list : {"0-4000000000", "4-", "0+-3", "65536"}) {
        cr_expect_eq(unpack_raw(packed_cpuset_with_list(list), PMIX_PROC_CPUSET), PMIX_ERR_UNPACK_FAILURE, "%s", list);
    }
}
