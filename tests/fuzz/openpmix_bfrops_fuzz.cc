// Fuzz target: OpenPMIx's buffer encodings (src/common/openpmix), as a peer
// running OpenPMIx's library would send them.
//
// Input: byte 0 picks the encoding (bit 0: v3 instead of v41, bit 1: fully
// described) and byte 1 the type (kTypes[byte % count]: every composite
// type, plus KVAL read with unpack_kval and a counted INFO array); the rest
// is read call after call until one fails or nothing is left.
#include "fuzz_support.h"

#include <cstdlib>
#include <string>
#include <vector>

#include <pmix.h>

#include "common/openpmix/bfrops.h"
#include "common/values/type_ops.h"

namespace {

using pmixpp::openpmix::Bfrops;
using pmixpp::openpmix::BufferType;
using pmixpp::openpmix::Encoding;
using pmixpp::openpmix::Reader;
using pmixpp::openpmix::Writer;

constexpr pmix_data_type_t kCountedInfo = 0x7ffe;  // not a type: unpack_counted(PMIX_INFO)

constexpr pmix_data_type_t kTypes[] = {
    PMIX_STRING,      PMIX_SIZE,        PMIX_PID,         PMIX_INT,         PMIX_FLOAT,    PMIX_TIMEVAL,
    PMIX_VALUE,       PMIX_PROC,        PMIX_APP,         PMIX_INFO,        PMIX_PDATA,    PMIX_BUFFER,
    PMIX_BYTE_OBJECT, PMIX_KVAL,        PMIX_PROC_INFO,   PMIX_DATA_ARRAY,  PMIX_QUERY,    PMIX_ENVAR,
    PMIX_COORD,       PMIX_REGATTR,     PMIX_REGEX,       PMIX_PROC_CPUSET, PMIX_GEOMETRY, PMIX_DEVICE_DIST,
    PMIX_ENDPOINT,    PMIX_PROC_NSPACE, PMIX_DATA_BUFFER, kCountedInfo,
};

size_t slot_size(pmix_data_type_t type)
{
    return pmixpp::values::element_size(PMIX_BUFFER == type ? PMIX_DATA_BUFFER : type);
}

// What was read packs again, and that reads back to the same bytes.
void repack(Encoding enc, pmix_data_type_t type, const void *values, int32_t n)
{
    Writer w(enc);
    if (w.pack(type, values, n) != PMIX_SUCCESS) {
        return;  // e.g. a cpuset list hwloc normalised differently
    }
    const pmix_data_type_t slot = PMIX_BUFFER == type ? PMIX_DATA_BUFFER : type;
    // A PACK call of zero values is legal (OpenPMIx unpacks it with count
    // 0), but the reader needs room for at least one.
    const int32_t room = n > 0 ? n : 1;
    void *again = pmixpp::values::alloc_elements(slot, static_cast<size_t>(room));
    FUZZ_CHECK(again != nullptr);
    Reader r(enc, w.bytes());
    int32_t m = room;
    FUZZ_CHECK(r.unpack(type, again, &m) == PMIX_SUCCESS);
    FUZZ_CHECK(m == n && r.at_end());
    pmixpp::values::free_elements(again, static_cast<size_t>(room), slot);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) {
        return 0;
    }
    const Encoding enc{(data[0] & 1) ? Bfrops::v3 : Bfrops::v41,
                       (data[0] & 2) ? BufferType::fully_desc : BufferType::non_desc};
    const pmix_data_type_t type = kTypes[data[1] % (sizeof kTypes / sizeof kTypes[0])];
    Reader r(enc, std::span<const uint8_t>(data + 2, size - 2));
    while (!r.at_end()) {
        const size_t before = r.offset();
        pmix_status_t rc = PMIX_SUCCESS;
        if (PMIX_KVAL == type) {
            std::string key;
            pmix_value_t v{};
            rc = r.unpack_kval(&key, &v);
            if (PMIX_SUCCESS == rc) {
                Writer w(enc);
                (void)w.pack_kval(key.c_str(), v);
                PMIx_Value_destruct(&v);
            }
        } else if (kCountedInfo == type) {
            void *infos = nullptr;
            size_t n = 0;
            rc = r.unpack_counted(PMIX_INFO, &infos, &n);
            if (PMIX_SUCCESS == rc) {
                pmixpp::values::free_elements(infos, n, PMIX_INFO);
            }
        } else {
            const size_t width = slot_size(type);
            FUZZ_CHECK(width > 0);
            std::vector<unsigned char> storage(4 * width, 0);
            int32_t n = 4;
            rc = r.unpack(type, storage.data(), &n);
            if (PMIX_SUCCESS == rc) {
                FUZZ_CHECK(n >= 0 && n <= 4);
                repack(enc, type, storage.data(), n);
                for (int32_t i = 0; i < n; ++i) {
                    pmixpp::values::destruct_element(storage.data() + static_cast<size_t>(i) * width,
                                                     PMIX_BUFFER == type ? PMIX_DATA_BUFFER : type);
                }
            }
        }
        if (PMIX_SUCCESS != rc) {
            FUZZ_CHECK(r.offset() == before);  // a failed read leaves the reader where it was
            FUZZ_CHECK(!r.reason().empty());
            break;
        }
        FUZZ_CHECK(r.offset() > before);
    }
    return 0;
}
