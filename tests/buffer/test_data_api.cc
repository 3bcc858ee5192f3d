// PMIx_Data_copy, copy_payload, load/unload/embed, print, Value/Info_string,
// compress/decompress.
#include <criterion/criterion.h>

#include <vector>

#include "buffer/samples.h"
#include "buffer/test_helpers.h"
#include "common/values/type_ops.h"

Test(buffer_api, copy_string_takes_the_string_itself)
{
    void *out = nullptr;
    char text[] = "copy me";
    cr_assert_eq(PMIx_Data_copy(&out, text, PMIX_STRING), PMIX_SUCCESS);
    cr_expect_str_eq(static_cast<char *>(out), "copy me");
    cr_expect_neq(out, static_cast<void *>(text));
    free(out);
    cr_expect_eq(PMIx_Data_copy(nullptr, text, PMIX_STRING), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Data_copy(&out, text, 499), PMIX_ERR_UNKNOWN_DATA_TYPE);
}

Test(buffer_api, copy_of_every_type_packs_like_the_original)
{
    for (pmix_data_type_t t : samples::packable_types()) {
        if (t == PMIX_STRING || t == PMIX_TOPO) {
            continue;  // string: covered above; topology: hwloc-copied, compared elsewhere
        }
        void *src = samples::make(t);
        void *copy = nullptr;
        cr_assert_eq(PMIx_Data_copy(&copy, src, t), PMIX_SUCCESS, "copy %s", PMIx_Data_type_string(t));
        ScopedBuffer a, b;
        cr_assert_eq(PMIx_Data_pack(nullptr, a.get(), src, 1, t), PMIX_SUCCESS);
        cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), copy, 1, t), PMIX_SUCCESS);
        cr_expect(a.bytes() == b.bytes(), "copy of %s differs", PMIx_Data_type_string(t));
        samples::release(src, t);
        samples::release(copy, t);
    }
}

Test(buffer_api, copy_payload_appends_unread_bytes)
{
    ScopedBuffer src, dest;
    uint32_t a = 1, b = 2, c = 3;
    PMIx_Data_pack(nullptr, src.get(), &a, 1, PMIX_UINT32);
    PMIx_Data_pack(nullptr, src.get(), &b, 1, PMIX_UINT32);
    PMIx_Data_pack(nullptr, dest.get(), &c, 1, PMIX_UINT32);
    uint32_t out = 0;
    int32_t n = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, src.get(), &out, &n, PMIX_UINT32), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Data_copy_payload(dest.get(), src.get()), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Data_copy_payload(dest.get(), nullptr), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Data_copy_payload(nullptr, src.get()), PMIX_ERR_BAD_PARAM);
    uint32_t got[2] = {};
    n = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, dest.get(), &got[0], &n, PMIX_UINT32), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Data_unpack(nullptr, dest.get(), &got[1], &n, PMIX_UINT32), PMIX_SUCCESS);
    cr_expect_eq(got[0], 3u);
    cr_expect_eq(got[1], 2u);
    cr_expect_eq(PMIx_Data_unpack(nullptr, dest.get(), &got[1], &n, PMIX_UINT32),
                 PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
}

Test(buffer_api, unload_then_load_moves_the_bytes)
{
    ScopedBuffer b;
    char *s = const_cast<char *>("payload");
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &s, 1, PMIX_STRING), PMIX_SUCCESS);
    char *base = b.buf.base_ptr;
    size_t used = b.buf.bytes_used;

    pmix_byte_object_t bo;
    cr_assert_eq(PMIx_Data_unload(b.get(), &bo), PMIX_SUCCESS);
    cr_expect_eq(bo.bytes, base, "nothing was unpacked: the region is handed over");
    cr_expect_eq(bo.size, used);
    cr_expect_null(b.buf.base_ptr);
    cr_expect_eq(b.buf.bytes_used, 0u);

    ScopedBuffer loaded;
    cr_assert_eq(PMIx_Data_load(loaded.get(), &bo), PMIX_SUCCESS);
    cr_expect_null(bo.bytes);
    cr_expect_eq(loaded.buf.base_ptr, base);
    char *out = nullptr;
    int32_t n = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, loaded.get(), &out, &n, PMIX_STRING), PMIX_SUCCESS);
    cr_expect_str_eq(out, "payload");
    free(out);
}

