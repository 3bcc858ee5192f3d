#include "common/buffer/packer.h"

#include <cstdlib>
#include <limits>
#include <new>

namespace pmixpp::buffer {

bool buffer_is_consistent(const pmix_data_buffer_t *buf)
{
    if (buf == nullptr) {
        return false;
    }
    if (buf->base_ptr == nullptr) {
        return buf->bytes_used == 0;
    }
    if (buf->bytes_used > buf->bytes_allocated) {
        return false;
    }
    // pack_ptr may legitimately be NULL in a buffer built by hand; we derive
    // the end of data from bytes_used, so only the unpack pointer matters.
    const char *end = buf->base_ptr + buf->bytes_used;
    return buf->unpack_ptr >= buf->base_ptr && buf->unpack_ptr <= end;
}

// ---------------------------------------------------------------- Packer

Packer::Packer(pmix_data_buffer_t *buf) : buf_(buf), start_used_(buf->bytes_used) {}

void Packer::rollback()
{
    buf_->bytes_used = start_used_;
    if (buf_->base_ptr != nullptr) {
        buf_->pack_ptr = buf_->base_ptr + start_used_;
    }
}

pmix_status_t Packer::reserve(size_t n)
{
    if (n <= buf_->bytes_allocated - buf_->bytes_used) {
        return PMIX_SUCCESS;
    }
    if (n > std::numeric_limits<size_t>::max() / 4 - buf_->bytes_used) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    size_t want = buf_->bytes_allocated < 256 ? 256 : buf_->bytes_allocated;
    while (want < buf_->bytes_used + n) {
        want *= 2;
    }
    size_t unpack_off = buf_->base_ptr == nullptr ? 0 : buf_->unpack_ptr - buf_->base_ptr;
    // realloc, not new[]: the standard's macros release base_ptr with free().
    void *grown = std::realloc(buf_->base_ptr, want);
    if (grown == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    buf_->base_ptr = static_cast<char *>(grown);
    buf_->unpack_ptr = buf_->base_ptr + unpack_off;
    buf_->pack_ptr = buf_->base_ptr + buf_->bytes_used;
    buf_->bytes_allocated = want;
    return PMIX_SUCCESS;
}

pmix_status_t Packer::put_le(uint64_t v, unsigned width)
{
    pmix_status_t rc = reserve(width);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    auto *out = reinterpret_cast<unsigned char *>(buf_->base_ptr + buf_->bytes_used);
    for (unsigned i = 0; i < width; ++i) {
        out[i] = static_cast<unsigned char>(v >> (8 * i));
    }
    buf_->bytes_used += width;
    buf_->pack_ptr = buf_->base_ptr + buf_->bytes_used;
    return PMIX_SUCCESS;
}

pmix_status_t Packer::put_float(float v)
{
    uint32_t bits;
    static_assert(sizeof bits == sizeof v);
    std::memcpy(&bits, &v, sizeof bits);
    return put_u32(bits);
}

pmix_status_t Packer::put_double(double v)
{
    uint64_t bits;
    static_assert(sizeof bits == sizeof v);
    std::memcpy(&bits, &v, sizeof bits);
    return put_u64(bits);
}

pmix_status_t Packer::put_raw(const void *bytes, size_t n)
{
    if (n == 0) {
        return PMIX_SUCCESS;
    }
    pmix_status_t rc = reserve(n);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    std::memcpy(buf_->base_ptr + buf_->bytes_used, bytes, n);
    buf_->bytes_used += n;
    buf_->pack_ptr = buf_->base_ptr + buf_->bytes_used;
    return PMIX_SUCCESS;
}

pmix_status_t Packer::put_string(const char *s)
{
    if (s == nullptr) {
        return put_u32(kNullString);
    }
    size_t len = std::strlen(s);
    if (len >= std::numeric_limits<uint32_t>::max()) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = put_u32(static_cast<uint32_t>(len + 1));
    return rc == PMIX_SUCCESS ? put_raw(s, len) : rc;
}

pmix_status_t Packer::put_argv(char *const *argv)
{
    if (argv == nullptr) {
        return put_u32(0);
    }
    size_t n = 0;
    while (argv[n] != nullptr) {
        ++n;
    }
    if (n >= std::numeric_limits<uint32_t>::max()) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = put_u32(static_cast<uint32_t>(n + 1));
    for (size_t i = 0; rc == PMIX_SUCCESS && i < n; ++i) {
        rc = put_string(argv[i]);
    }
    return rc;
}

pmix_status_t Packer::put_bytes(const char *bytes, size_t size)
{
    if (bytes == nullptr && size != 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = put_u64(size);
    return rc == PMIX_SUCCESS ? put_raw(bytes, size) : rc;
}

pmix_status_t Packer::put_count(size_t n)
{
    if (n > std::numeric_limits<uint32_t>::max()) {
        return PMIX_ERR_BAD_PARAM;
    }
    return put_u32(static_cast<uint32_t>(n));
}

// ---------------------------------------------------------------- Unpacker

Unpacker::Unpacker(pmix_data_buffer_t *buf) : buf_(buf)
{
    valid_ = buffer_is_consistent(buf);
    if (valid_ && buf->base_ptr != nullptr) {
        cur_ = reinterpret_cast<const unsigned char *>(buf->unpack_ptr);
        end_ = reinterpret_cast<const unsigned char *>(buf->base_ptr + buf->bytes_used);
    }
}

void Unpacker::commit()
{
    if (valid_ && buf_->base_ptr != nullptr) {
        buf_->unpack_ptr = buf_->base_ptr + (reinterpret_cast<const char *>(cur_) - buf_->base_ptr);
    }
}

pmix_status_t Unpacker::get_le(uint64_t *v_p, unsigned width)
{
    if (remaining() < width) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) {
        v |= static_cast<uint64_t>(cur_[i]) << (8 * i);
    }
    cur_ += width;
    *v_p = v;
    return PMIX_SUCCESS;
}

pmix_status_t Unpacker::peek_u16(uint16_t *v_p) const
{
    if (remaining() < 2) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    *v_p = static_cast<uint16_t>(cur_[0] | (cur_[1] << 8));
    return PMIX_SUCCESS;
}

#define PMIXPP_GET_UNSIGNED(name, T, width)                                                                            \
    pmix_status_t Unpacker::name(T *v_p)                                                                               \
    {                                                                                                                  \
        uint64_t v;                                                                                                    \
        pmix_status_t rc = get_le(&v, width);                                                                          \
        if (rc == PMIX_SUCCESS) {                                                                                      \
            *v_p = static_cast<T>(v);                                                                                  \
        }                                                                                                              \
        return rc;                                                                                                     \
    }
PMIXPP_GET_UNSIGNED(get_u8, uint8_t, 1)
PMIXPP_GET_UNSIGNED(get_u16, uint16_t, 2)
PMIXPP_GET_UNSIGNED(get_u32, uint32_t, 4)
PMIXPP_GET_UNSIGNED(get_u64, uint64_t, 8)
PMIXPP_GET_UNSIGNED(get_i32, int32_t, 4)
PMIXPP_GET_UNSIGNED(get_i64, int64_t, 8)
#undef PMIXPP_GET_UNSIGNED

pmix_status_t Unpacker::get_float(float *v_p)
{
    uint32_t bits;
    pmix_status_t rc = get_u32(&bits);
    if (rc == PMIX_SUCCESS) {
        std::memcpy(v_p, &bits, sizeof bits);
    }
    return rc;
}

pmix_status_t Unpacker::get_double(double *v_p)
{
    uint64_t bits;
    pmix_status_t rc = get_u64(&bits);
    if (rc == PMIX_SUCCESS) {
        std::memcpy(v_p, &bits, sizeof bits);
    }
    return rc;
}

pmix_status_t Unpacker::get_raw(void *dest, size_t n)
{
    if (remaining() < n) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (n != 0) {
        std::memcpy(dest, cur_, n);
        cur_ += n;
    }
    return PMIX_SUCCESS;
}

pmix_status_t Unpacker::get_string(char **s_p)
{
    uint32_t enc;
    pmix_status_t rc = get_u32(&enc);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (enc == kNullString) {
        *s_p = nullptr;
        return PMIX_SUCCESS;
    }
    size_t len = enc - 1;
    if (remaining() < len) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (std::memchr(cur_, '\0', len) != nullptr) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    auto *s = static_cast<char *>(std::malloc(len + 1));
    if (s == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    std::memcpy(s, cur_, len);
    s[len] = '\0';
    cur_ += len;
    *s_p = s;
    return PMIX_SUCCESS;
}

pmix_status_t Unpacker::get_fixed_string(char *dest, size_t cap)
{
    uint32_t enc;
    pmix_status_t rc = get_u32(&enc);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    std::memset(dest, 0, cap);
    if (enc == kNullString) {
        return PMIX_SUCCESS;
    }
    size_t len = enc - 1;
    if (len >= cap) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (remaining() < len) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (std::memchr(cur_, '\0', len) != nullptr) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    std::memcpy(dest, cur_, len);
    cur_ += len;
    return PMIX_SUCCESS;
}

pmix_status_t Unpacker::get_argv(char ***argv_p)
{
    uint32_t enc;
    pmix_status_t rc = get_u32(&enc);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (enc == 0) {
        *argv_p = nullptr;
        return PMIX_SUCCESS;
    }
    size_t n = enc - 1;
    // Every string costs at least its 4-byte length field.
    if (n > remaining() / 4) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    auto **argv = static_cast<char **>(std::calloc(n + 1, sizeof(char *)));
    if (argv == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; ++i) {
        rc = get_string(&argv[i]);
        if (rc == PMIX_SUCCESS && argv[i] == nullptr) {
            rc = PMIX_ERR_UNPACK_FAILURE;  // a NULL inside argv would truncate it
        }
        if (rc != PMIX_SUCCESS) {
            for (size_t j = 0; j < i; ++j) {
                std::free(argv[j]);
            }
            std::free(argv);
            return rc;
        }
    }
    *argv_p = argv;
    return PMIX_SUCCESS;
}

pmix_status_t Unpacker::get_bytes(char **bytes_p, size_t *size_p)
{
    uint64_t size;
    pmix_status_t rc = get_u64(&size);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (size > remaining()) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    char *bytes = nullptr;
    if (size != 0) {
        bytes = static_cast<char *>(std::malloc(size));
        if (bytes == nullptr) {
            return PMIX_ERR_NOMEM;
        }
        std::memcpy(bytes, cur_, size);
        cur_ += size;
    }
    *bytes_p = bytes;
    *size_p = size;
    return PMIX_SUCCESS;
}

pmix_status_t Unpacker::get_count(size_t min_wire, size_t *count_p)
{
    uint32_t n;
    pmix_status_t rc = get_u32(&n);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (min_wire != 0 && n > remaining() / min_wire) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    *count_p = n;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::buffer
