#include "value_codec.h"

#include <pmix.h>

#include <cstdlib>
#include <cstring>

namespace gds_shmem {
namespace {

constexpr size_t kRawSize = sizeof(pmix_value_t{}.data);

bool byte_object(pmix_data_type_t type)
{
    return type == PMIX_BYTE_OBJECT || type == PMIX_COMPRESSED_STRING || type == PMIX_COMPRESSED_BYTE_OBJECT;
}

}  // namespace

bool pointer_free(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_BOOL:
    case PMIX_BYTE:
    case PMIX_SIZE:
    case PMIX_PID:
    case PMIX_INT:
    case PMIX_INT8:
    case PMIX_INT16:
    case PMIX_INT32:
    case PMIX_INT64:
    case PMIX_UINT:
    case PMIX_UINT8:
    case PMIX_UINT16:
    case PMIX_UINT32:
    case PMIX_UINT64:
    case PMIX_FLOAT:
    case PMIX_DOUBLE:
    case PMIX_TIMEVAL:
    case PMIX_TIME:
    case PMIX_STATUS:
    case PMIX_PROC_RANK:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_PROC_STATE:
    case PMIX_DATA_TYPE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
    case PMIX_LOCTYPE:
    case PMIX_DEVTYPE: return true;
    default: return false;
    }
}

namespace {

pmix_status_t encode_packed(const pmix_value_t &value, std::string &heap)
{
    pmix_data_buffer_t buffer;
    PMIX_DATA_BUFFER_CONSTRUCT(&buffer);
    pmix_status_t rc = PMIx_Data_pack(nullptr, &buffer, const_cast<pmix_value_t *>(&value), 1, PMIX_VALUE);
    if (rc == PMIX_SUCCESS) heap.append(buffer.base_ptr, buffer.bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(&buffer);
    return rc;
}

pmix_status_t decode_packed(const char *payload, size_t len, pmix_value_t *value_p)
{
    pmix_data_buffer_t buffer;
    PMIX_DATA_BUFFER_CONSTRUCT(&buffer);
    const pmix_byte_object_t view{const_cast<char *>(payload), len};
    pmix_status_t rc = PMIx_Data_embed(&buffer, &view);
    int32_t count = 1;
    if (rc == PMIX_SUCCESS) rc = PMIx_Data_unpack(nullptr, &buffer, value_p, &count, PMIX_VALUE);
    PMIX_DATA_BUFFER_DESTRUCT(&buffer);
    if (rc == PMIX_SUCCESS && count != 1) rc = PMIX_ERR_UNPACK_FAILURE;
    return rc == PMIX_SUCCESS ? rc : PMIX_ERR_UNPACK_FAILURE;
}

}  // namespace

uint64_t fnv1a(const void *bytes, size_t size, uint64_t seed)
{
    const auto *p = static_cast<const unsigned char *>(bytes);
    uint64_t hash = seed;
    for (size_t i = 0; i < size; ++i) {
        hash ^= p[i];
        hash *= 0x100000001b3ull;
    }
    return hash;
}

pmix_status_t encode_value(const pmix_value_t &value, std::string &heap, Encoding *encoding_p)
{
    if (pointer_free(value.type)) {
        heap.append(reinterpret_cast<const char *>(&value.data), kRawSize);
        *encoding_p = Encoding::raw;
        return PMIX_SUCCESS;
    }
    if (value.type == PMIX_STRING) {
        const char *text = value.data.string != nullptr ? value.data.string : "";
        heap.append(text, std::strlen(text) + 1);
        *encoding_p = Encoding::string;
        return PMIX_SUCCESS;
    }
    if (byte_object(value.type)) {
        if (value.data.bo.size > 0) heap.append(value.data.bo.bytes, value.data.bo.size);
        *encoding_p = Encoding::bytes;
        return PMIX_SUCCESS;
    }
    const pmix_status_t rc = encode_packed(value, heap);
    if (rc == PMIX_SUCCESS) *encoding_p = Encoding::packed;
    return rc;
}

pmix_status_t decode_value(pmix_data_type_t type, Encoding encoding, const char *payload, size_t len,
                           pmix_value_t *value_p)
{
    switch (encoding) {
    case Encoding::raw:
        if (!pointer_free(type) || len != kRawSize) return PMIX_ERR_UNPACK_FAILURE;
        value_p->type = type;
        std::memcpy(&value_p->data, payload, kRawSize);
        return PMIX_SUCCESS;
    case Encoding::string: {
        if (type != PMIX_STRING || len == 0 || payload[len - 1] != '\0') return PMIX_ERR_UNPACK_FAILURE;
        char *text = strndup(payload, len - 1);
        if (text == nullptr) return PMIX_ERR_NOMEM;
        value_p->type = type;
        value_p->data.string = text;
        return PMIX_SUCCESS;
    }
    case Encoding::bytes: {
        if (!byte_object(type)) return PMIX_ERR_UNPACK_FAILURE;
        char *bytes = nullptr;
        if (len > 0) {
            bytes = static_cast<char *>(std::malloc(len));
            if (bytes == nullptr) return PMIX_ERR_NOMEM;
            std::memcpy(bytes, payload, len);
        }
        value_p->type = type;
        value_p->data.bo.bytes = bytes;
        value_p->data.bo.size = len;
        return PMIX_SUCCESS;
    }
    case Encoding::packed: {
        const pmix_status_t rc = decode_packed(payload, len, value_p);
        if (rc == PMIX_SUCCESS && value_p->type != type) {
            PMIx_Value_destruct(value_p);
            return PMIX_ERR_UNPACK_FAILURE;
        }
        return rc;
    }
    }
    return PMIX_ERR_UNPACK_FAILURE;
}

}  // namespace gds_shmem
