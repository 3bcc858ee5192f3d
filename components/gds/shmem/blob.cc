// Layout (host byte order; blobs stay on one node):
//   uint64 magic ("PMXSHREF" or "PMXSHINL"), uint32 version, uint32 zero
//   reference: uint64 generation, uint64 size, uint64 checksum,
//              uint32 nspace length, uint32 path length, nspace, path
//   inline:    the segment image
#include "blob.h"

#include <pmix_common.h>

#include <cstdlib>
#include <cstring>

namespace gds_shmem {
namespace {

constexpr uint64_t kReferenceMagic = 0x4645524853584d50ull;  // "PMXSHREF"
constexpr uint64_t kInlineMagic = 0x4c4e494853584d50ull;     // "PMXSHINL"
constexpr uint32_t kBlobVersion = 1;
constexpr size_t kPrefix = 16;
constexpr size_t kReferenceFixed = kPrefix + 3 * 8 + 2 * 4;
constexpr size_t kMaxPath = 4096;

void put(std::string &out, const void *p, size_t n)
{
    out.append(static_cast<const char *>(p), n);
}

template <class T> T get(const char *p)
{
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

pmix_status_t hand_out(const std::string &bytes, pmix_byte_object_t *blob_p)
{
    auto *copy = static_cast<char *>(std::malloc(bytes.size()));
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(copy, bytes.data(), bytes.size());
    blob_p->bytes = copy;
    blob_p->size = bytes.size();
    return PMIX_SUCCESS;
}

std::string prefix(uint64_t magic)
{
    std::string out;
    const uint32_t version = kBlobVersion;
    const uint32_t zero = 0;
    put(out, &magic, 8);
    put(out, &version, 4);
    put(out, &zero, 4);
    return out;
}

}  // namespace

pmix_status_t encode_reference(const Reference &ref, pmix_byte_object_t *blob_p)
{
    std::string out = prefix(kReferenceMagic);
    const auto nspace_len = static_cast<uint32_t>(ref.nspace.size());
    const auto path_len = static_cast<uint32_t>(ref.path.size());
    put(out, &ref.generation, 8);
    put(out, &ref.size, 8);
    put(out, &ref.checksum, 8);
    put(out, &nspace_len, 4);
    put(out, &path_len, 4);
    out += ref.nspace;
    out += ref.path;
    return hand_out(out, blob_p);
}

pmix_status_t encode_inline(const std::string &image, pmix_byte_object_t *blob_p)
{
    std::string out = prefix(kInlineMagic);
    out += image;
    return hand_out(out, blob_p);
}

pmix_status_t decode_blob(const pmix_byte_object_t &blob, BlobKind *kind_p, Reference *ref_p, const char **image_p,
                          size_t *image_size_p)
{
    if (blob.bytes == nullptr || blob.size < kPrefix || get<uint32_t>(blob.bytes + 8) != kBlobVersion) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    const uint64_t magic = get<uint64_t>(blob.bytes);
    if (magic == kInlineMagic) {
        *kind_p = BlobKind::inline_image;
        *image_p = blob.bytes + kPrefix;
        *image_size_p = blob.size - kPrefix;
        return PMIX_SUCCESS;
    }
    if (magic != kReferenceMagic || blob.size < kReferenceFixed) return PMIX_ERR_UNPACK_FAILURE;
    const char *p = blob.bytes + kPrefix;
    Reference ref;
    ref.generation = get<uint64_t>(p);
    ref.size = get<uint64_t>(p + 8);
    ref.checksum = get<uint64_t>(p + 16);
    const auto nspace_len = get<uint32_t>(p + 24);
    const auto path_len = get<uint32_t>(p + 28);
    if (nspace_len == 0 || nspace_len > PMIX_MAX_NSLEN || path_len == 0 || path_len > kMaxPath ||
        blob.size != kReferenceFixed + nspace_len + path_len) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    ref.nspace.assign(blob.bytes + kReferenceFixed, nspace_len);
    ref.path.assign(blob.bytes + kReferenceFixed + nspace_len, path_len);
    if (ref.nspace.find('\0') != std::string::npos || ref.path.find('\0') != std::string::npos) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *kind_p = BlobKind::reference;
    *ref_p = std::move(ref);
    return PMIX_SUCCESS;
}

}  // namespace gds_shmem
