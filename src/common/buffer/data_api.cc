// The public PMIx_Data_* buffer functions: thin wrappers over buffer.h.
// Unlike OpenPMIx they do not require PMIx_Init: packing is pure data work.
#include <cstdlib>
#include <cstring>

#include <pmix.h>

#include "common/buffer/buffer.h"

using pmixpp::buffer::buffer_is_consistent;

extern "C" {

pmix_status_t PMIx_Data_pack(const pmix_proc_t *target, pmix_data_buffer_t *buffer, void *src, int32_t num_vals,
                             pmix_data_type_t type)
{
    (void)target;  // one encoding for every peer
    if (buffer == nullptr || num_vals < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    return pmixpp::buffer::pack(buffer, src, static_cast<size_t>(num_vals), type);
}

// Unpacks the next packed group (one PMIx_Data_pack call) into dest, which
// has room for *max_num_values elements; on success *max_num_values is the
// number unpacked.
//
// On any failure *max_num_values is set to 0 (as OpenPMIx does, e.g. for an
// empty buffer), dest is left untouched and owns nothing, and the buffer's
// unpack position does not move. In particular, unlike OpenPMIx, a group
// larger than *max_num_values fails with PMIX_ERR_UNPACK_INADEQUATE_SPACE
// WITHOUT consuming anything (hence 0), so the caller can retry with more
// room; OpenPMIx unpacks the first *max_num_values elements, loses the rest
// and leaves the count as it was.
//
// A group packed as another integer type of the same width (PMIX_INT and
// PMIX_INT32, PMIX_SIZE and PMIX_UINT64, PMIX_SCOPE and PMIX_UINT8, ...)
// unpacks; any other type difference is PMIX_ERR_PACK_MISMATCH.
// docs/wire-format.md describes the encoding and the other differences.
pmix_status_t PMIx_Data_unpack(const pmix_proc_t *source, pmix_data_buffer_t *buffer, void *dest,
                               int32_t *max_num_values, pmix_data_type_t type)
{
    (void)source;
    if (max_num_values == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;
    size_t n = 0;
    if (*max_num_values > 0) {
        n = static_cast<size_t>(*max_num_values);
        rc = pmixpp::buffer::unpack(buffer, dest, &n, type);
    }
    *max_num_values = rc == PMIX_SUCCESS ? static_cast<int32_t>(n) : 0;
    return rc;
}

pmix_status_t PMIx_Data_copy_payload(pmix_data_buffer_t *dest, pmix_data_buffer_t *src)
{
    if (src == nullptr) {
        return PMIX_SUCCESS;  // nothing to copy, as in OpenPMIx
    }
    if (dest == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    return pmixpp::buffer::copy_payload(dest, src);
}

pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload)
{
    if (buffer == nullptr || payload == nullptr || !buffer_is_consistent(buffer)) {
        return PMIX_ERR_BAD_PARAM;
    }
    payload->bytes = nullptr;
    payload->size = 0;
    size_t consumed = buffer->base_ptr == nullptr ? 0 : buffer->unpack_ptr - buffer->base_ptr;
    size_t unread = buffer->bytes_used - consumed;
    if (unread != 0 && consumed == 0) {
        // Hand the whole region over instead of copying it.
        payload->bytes = buffer->base_ptr;
        payload->size = unread;
        buffer->base_ptr = nullptr;
    } else if (unread != 0) {
        auto *bytes = static_cast<char *>(std::malloc(unread));
        if (bytes == nullptr) {
            return PMIX_ERR_NOMEM;
        }
        std::memcpy(bytes, buffer->unpack_ptr, unread);
        payload->bytes = bytes;
        payload->size = unread;
    }
    // The buffer is left empty either way.
    std::free(buffer->base_ptr);
    std::memset(buffer, 0, sizeof *buffer);
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload)
{
    if (buffer == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    // Whatever the buffer held is released; the payload's bytes become the
    // buffer's (not copied) and the payload is emptied.
    std::free(buffer->base_ptr);
    std::memset(buffer, 0, sizeof *buffer);
    if (payload == nullptr || payload->bytes == nullptr) {
        return PMIX_SUCCESS;
    }
    buffer->base_ptr = payload->bytes;
    buffer->pack_ptr = payload->bytes + payload->size;
    buffer->unpack_ptr = payload->bytes;
    buffer->bytes_allocated = payload->size;
    buffer->bytes_used = payload->size;
    payload->bytes = nullptr;
    payload->size = 0;
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Data_embed(pmix_data_buffer_t *buffer, const pmix_byte_object_t *payload)
{
    if (buffer == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    std::free(buffer->base_ptr);
    std::memset(buffer, 0, sizeof *buffer);
    if (payload == nullptr || payload->bytes == nullptr || payload->size == 0) {
        return PMIX_SUCCESS;
    }
    // Same as load, but the caller keeps its payload: copy it.
    pmix_data_buffer_t view;
    view.base_ptr = payload->bytes;
    view.pack_ptr = payload->bytes + payload->size;
    view.unpack_ptr = payload->bytes;
    view.bytes_allocated = payload->size;
    view.bytes_used = payload->size;
    return pmixpp::buffer::copy_payload(buffer, &view);
}

}  // extern "C"
