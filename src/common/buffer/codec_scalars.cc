// Codecs of the fixed-size scalar types, strings, namespaces and byte objects.
#include <sys/time.h>

#include <cstring>
#include <ctime>
#include <type_traits>

#include "common/buffer/codec.h"
#include "common/buffer/codec_util.h"

namespace pmixpp::buffer {

namespace {

// An integer of any width travels as exactly sizeof(T) little-endian bytes;
// signed values go through their two's-complement bit pattern.
template <typename T> pmix_status_t pack_integer(Packer &p, const void *element)
{
    static_assert(std::is_integral_v<T>);
    T v;
    std::memcpy(&v, element, sizeof v);
    return put_integer(p, v);
}

template <typename T> pmix_status_t unpack_integer(Unpacker &u, void *element)
{
    T v;
    pmix_status_t rc = get_integer(u, &v);
    if (rc == PMIX_SUCCESS) {
        std::memcpy(element, &v, sizeof v);
    }
    return rc;
}

pmix_status_t pack_bool(Packer &p, const void *element)
{
    return p.put_u8(*static_cast<const bool *>(element) ? 1 : 0);
}

pmix_status_t unpack_bool(Unpacker &u, void *element)
{
    uint8_t v;
    pmix_status_t rc = u.get_u8(&v);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (v > 1) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *static_cast<bool *>(element) = v == 1;
    return PMIX_SUCCESS;
}

pmix_status_t pack_float(Packer &p, const void *element)
{
    return p.put_float(*static_cast<const float *>(element));
}

pmix_status_t unpack_float(Unpacker &u, void *element)
{
    return u.get_float(static_cast<float *>(element));
}

pmix_status_t pack_double(Packer &p, const void *element)
{
    return p.put_double(*static_cast<const double *>(element));
}

pmix_status_t unpack_double(Unpacker &u, void *element)
{
    return u.get_double(static_cast<double *>(element));
}

pmix_status_t pack_timeval_element(Packer &p, const void *element)
{
    return put_timeval(p, *static_cast<const struct timeval *>(element));
}

pmix_status_t unpack_timeval_element(Unpacker &u, void *element)
{
    return get_timeval(u, static_cast<struct timeval *>(element));
}

pmix_status_t pack_string(Packer &p, const void *element)
{
    return p.put_string(*static_cast<char *const *>(element));
}

pmix_status_t unpack_string(Unpacker &u, void *element)
{
    return u.get_string(static_cast<char **>(element));
}

pmix_status_t pack_nspace(Packer &p, const void *element)
{
    return put_nspace(p, static_cast<const char *>(element));
}

pmix_status_t unpack_nspace(Unpacker &u, void *element)
{
    return u.get_fixed_string(static_cast<char *>(element), PMIX_MAX_NSLEN + 1);
}

pmix_status_t pack_byte_object(Packer &p, const void *element)
{
    const auto *bo = static_cast<const pmix_byte_object_t *>(element);
    return p.put_bytes(bo->bytes, bo->size);
}

pmix_status_t unpack_byte_object(Unpacker &u, void *element)
{
    auto *bo = static_cast<pmix_byte_object_t *>(element);
    return u.get_bytes(&bo->bytes, &bo->size);
}

template <typename T> constexpr Codec integer_codec(pmix_data_type_t type)
{
    return Codec{type, sizeof(T), sizeof(T), pack_integer<T>, unpack_integer<T>, sizeof(T)};
}

constexpr Codec kScalarCodecs[] = {
    // One byte, 0 or 1: a uint8 on the wire (unpacking 2..255 as bool fails).
    {PMIX_BOOL, sizeof(bool), 1, pack_bool, unpack_bool, 1},
    integer_codec<uint8_t>(PMIX_BYTE),
    {PMIX_STRING, sizeof(char *), 4, pack_string, unpack_string},
    integer_codec<size_t>(PMIX_SIZE),
    integer_codec<pid_t>(PMIX_PID),
    integer_codec<int>(PMIX_INT),
    integer_codec<int8_t>(PMIX_INT8),
    integer_codec<int16_t>(PMIX_INT16),
    integer_codec<int32_t>(PMIX_INT32),
    integer_codec<int64_t>(PMIX_INT64),
    integer_codec<unsigned int>(PMIX_UINT),
    integer_codec<uint8_t>(PMIX_UINT8),
    integer_codec<uint16_t>(PMIX_UINT16),
    integer_codec<uint32_t>(PMIX_UINT32),
    integer_codec<uint64_t>(PMIX_UINT64),
    {PMIX_FLOAT, sizeof(float), 4, pack_float, unpack_float},
    {PMIX_DOUBLE, sizeof(double), 8, pack_double, unpack_double},
    {PMIX_TIMEVAL, sizeof(struct timeval), 16, pack_timeval_element, unpack_timeval_element},
    integer_codec<time_t>(PMIX_TIME),
    integer_codec<pmix_status_t>(PMIX_STATUS),
    {PMIX_BYTE_OBJECT, sizeof(pmix_byte_object_t), 8, pack_byte_object, unpack_byte_object},
    integer_codec<pmix_persistence_t>(PMIX_PERSIST),
    integer_codec<pmix_scope_t>(PMIX_SCOPE),
    integer_codec<pmix_data_range_t>(PMIX_DATA_RANGE),
    // OpenPMIx's internal command code is a uint8_t.
    integer_codec<uint8_t>(PMIX_COMMAND),
    integer_codec<pmix_info_directives_t>(PMIX_INFO_DIRECTIVES),
    integer_codec<pmix_data_type_t>(PMIX_DATA_TYPE),
    integer_codec<pmix_proc_state_t>(PMIX_PROC_STATE),
    integer_codec<pmix_rank_t>(PMIX_PROC_RANK),
    {PMIX_COMPRESSED_STRING, sizeof(pmix_byte_object_t), 8, pack_byte_object, unpack_byte_object},
    integer_codec<pmix_alloc_directive_t>(PMIX_ALLOC_DIRECTIVE),
    integer_codec<pmix_iof_channel_t>(PMIX_IOF_CHANNEL),
    // A regex is kept as a byte object (values/type_table.cc), NUL included.
    {PMIX_REGEX, sizeof(pmix_byte_object_t), 8, pack_byte_object, unpack_byte_object},
    integer_codec<pmix_job_state_t>(PMIX_JOB_STATE),
    integer_codec<pmix_link_state_t>(PMIX_LINK_STATE),
    integer_codec<pmix_device_type_t>(PMIX_DEVTYPE),
    integer_codec<pmix_locality_t>(PMIX_LOCTYPE),
    {PMIX_COMPRESSED_BYTE_OBJECT, sizeof(pmix_byte_object_t), 8, pack_byte_object, unpack_byte_object},
    {PMIX_PROC_NSPACE, sizeof(pmix_nspace_t), 4, pack_nspace, unpack_nspace},
    integer_codec<pmix_storage_medium_t>(PMIX_STOR_MEDIUM),
    integer_codec<pmix_storage_accessibility_t>(PMIX_STOR_ACCESS),
    integer_codec<pmix_storage_persistence_t>(PMIX_STOR_PERSIST),
    integer_codec<pmix_storage_access_type_t>(PMIX_STOR_ACCESS_TYPE),
};

}  // namespace

CodecSpan scalar_codecs()
{
    return {kScalarCodecs, sizeof kScalarCodecs / sizeof kScalarCodecs[0]};
}

}  // namespace pmixpp::buffer
