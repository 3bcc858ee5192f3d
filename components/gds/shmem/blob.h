// gds/shmem: what export_nspace hands the core for a client. Either a
// reference (a few hundred bytes naming the segment file) or, when no
// segment could be written or the core asks for it, the segment image
// itself ("inline"), which the client reads from its own memory.
#ifndef PMIXPP_GDS_SHMEM_BLOB_H
#define PMIXPP_GDS_SHMEM_BLOB_H

#include <pmix_common.h>

#include <cstdint>
#include <string>

namespace gds_shmem {

struct Reference {
    std::string nspace;
    std::string path;
    uint64_t generation = 0;
    uint64_t size = 0;
    uint64_t checksum = 0;  // the segment's header_checksum
};

enum class BlobKind { reference, inline_image };

pmix_status_t encode_reference(const Reference &ref, pmix_byte_object_t *blob_p);
pmix_status_t encode_inline(const std::string &image, pmix_byte_object_t *blob_p);

// PMIX_ERR_UNPACK_FAILURE for anything that is not a well-formed blob. For
// an inline blob, *image_p / *image_size_p point into blob.
pmix_status_t decode_blob(const pmix_byte_object_t &blob, BlobKind *kind_p, Reference *ref_p, const char **image_p,
                          size_t *image_size_p);

}  // namespace gds_shmem

#endif
