// Every packable type survives pack -> unpack -> pack with identical bytes.
#include <criterion/criterion.h>
#include <hwloc.h>

#include <cfloat>
#include <climits>

#include "buffer/samples.h"
#include "buffer/test_helpers.h"
#include "common/buffer/buffer.h"
#include "common/buffer/codec.h"
#include "common/values/type_ops.h"

Test(buffer_roundtrip, codec_element_sizes_match_the_values_table)
{
    for (pmix_data_type_t t : samples::packable_types()) {
        cr_expect_eq(pmixpp::buffer::find_codec(t)->element_size, pmixpp::values::element_size(t), "type %s",
                     PMIx_Data_type_string(t));
    }
    cr_expect_geq(samples::packable_types().size(), 60u);
}

static void check_roundtrip(pmix_data_type_t t, int32_t n)
{
    size_t size = pmixpp::values::element_size(t);
    void *src = pmixpp::values::alloc_elements(t, static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) {
        void *one = samples::make(t);
        memcpy(static_cast<char *>(src) + i * size, one, size);  // moves ownership
        free(one);
    }
    ScopedBuffer first;
    cr_assert_eq(PMIx_Data_pack(nullptr, first.get(), src, n, t), PMIX_SUCCESS, "pack %s", PMIx_Data_type_string(t));

    void *dest = pmixpp::values::alloc_elements(t, static_cast<size_t>(n) + 1);
    int32_t count = n + 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, first.get(), dest, &count, t), PMIX_SUCCESS, "unpack %s",
                 PMIx_Data_type_string(t));
    cr_assert_eq(count, n);
    cr_expect_eq(first.buf.unpack_ptr, first.buf.base_ptr + first.buf.bytes_used);

    if (t == PMIX_TOPO) {
        auto *a = static_cast<pmix_topology_t *>(src);
        auto *b = static_cast<pmix_topology_t *>(dest);
        cr_expect_str_eq(b->source, "hwloc");
        cr_expect_eq(hwloc_get_nbobjs_by_type(static_cast<hwloc_topology_t>(b->topology), HWLOC_OBJ_PU),
                     hwloc_get_nbobjs_by_type(static_cast<hwloc_topology_t>(a->topology), HWLOC_OBJ_PU));
    } else {
        ScopedBuffer second;
        cr_assert_eq(PMIx_Data_pack(nullptr, second.get(), dest, n, t), PMIX_SUCCESS);
        cr_expect(first.bytes() == second.bytes(), "bytes differ for %s", PMIx_Data_type_string(t));
    }
    pmixpp::values::free_elements(src, static_cast<size_t>(n), t);
    pmixpp::values::free_elements(dest, static_cast<size_t>(n) + 1, t);
}

Test(buffer_roundtrip, every_type_one_and_three_elements)
{
    for (pmix_data_type_t t : samples::packable_types()) {
        check_roundtrip(t, 1);
        check_roundtrip(t, 3);
    }
}

Test(buffer_roundtrip, scalar_edge_values)
{
    ScopedBuffer b;
    int64_t i64[] = {INT64_MIN, -1, INT64_MAX};
    double d[] = {-0.0, DBL_MAX, 1e-300};
    bool flags[] = {true, false};
    char *strs[] = {nullptr, const_cast<char *>(""), const_cast<char *>("x y")};
    pmix_rank_t ranks[] = {PMIX_RANK_WILDCARD, 0};
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), i64, 3, PMIX_INT64), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), d, 3, PMIX_DOUBLE), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), flags, 2, PMIX_BOOL), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), strs, 3, PMIX_STRING), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), ranks, 2, PMIX_PROC_RANK), PMIX_SUCCESS);

    int64_t i64_out[3];
    double d_out[3];
    bool flags_out[2];
    char *strs_out[3];
    pmix_rank_t ranks_out[2];
    int32_t n = 3;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), i64_out, &n, PMIX_INT64), PMIX_SUCCESS);
    cr_expect(memcmp(i64, i64_out, sizeof i64) == 0);
    n = 3;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), d_out, &n, PMIX_DOUBLE), PMIX_SUCCESS);
    cr_expect(memcmp(d, d_out, sizeof d) == 0);
    n = 2;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), flags_out, &n, PMIX_BOOL), PMIX_SUCCESS);
    cr_expect(flags_out[0] && !flags_out[1]);
    n = 3;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), strs_out, &n, PMIX_STRING), PMIX_SUCCESS);
    cr_expect_null(strs_out[0]);
    cr_expect_str_eq(strs_out[1], "");
    cr_expect_str_eq(strs_out[2], "x y");
    for (char *s : strs_out) {
        free(s);
    }
    n = 2;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), ranks_out, &n, PMIX_PROC_RANK), PMIX_SUCCESS);
    cr_expect_eq(ranks_out[0], PMIX_RANK_WILDCARD);
    n = 1;
    cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), ranks_out, &n, PMIX_PROC_RANK),
                 PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
}

