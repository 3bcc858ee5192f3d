// Shared by the fuzz targets (tests/fuzz/*_fuzz.cc): the libFuzzer entry
// point's declaration, a check that aborts (so libFuzzer and the corpus
// replay both report it as a crash), and readers for the bytes a target gets.
#ifndef PMIXPP_TESTS_FUZZ_FUZZ_SUPPORT_H
#define PMIXPP_TESTS_FUZZ_FUZZ_SUPPORT_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

#include "common/buffer/packer.h"
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// An invariant of the code under test, not of the input: a violation is a bug.
#define FUZZ_CHECK(cond)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            std::fprintf(stderr, "%s:%d: fuzz invariant violated: %s\n", __FILE__, __LINE__, #cond);                   \
            std::abort();                                                                                              \
        }                                                                                                              \
    } while (0)

namespace pmixpp_fuzz {

inline std::string_view as_text(std::span<const uint8_t> bytes)
{
    return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

// The bytes as one InfoArray in the codec's array encoding (u32 count +
// elements, what wire messages carry); PMIX_SUCCESS only when they are
// exactly that.
inline pmix_status_t decode_info_array(std::span<const uint8_t> bytes, pmixpp::wire::InfoArray *array_p)
{
    pmix_data_buffer_t view = pmixpp::wire::borrow_bytes(bytes.data(), bytes.size());
    pmixpp::buffer::Unpacker u(&view);
    if (!u.valid()) return PMIX_ERR_BAD_PARAM;
    pmix_status_t rc = pmixpp::wire::fields::get_array(u, array_p);
    if (rc == PMIX_SUCCESS && u.remaining() != 0) rc = PMIX_ERR_UNPACK_FAILURE;
    return rc;
}

}  // namespace pmixpp_fuzz

#endif
