// Table-driven wire encoding of every packable PMIx data type.
//
// On the wire a packed group (what one PMIx_Data_pack call appends) is
//   u16 type tag | u32 element count | elements...
// and an element is encoded field by field with fixed-width little-endian
// integers (see packer.h); nothing is a memcpy of a host struct. Composite
// elements nest the encodings of their members; values and data arrays carry
// their own type tag so they can hold anything.
#ifndef PMIXPP_COMMON_BUFFER_CODEC_H
#define PMIXPP_COMMON_BUFFER_CODEC_H

#include <cstddef>

#include <pmix_common.h>

#include "common/buffer/packer.h"

namespace pmixpp::buffer {

using PackFn = pmix_status_t (*)(Packer &, const void *element);
// Fills a zeroed element. On failure the element may own partial results,
// which the caller releases with values::destruct_element.
using UnpackFn = pmix_status_t (*)(Unpacker &, void *element);

struct Codec {
    pmix_data_type_t type;
    size_t element_size;  // bytes of one element in an array of this type
    size_t min_wire;      // fewest bytes one encoded element can take (>= 1)
    PackFn pack;
    UnpackFn unpack;
    // Wire bytes when an element is one plain little-endian integer (any
    // signedness, bool included); 0 for everything else. Two types with the
    // same nonzero width are wire aliases (see wire_aliases).
    size_t integer_width = 0;
};

// True when a group packed as `packed` may be unpacked as `wanted`: the same
// type, or two integer-like types of one wire width (PMIX_INT and
// PMIX_INT32, PMIX_PROC_RANK and PMIX_UINT32, PMIX_SCOPE and PMIX_UINT8...).
// OpenPMIx accepts these because its buffers carry no type tags; we keep
// the tag and allow exactly the pairs whose bytes mean the same number.
bool wire_aliases(pmix_data_type_t packed, const Codec &wanted);

// The codec for a type, or nullptr when the type cannot be packed.
const Codec *find_codec(pmix_data_type_t type);

// Status for a type without codec: PMIX_POINTER and known-but-internal types
// are PMIX_ERR_NOT_SUPPORTED, anything else PMIX_ERR_UNKNOWN_DATA_TYPE.
pmix_status_t no_codec_status(pmix_data_type_t type);

// n elements of type at src, no header.
pmix_status_t pack_elements(Packer &p, const void *src, size_t n, pmix_data_type_t type);
// n elements into zeroed storage at dest; on failure the caller destructs them.
pmix_status_t unpack_elements(Unpacker &u, void *dest, size_t n, pmix_data_type_t type);

// An array that an element owns (pmix_app_t::info, ...): u32 count + elements.
pmix_status_t pack_array(Packer &p, const void *array, size_t n, pmix_data_type_t type);
// Allocates the array (calloc, owned by the caller even on failure: *array_p
// and *n_p are set as soon as it exists so destruct_element can release it).
pmix_status_t unpack_array(Unpacker &u, void **array_p, size_t *n_p, pmix_data_type_t type);

// A whole group: type tag, count, elements.
pmix_status_t pack_group(Packer &p, const void *src, size_t n, pmix_data_type_t type);
// Reads one group of at most *n_inout elements into caller storage at dest.
// Fails with PMIX_ERR_PACK_MISMATCH on a tag that is not a wire alias of
// type (see wire_aliases) and with
// PMIX_ERR_UNPACK_INADEQUATE_SPACE when the group is larger than *n_inout;
// dest is written only on success.
pmix_status_t unpack_group(Unpacker &u, void *dest, size_t *n_inout, pmix_data_type_t type);

// Codec tables contributed by each source file; find_codec indexes them.
struct CodecSpan {
    const Codec *codecs;
    size_t count;
};
CodecSpan scalar_codecs();
CodecSpan struct_codecs();
CodecSpan composite_codecs();
CodecSpan stats_codecs();
CodecSpan hwloc_codecs();

}  // namespace pmixpp::buffer

#endif
