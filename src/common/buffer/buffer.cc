#include "common/buffer/buffer.h"

#include "common/buffer/codec.h"

namespace pmixpp::buffer {

pmix_status_t pack(pmix_data_buffer_t *buf, const void *src, size_t n, pmix_data_type_t type)
{
    if (!buffer_is_consistent(buf) || (n != 0 && src == nullptr)) {
        return PMIX_ERR_BAD_PARAM;
    }
    Packer packer(buf);
    pmix_status_t rc = pack_group(packer, src, n, type);
    if (rc != PMIX_SUCCESS) {
        packer.rollback();
    }
    return rc;
}

pmix_status_t unpack(pmix_data_buffer_t *buf, void *dest, size_t *n_inout, pmix_data_type_t type)
{
    if (buf == nullptr || dest == nullptr || n_inout == nullptr || *n_inout == 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    Unpacker unpacker(buf);
    if (!unpacker.valid()) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (unpacker.remaining() == 0) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    size_t n = *n_inout;
    pmix_status_t rc = unpack_group(unpacker, dest, &n, type);
    if (rc != PMIX_SUCCESS) {
        return rc;  // the unpacker was not committed: buf is unchanged
    }
    unpacker.commit();
    *n_inout = n;
    return PMIX_SUCCESS;
}

pmix_status_t peek_type(const pmix_data_buffer_t *buf, pmix_data_type_t *type_p)
{
    if (type_p == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    // The Unpacker only reads; it needs a mutable buffer solely for commit().
    Unpacker unpacker(const_cast<pmix_data_buffer_t *>(buf));
    if (!unpacker.valid()) {
        return PMIX_ERR_BAD_PARAM;
    }
    return unpacker.peek_u16(type_p);
}

pmix_status_t copy_payload(pmix_data_buffer_t *dest, const pmix_data_buffer_t *src)
{
    // dest == src would read from storage that growing dest may move.
    if (!buffer_is_consistent(dest) || !buffer_is_consistent(src) || dest == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (src->base_ptr == nullptr) {
        return PMIX_SUCCESS;
    }
    size_t unread = src->bytes_used - static_cast<size_t>(src->unpack_ptr - src->base_ptr);
    Packer packer(dest);
    pmix_status_t rc = packer.put_raw(src->unpack_ptr, unread);
    if (rc != PMIX_SUCCESS) {
        packer.rollback();
    }
    return rc;
}

}  // namespace pmixpp::buffer