Test(buffer_api, unload_after_partial_unpack_copies_the_rest)
{
    ScopedBuffer b;
    uint16_t a = 1, c = 2;
    PMIx_Data_pack(nullptr, b.get(), &a, 1, PMIX_UINT16);
    PMIx_Data_pack(nullptr, b.get(), &c, 1, PMIX_UINT16);
    uint16_t out;
    int32_t n = 1;
    PMIx_Data_unpack(nullptr, b.get(), &out, &n, PMIX_UINT16);
    pmix_byte_object_t bo;
    cr_assert_eq(PMIx_Data_unload(b.get(), &bo), PMIX_SUCCESS);
    cr_expect_eq(bo.size, 8u);
    cr_expect_null(b.buf.base_ptr);

    ScopedBuffer embedded;
    cr_assert_eq(PMIx_Data_embed(embedded.get(), &bo), PMIX_SUCCESS);
    cr_expect_neq(embedded.buf.base_ptr, bo.bytes, "embed copies");
    cr_assert_eq(PMIx_Data_unpack(nullptr, embedded.get(), &out, &n, PMIX_UINT16), PMIX_SUCCESS);
    cr_expect_eq(out, 2);
    free(bo.bytes);

    pmix_byte_object_t empty;
    cr_expect_eq(PMIx_Data_unload(embedded.get(), &empty), PMIX_SUCCESS);
    cr_expect_null(empty.bytes);
    cr_expect_eq(PMIx_Data_unload(nullptr, &empty), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Data_load(nullptr, &empty), PMIX_ERR_BAD_PARAM);
}

Test(buffer_api, print_every_type)
{
    for (pmix_data_type_t t : samples::packable_types()) {
        void *e = samples::make(t);
        char *text = nullptr;
        void *src = t == PMIX_STRING ? *static_cast<char **>(e) : e;
        cr_assert_eq(PMIx_Data_print(&text, const_cast<char *>(">> "), src, t), PMIX_SUCCESS);
        cr_expect(strncmp(text, ">> ", 3) == 0);
        cr_expect(strstr(text, PMIx_Data_type_string(t)) != nullptr, "%s", text);
        free(text);
        samples::release(e, t);
    }
}

Test(buffer_api, print_shows_content)
{
    void *app = samples::make(PMIX_APP);
    char *text = nullptr;
    cr_assert_eq(PMIx_Data_print(&text, nullptr, app, PMIX_APP), PMIX_SUCCESS);
    cr_expect(strstr(text, "/bin/true") != nullptr, "%s", text);
    cr_expect(strstr(text, "pmix.test.b") != nullptr, "%s", text);
    cr_expect(strstr(text, "info-string") != nullptr, "%s", text);
    free(text);
    samples::release(app, PMIX_APP);

    char *s = nullptr;
    cr_assert_eq(PMIx_Data_print(&s, nullptr, const_cast<char *>("abc"), PMIX_STRING), PMIX_SUCCESS);
    cr_expect(strstr(s, "abc") != nullptr);
    free(s);
}

Test(buffer_api, value_and_info_strings)
{
    auto *info = static_cast<pmix_info_t *>(samples::make(PMIX_INFO));
    char *text = PMIx_Info_string(info);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "pmix.sample") != nullptr, "%s", text);
    cr_expect(strstr(text, "sample-value") != nullptr, "%s", text);
    free(text);
    text = PMIx_Value_string(&info->value);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "PMIX_STRING") != nullptr, "%s", text);
    free(text);
    samples::release(info, PMIX_INFO);
    cr_expect_null(PMIx_Value_string(nullptr));
}

Test(buffer_api, compress_round_trip_and_garbage)
{
    std::vector<uint8_t> input(100000);
    for (size_t i = 0; i < input.size(); ++i) {
        input[i] = static_cast<uint8_t>("pmix"[i % 4]);
    }
    uint8_t *packed = nullptr;
    size_t npacked = 0;
    cr_assert(PMIx_Data_compress(input.data(), input.size(), &packed, &npacked));
    cr_expect_lt(npacked, input.size() / 10);
    uint8_t *unpacked = nullptr;
    size_t nunpacked = 0;
    cr_assert(PMIx_Data_decompress(packed, npacked, &unpacked, &nunpacked));
    cr_assert_eq(nunpacked, input.size());
    cr_expect(memcmp(unpacked, input.data(), input.size()) == 0);
    free(unpacked);

    // truncated, corrupted and random inputs are refused
    cr_expect_not(PMIx_Data_decompress(packed, npacked / 2, &unpacked, &nunpacked));
    packed[npacked / 2] ^= 0xFF;
    cr_expect_not(PMIx_Data_decompress(packed, npacked, &unpacked, &nunpacked));
    free(packed);
    uint8_t garbage[64];
    for (size_t i = 0; i < sizeof garbage; ++i) {
        garbage[i] = static_cast<uint8_t>(i * 37 + 11);
    }
    cr_expect_not(PMIx_Data_decompress(garbage, sizeof garbage, &unpacked, &nunpacked));
    // a header claiming 4 GiB from 60 bytes of stream
    memset(garbage, 0xFF, 4);
    cr_expect_not(PMIx_Data_decompress(garbage, sizeof garbage, &unpacked, &nunpacked));
    cr_expect_not(PMIx_Data_compress(nullptr, 10, &packed, &npacked));
    cr_expect_not(PMIx_Data_decompress(nullptr, 10, &unpacked, &nunpacked));
}
