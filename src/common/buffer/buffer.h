// Internal entry points of the buffer area, for the library's own wire
// protocol and for the public PMIx_Data_* wrappers (data_api.cc). Every
// function leaves the buffer unchanged when it fails.
#ifndef PMIXPP_COMMON_BUFFER_BUFFER_H
#define PMIXPP_COMMON_BUFFER_BUFFER_H

#include <cstddef>

#include <pmix_common.h>

#include "common/buffer/packer.h"

namespace pmixpp::buffer {

// Appends one group of n elements of type (layout as in values/type_ops.h).
pmix_status_t pack(pmix_data_buffer_t *buf, const void *src, size_t n, pmix_data_type_t type);

// Reads the next group into caller storage for *n_inout elements and sets
// *n_inout to the number read. PMIX_ERR_PACK_MISMATCH when the next group has
// another type, PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER when nothing is left.
pmix_status_t unpack(pmix_data_buffer_t *buf, void *dest, size_t *n_inout, pmix_data_type_t type);

// Type tag of the next group without consuming it.
pmix_status_t peek_type(const pmix_data_buffer_t *buf, pmix_data_type_t *type_p);

// Appends the not-yet-unpacked bytes of src to dest.
pmix_status_t copy_payload(pmix_data_buffer_t *dest, const pmix_data_buffer_t *src);

// Typed conveniences for the wire protocol: pack_one(buf, x, PMIX_UINT32).
template <typename T> pmix_status_t pack_one(pmix_data_buffer_t *buf, const T &value, pmix_data_type_t type)
{
    return pack(buf, &value, 1, type);
}

template <typename T> pmix_status_t unpack_one(pmix_data_buffer_t *buf, T *value_p, pmix_data_type_t type)
{
    size_t n = 1;
    return unpack(buf, value_p, &n, type);
}

}  // namespace pmixpp::buffer

#endif
