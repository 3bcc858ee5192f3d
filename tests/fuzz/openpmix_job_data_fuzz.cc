// Fuzz target: the job data an OpenPMIx client reads at PMIx_Init (the
// answer to REQ, src/server/openpmix/job_data.cc: [nspace][KVAL...], each
// rank's data a pmix.pblob byte object of [rank][KVAL...]) and the answer
// to a get of a foreign job ([status][BYTE_OBJECT of [proc][KVAL...]]...),
// read with our Reader the way OpenPMIx's gds/hash takes them in. Our
// client never reads these, but the Reader under them reads every peer's
// payload, and the job pieces the server caches are packed KVAL runs: what
// reads here must pack again and read back the same.
//
// Input: byte 0 picks the encoding (bit 0 v3, bit 1 fully described) and
// the layout (bit 2: a get's answer instead of REQ's); the rest is the blob.
#include "fuzz_support.h"

#include "common/openpmix/bfrops.h"

#include <pmix.h>

#include <string>

namespace {

using namespace pmixpp::openpmix;

constexpr int kMaxDepth = 2;  // a pblob inside a pblob is not followed further

void kvals(Encoding enc, std::span<const uint8_t> bytes, int depth);

// One KVAL: its key and value pack again and read back the same key; a
// rank's blob and a byte object's contents are read in turn.
void one_kval(Encoding enc, const std::string &key, const pmix_value_t &value, int depth)
{
    Writer w(enc);
    if (w.pack_kval(key.c_str(), value) == PMIX_SUCCESS) {
        Reader r(enc, w.bytes());
        std::string key2;
        pmix_value_t back{};
        FUZZ_CHECK(r.unpack_kval(&key2, &back) == PMIX_SUCCESS);
        FUZZ_CHECK(key2 == std::string(key.c_str()) && r.at_end());  // a key ends at its first NUL
        PMIx_Value_destruct(&back);
    }
    if (value.type == PMIX_BYTE_OBJECT && key == PMIX_PROC_BLOB && depth < kMaxDepth) {
        const std::span<const uint8_t> blob(reinterpret_cast<const uint8_t *>(value.data.bo.bytes), value.data.bo.size);
        Reader r(enc, blob);
        pmix_rank_t rank = PMIX_RANK_UNDEF;
        if (r.unpack_rank(&rank) == PMIX_SUCCESS) kvals(enc, blob.subspan(r.offset()), depth + 1);
    }
}

// KVALs until the end or the first that does not read, as gds/hash stores
// them (it stops at READ_PAST_END).
void kvals(Encoding enc, std::span<const uint8_t> bytes, int depth)
{
    Reader r(enc, bytes);
    while (!r.at_end()) {
        const size_t before = r.offset();
        std::string key;
        pmix_value_t value{};
        if (r.unpack_kval(&key, &value) != PMIX_SUCCESS) {
            FUZZ_CHECK(r.offset() == before);  // a failed read leaves the reader where it was
            FUZZ_CHECK(!r.reason().empty());
            return;
        }
        FUZZ_CHECK(r.offset() > before);
        one_kval(enc, key, value, depth);
        PMIx_Value_destruct(&value);
    }
}

// REQ's answer: [nspace STRING][KVAL...].
void job_data(Encoding enc, std::span<const uint8_t> bytes)
{
    Reader r(enc, bytes);
    std::string nspace;
    if (r.unpack_string(&nspace) != PMIX_SUCCESS) return;
    kvals(enc, bytes.subspan(r.offset()), 0);
}

// A foreign job's get: [status][BYTE_OBJECT [proc][KVAL...]]...
void namespace_answer(Encoding enc, std::span<const uint8_t> bytes)
{
    Reader r(enc, bytes);
    pmix_status_t status = PMIX_SUCCESS;
    if (r.unpack_status(&status) != PMIX_SUCCESS || status != PMIX_SUCCESS) return;
    while (!r.at_end()) {
        pmix_byte_object_t object{};
        int32_t n = 1;
        if (r.unpack(PMIX_BYTE_OBJECT, &object, &n) != PMIX_SUCCESS) return;
        const std::span<const uint8_t> inner(reinterpret_cast<const uint8_t *>(object.bytes), object.size);
        Reader proc_reader(enc, inner);
        pmix_proc_t proc{};
        if (proc_reader.unpack_proc(&proc) == PMIX_SUCCESS) kvals(enc, inner.subspan(proc_reader.offset()), 0);
        PMIX_BYTE_OBJECT_DESTRUCT(&object);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const Encoding enc{(data[0] & 1) ? Bfrops::v3 : Bfrops::v41,
                       (data[0] & 2) ? BufferType::fully_desc : BufferType::non_desc};
    const std::span<const uint8_t> blob(data + 1, size - 1);
    if (data[0] & 4) {
        namespace_answer(enc, blob);
    } else {
        job_data(enc, blob);
    }
    return 0;
}
