// gds/shmem: one pmix_value_t as bytes in a segment, and back. Scalars,
// strings and byte objects are stored as they are (a fetch is a memcpy);
// anything with nested pointers goes through the public PMIx_Data_* codec.
#ifndef PMIXPP_GDS_SHMEM_VALUE_CODEC_H
#define PMIXPP_GDS_SHMEM_VALUE_CODEC_H

#include "segment_format.h"

#include <pmix_common.h>

#include <cstddef>
#include <string>

namespace gds_shmem {

// Types whose pmix_value_t::data holds no pointer: copying the union's bytes
// copies the value.
bool pointer_free(pmix_data_type_t type);

// Appends value's payload to heap; sets *encoding_p.
pmix_status_t encode_value(const pmix_value_t &value, std::string &heap, Encoding *encoding_p);

// Rebuilds a value into *value_p (an empty pmix_value_t the caller owns and
// later destructs). PMIX_ERR_UNPACK_FAILURE for a payload that does not fit
// its type or encoding.
pmix_status_t decode_value(pmix_data_type_t type, Encoding encoding, const char *payload, size_t len,
                           pmix_value_t *value_p);

uint64_t fnv1a(const void *bytes, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace gds_shmem

#endif
