// Lookup of the per-type codecs and the generic array / group walkers.
#include <cstdlib>
#include <initializer_list>
#include <cstring>

#include "common/buffer/codec.h"
#include "common/values/type_ops.h"

namespace pmixpp::buffer {

namespace {

using values::kTypeLimit;

struct CodecIndex {
    const Codec *by_type[kTypeLimit] = {};
};

const CodecIndex &codec_index()
{
    // Function-local so it is built on first use, not at library load.
    static const CodecIndex index = [] {
        CodecIndex idx;
        for (CodecSpan span : {scalar_codecs(), struct_codecs(), composite_codecs(), stats_codecs(), hwloc_codecs()}) {
            for (size_t i = 0; i < span.count; ++i) {
                idx.by_type[span.codecs[i].type] = &span.codecs[i];
            }
        }
        return idx;
    }();
    return index;
}

void destruct_elements(void *array, size_t n, const Codec &codec)
{
    auto *bytes = static_cast<char *>(array);
    for (size_t i = 0; i < n; ++i) {
        values::destruct_element(bytes + i * codec.element_size, codec.type);
    }
}

}  // namespace

const Codec *find_codec(pmix_data_type_t type)
{
    if (type >= kTypeLimit) {
        return nullptr;
    }
    return codec_index().by_type[type];
}

pmix_status_t no_codec_status(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_POINTER:  // an address means nothing in another process
    case PMIX_KVAL:     // OpenPMIx-internal list item, not a public struct
        return PMIX_ERR_NOT_SUPPORTED;
    default: return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
}

bool wire_aliases(pmix_data_type_t packed, const Codec &wanted)
{
    if (packed == wanted.type) {
        return true;
    }
    const Codec *packed_codec = find_codec(packed);
    return packed_codec != nullptr && packed_codec->integer_width != 0 &&
           packed_codec->integer_width == wanted.integer_width;
}

pmix_status_t pack_elements(Packer &p, const void *src, size_t n, pmix_data_type_t type)
{
    const Codec *codec = find_codec(type);
    if (codec == nullptr) {
        return no_codec_status(type);
    }
    if (n != 0 && src == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    const auto *bytes = static_cast<const char *>(src);
    for (size_t i = 0; i < n; ++i) {
        pmix_status_t rc = codec->pack(p, bytes + i * codec->element_size);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t unpack_elements(Unpacker &u, void *dest, size_t n, pmix_data_type_t type)
{
    const Codec *codec = find_codec(type);
    if (codec == nullptr) {
        return no_codec_status(type);
    }
    DepthGuard guard(u);
    if (guard.too_deep()) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    auto *bytes = static_cast<char *>(dest);
    for (size_t i = 0; i < n; ++i) {
        pmix_status_t rc = codec->unpack(u, bytes + i * codec->element_size);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t pack_array(Packer &p, const void *array, size_t n, pmix_data_type_t type)
{
    if (n != 0 && array == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = p.put_count(n);
    return rc == PMIX_SUCCESS ? pack_elements(p, array, n, type) : rc;
}

pmix_status_t unpack_array(Unpacker &u, void **array_p, size_t *n_p, pmix_data_type_t type)
{
    const Codec *codec = find_codec(type);
    if (codec == nullptr) {
        return no_codec_status(type);
    }
    size_t n;
    pmix_status_t rc = u.get_count(codec->min_wire, &n);
    if (rc != PMIX_SUCCESS || n == 0) {
        return rc;
    }
    void *array = std::calloc(n, codec->element_size);
    if (array == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    *array_p = array;
    *n_p = n;
    return unpack_elements(u, array, n, type);
}

pmix_status_t pack_group(Packer &p, const void *src, size_t n, pmix_data_type_t type)
{
    if (find_codec(type) == nullptr) {
        return no_codec_status(type);
    }
    pmix_status_t rc = p.put_u16(type);
    if (rc == PMIX_SUCCESS) {
        rc = p.put_count(n);
    }
    return rc == PMIX_SUCCESS ? pack_elements(p, src, n, type) : rc;
}

pmix_status_t unpack_group(Unpacker &u, void *dest, size_t *n_inout, pmix_data_type_t type)
{
    const Codec *codec = find_codec(type);
    if (codec == nullptr) {
        return no_codec_status(type);
    }
    uint16_t tag;
    pmix_status_t rc = u.get_u16(&tag);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    // The requested type's codec decodes an alias: same bytes, its own layout.
    if (!wire_aliases(tag, *codec)) {
        return PMIX_ERR_PACK_MISMATCH;
    }
    size_t n;
    rc = u.get_count(codec->min_wire, &n);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (n > *n_inout) {
        return PMIX_ERR_UNPACK_INADEQUATE_SPACE;
    }
    if (n == 0) {
        *n_inout = 0;
        return PMIX_SUCCESS;
    }
    // Unpack into scratch storage first so the caller's array is untouched
    // (and owns nothing) unless the whole group decodes.
    void *scratch = std::calloc(n, codec->element_size);
    if (scratch == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    rc = unpack_elements(u, scratch, n, type);
    if (rc != PMIX_SUCCESS) {
        destruct_elements(scratch, n, *codec);
        std::free(scratch);
        return rc;
    }
    std::memcpy(dest, scratch, n * codec->element_size);
    std::free(scratch);
    *n_inout = n;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::buffer
