// Fuzz target: PMIx_Data_unpack of every data type (public API), and what a
// consumer then does with the values: PMIx_Data_copy, PMIx_Data_print and
// PMIx_Data_pack (which must take back whatever unpack produced, and whose
// output must unpack again). The last selector value is
// PMIx_Data_decompress of the payload instead.
//
// Input: byte 0 chooses the type (kTypes()[byte % count], every type the
// value table knows, plus an unknown one), byte 1 the number of values per
// unpack call (1..4); the rest is the packed data, unpacked group after
// group until a call fails or nothing is left.
#include "fuzz_support.h"

#include <cstring>
#include <vector>

#include <pmix.h>

#include "common/values/type_ops.h"
#include "common/values/type_table.h"

namespace {

constexpr pmix_data_type_t kUnknownType = 0x7ffe;
constexpr pmix_data_type_t kDecompress = 0x7fff;  // not a type: selects PMIx_Data_decompress

const std::vector<pmix_data_type_t> &types()
{
    static const std::vector<pmix_data_type_t> list = [] {
        std::vector<pmix_data_type_t> found;
        for (unsigned t = 0; t < 1024; ++t) {
            if (pmixpp::values::find_element_type(static_cast<pmix_data_type_t>(t)) != nullptr) {
                found.push_back(static_cast<pmix_data_type_t>(t));
            }
        }
        found.push_back(kUnknownType);
        found.push_back(kDecompress);
        return found;
    }();
    return list;
}

void use_element(void *element, pmix_data_type_t type)
{
    // PMIx_Data_copy and PMIx_Data_print take a string as itself.
    void *src = type == PMIX_STRING ? *static_cast<char **>(element) : element;
    if (src != nullptr) {
        void *copy = nullptr;
        if (PMIx_Data_copy(&copy, src, type) == PMIX_SUCCESS) {
            if (type == PMIX_STRING) {
                FUZZ_CHECK(std::strcmp(static_cast<char *>(copy), static_cast<char *>(src)) == 0);
                std::free(copy);
            } else {
                pmixpp::values::free_elements(copy, 1, type);
            }
        }
    }
    char *text = nullptr;
    char prefix[] = "fuzz: ";
    if (PMIx_Data_print(&text, prefix, src, type) == PMIX_SUCCESS) std::free(text);
}

void decompress(std::span<const uint8_t> bytes)
{
    uint8_t *out = nullptr;
    size_t n = 0;
    if (PMIx_Data_decompress(bytes.data(), bytes.size(), &out, &n)) {
        uint8_t *again = nullptr;
        size_t m = 0;
        if (n > 0 && PMIx_Data_compress(out, n, &again, &m)) std::free(again);
        std::free(out);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const pmix_data_type_t type = types()[data[0] % types().size()];
    const int32_t per_call = 1 + data[1] % 4;
    std::span<const uint8_t> payload(data + 2, size - 2);
    if (type == kDecompress) {
        decompress(payload);
        return 0;
    }

    pmix_data_buffer_t in;
    PMIX_DATA_BUFFER_CONSTRUCT(&in);
    if (!payload.empty()) {
        pmix_byte_object_t bo;
        bo.bytes = static_cast<char *>(std::malloc(payload.size()));
        FUZZ_CHECK(bo.bytes != nullptr);
        std::memcpy(bo.bytes, payload.data(), payload.size());
        bo.size = payload.size();
        FUZZ_CHECK(PMIx_Data_load(&in, &bo) == PMIX_SUCCESS);
    }
    pmix_data_buffer_t out;
    PMIX_DATA_BUFFER_CONSTRUCT(&out);
    const size_t elem = pmixpp::values::element_size(type);
    std::vector<int32_t> groups;  // values per successful unpack, repacked into `out`
    for (int round = 0; round < 8; ++round) {
        void *dest = pmixpp::values::alloc_elements(type, static_cast<size_t>(per_call));
        if (dest == nullptr) {
            // Unknown type: there is no storage to give, but unpack must refuse it.
            int32_t n = 1;
            uint64_t scratch[16] = {};
            FUZZ_CHECK(PMIx_Data_unpack(nullptr, &in, scratch, &n, type) != PMIX_SUCCESS);
            break;
        }
        int32_t n = per_call;
        const pmix_status_t rc = PMIx_Data_unpack(nullptr, &in, dest, &n, type);
        if (rc == PMIX_SUCCESS) {
            // A packed group may hold no value (as in OpenPMIx): nothing to use or repack.
            FUZZ_CHECK(n >= 0 && n <= per_call);
            for (int32_t i = 0; i < n; ++i)
                use_element(static_cast<char *>(dest) + static_cast<size_t>(i) * elem, type);
            if (n > 0) {
                FUZZ_CHECK(PMIx_Data_pack(nullptr, &out, dest, n, type) == PMIX_SUCCESS);
                groups.push_back(n);
            }
        } else {
            FUZZ_CHECK(n == 0);
        }
        pmixpp::values::free_elements(dest, static_cast<size_t>(per_call), type);
        if (rc != PMIX_SUCCESS) break;
    }
    // What we packed unpacks again, group by group.
    for (int32_t n : groups) {
        void *dest = pmixpp::values::alloc_elements(type, static_cast<size_t>(n));
        int32_t got = n;
        FUZZ_CHECK(PMIx_Data_unpack(nullptr, &out, dest, &got, type) == PMIX_SUCCESS);
        FUZZ_CHECK(got == n);
        pmixpp::values::free_elements(dest, static_cast<size_t>(n), type);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&in);
    PMIX_DATA_BUFFER_DESTRUCT(&out);
    return 0;
}
