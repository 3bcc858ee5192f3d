/* The buffer API through libpmix.so.2 and the standard's own macros, from C. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

Test(buffer_abi, macros_and_pack_through_the_shared_library)
{
    pmix_data_buffer_t *buf;
    PMIX_DATA_BUFFER_CREATE(buf);
    cr_assert_not_null(buf);

    pmix_info_t *info;
    PMIX_INFO_CREATE(info, 2);
    PMIX_INFO_LOAD(&info[0], "pmix.abi.a", "text", PMIX_STRING);
    uint64_t big = 1ULL << 40;
    PMIX_INFO_LOAD(&info[1], "pmix.abi.b", &big, PMIX_UINT64);
    cr_assert_eq(PMIx_Data_pack(NULL, buf, info, 2, PMIX_INFO), PMIX_SUCCESS);
    PMIX_INFO_FREE(info, 2);

    char *bytes;
    size_t size;
    PMIX_DATA_BUFFER_UNLOAD(buf, bytes, size);
    cr_assert_not_null(bytes);
    cr_assert_gt(size, 0u);
    PMIX_DATA_BUFFER_RELEASE(buf);

    pmix_data_buffer_t loaded;
    PMIX_DATA_BUFFER_CONSTRUCT(&loaded);
    PMIX_DATA_BUFFER_LOAD(&loaded, bytes, size);
    pmix_info_t *out;
    PMIX_INFO_CREATE(out, 4);
    int32_t n = 4;
    cr_assert_eq(PMIx_Data_unpack(NULL, &loaded, out, &n, PMIX_INFO), PMIX_SUCCESS);
    cr_assert_eq(n, 2);
    cr_expect_str_eq(out[0].key, "pmix.abi.a");
    cr_expect_str_eq(out[0].value.data.string, "text");
    cr_expect_eq(out[1].value.data.uint64, big);
    PMIX_INFO_FREE(out, 4);
    PMIX_DATA_BUFFER_DESTRUCT(&loaded);
}

Test(buffer_abi, compress_is_exported)
{
    const char *text = "abcabcabcabcabcabcabcabcabcabcabcabcabcabc";
    uint8_t *z = NULL, *back = NULL;
    size_t nz = 0, nback = 0;
    cr_assert(PMIx_Data_compress((const uint8_t *)text, strlen(text) + 1, &z, &nz));
    cr_assert(PMIx_Data_decompress(z, nz, &back, &nback));
    cr_expect_str_eq((char *)back, text);
    free(z);
    free(back);
}
