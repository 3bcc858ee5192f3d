// PMIx_Data_compress / PMIx_Data_decompress with zlib.
//
// Compressed form: u32 little-endian length of the original data, then a zlib
// stream. Decompression trusts neither: the claimed length is bounded by
// zlib's best possible ratio before anything is allocated, and the stream
// must inflate to exactly that length.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <limits>

#include <pmix.h>

namespace {

constexpr size_t kHeaderBytes = 4;
// deflate never does better than about 1032:1.
constexpr uint64_t kMaxInflateRatio = 1032;

}  // namespace

extern "C" bool PMIx_Data_compress(const uint8_t *inbytes, size_t size, uint8_t **outbytes, size_t *nbytes)
{
    if (inbytes == nullptr || outbytes == nullptr || nbytes == nullptr || size == 0 ||
        size > std::numeric_limits<uint32_t>::max()) {
        return false;
    }
    uLongf bound = compressBound(static_cast<uLong>(size));
    auto *out = static_cast<uint8_t *>(std::malloc(kHeaderBytes + bound));
    if (out == nullptr) {
        return false;
    }
    if (compress2(out + kHeaderBytes, &bound, inbytes, static_cast<uLong>(size), Z_BEST_COMPRESSION) != Z_OK) {
        std::free(out);
        return false;
    }
    for (size_t i = 0; i < kHeaderBytes; ++i) {
        out[i] = static_cast<uint8_t>(size >> (8 * i));
    }
    *outbytes = out;
    *nbytes = kHeaderBytes + bound;
    return true;
}

extern "C" bool PMIx_Data_decompress(const uint8_t *inbytes, size_t size, uint8_t **outbytes, size_t *nbytes)
{
    if (inbytes == nullptr || outbytes == nullptr || nbytes == nullptr || size <= kHeaderBytes) {
        return false;
    }
    uint64_t claimed = 0;
    for (size_t i = 0; i < kHeaderBytes; ++i) {
        claimed |= static_cast<uint64_t>(inbytes[i]) << (8 * i);
    }
    size_t stream_bytes = size - kHeaderBytes;
    if (claimed == 0 || claimed / kMaxInflateRatio > stream_bytes) {
        return false;
    }
    // One spare byte keeps decompressed strings NUL-terminated.
    auto *out = static_cast<uint8_t *>(std::malloc(claimed + 1));
    if (out == nullptr) {
        return false;
    }
    uLongf out_len = static_cast<uLongf>(claimed);
    uLong in_len = static_cast<uLong>(stream_bytes);
    int rc = uncompress2(out, &out_len, inbytes + kHeaderBytes, &in_len);
    if (rc != Z_OK || out_len != claimed || in_len != stream_bytes) {
        std::free(out);
        return false;
    }
    out[claimed] = 0;
    *outbytes = out;
    *nbytes = claimed;
    return true;
}