Test(buffer_roundtrip, wire_format_is_little_endian_and_tagged)
{
    ScopedBuffer b;
    uint32_t v = 0x01020304;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &v, 1, PMIX_UINT32), PMIX_SUCCESS);
    cr_expect(b.bytes() == le16(PMIX_UINT32) + le32(1) + le32(0x01020304));
}

// data array of data arrays of ... of int32, four levels deep
static pmix_data_array_t *nest(unsigned levels)
{
    auto *da = static_cast<pmix_data_array_t *>(calloc(1, sizeof(pmix_data_array_t)));
    if (levels == 0) {
        da->type = PMIX_INT32;
        da->size = 2;
        auto *ints = static_cast<int32_t *>(calloc(2, sizeof(int32_t)));
        ints[0] = 11;
        ints[1] = 22;
        da->array = ints;
        return da;
    }
    da->type = PMIX_DATA_ARRAY;
    da->size = 2;
    auto *kids = static_cast<pmix_data_array_t *>(calloc(2, sizeof(pmix_data_array_t)));
    for (int i = 0; i < 2; ++i) {
        pmix_data_array_t *kid = nest(levels - 1);
        kids[i] = *kid;
        free(kid);
    }
    da->array = kids;
    return da;
}

Test(buffer_roundtrip, nested_data_arrays_four_levels)
{
    pmix_data_array_t *top = nest(4);
    pmix_value_t val;
    memset(&val, 0, sizeof val);
    val.type = PMIX_DATA_ARRAY;
    val.data.darray = top;

    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &val, 1, PMIX_VALUE), PMIX_SUCCESS);
    pmix_value_t out;
    memset(&out, 0, sizeof out);
    int32_t n = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), &out, &n, PMIX_VALUE), PMIX_SUCCESS);
    cr_assert_eq(out.type, PMIX_DATA_ARRAY);
    const pmix_data_array_t *level = out.data.darray;
    for (int depth = 0; depth < 4; ++depth) {
        cr_assert_eq(level->type, PMIX_DATA_ARRAY);
        cr_assert_eq(level->size, 2u);
        level = static_cast<const pmix_data_array_t *>(level->array) + 1;
    }
    cr_assert_eq(level->type, PMIX_INT32);
    cr_expect_eq(static_cast<const int32_t *>(level->array)[1], 22);
    pmixpp::values::destruct_element(&val, PMIX_VALUE);
    pmixpp::values::destruct_element(&out, PMIX_VALUE);
}

Test(buffer_roundtrip, internal_typed_helpers)
{
    ScopedBuffer b;
    cr_assert_eq(pmixpp::buffer::pack_one(b.get(), uint16_t{7}, PMIX_UINT16), PMIX_SUCCESS);
    pmix_data_type_t next;
    cr_assert_eq(pmixpp::buffer::peek_type(b.get(), &next), PMIX_SUCCESS);
    cr_expect_eq(next, PMIX_UINT16);
    uint16_t out = 0;
    cr_assert_eq(pmixpp::buffer::unpack_one(b.get(), &out, PMIX_UINT16), PMIX_SUCCESS);
    cr_expect_eq(out, 7);
}
