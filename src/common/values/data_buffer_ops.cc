// Element operations for pmix_data_buffer_t. Only the public layout is used:
// base_ptr holds bytes_allocated bytes, of which bytes_used are packed;
// pack_ptr and unpack_ptr point into that region.
#include <cstdlib>
#include <cstring>

#include "common/values/element_ops.h"
#include "common/values/memory_helpers.h"

namespace pmixpp::values::ops {
namespace {

bool points_into(const char *p, const pmix_data_buffer_t *buf)
{
    return nullptr == p || (p >= buf->base_ptr && p <= buf->base_ptr + buf->bytes_used);
}

}  // namespace

pmix_status_t copy_data_buffer(void *dest, const void *src)
{
    auto to = static_cast<pmix_data_buffer_t *>(dest);
    auto from = static_cast<const pmix_data_buffer_t *>(src);
    if (nullptr == from->base_ptr || 0 == from->bytes_used) {
        return PMIX_SUCCESS;
    }
    if (from->bytes_used > from->bytes_allocated || !points_into(from->pack_ptr, from) ||
        !points_into(from->unpack_ptr, from)) {
        return PMIX_ERR_BAD_PARAM;
    }
    auto base = static_cast<char *>(std::malloc(from->bytes_used));
    if (nullptr == base) {
        return PMIX_ERR_NOMEM;
    }
    std::memcpy(base, from->base_ptr, from->bytes_used);
    to->base_ptr = base;
    to->pack_ptr = base + (from->pack_ptr ? from->pack_ptr - from->base_ptr : from->bytes_used);
    to->unpack_ptr = base + (from->unpack_ptr ? from->unpack_ptr - from->base_ptr : 0);
    to->bytes_allocated = from->bytes_used;
    to->bytes_used = from->bytes_used;
    return PMIX_SUCCESS;
}

void destruct_data_buffer(void *element)
{
    auto buf = static_cast<pmix_data_buffer_t *>(element);
    std::free(buf->base_ptr);
    std::memset(buf, 0, sizeof(*buf));
}

pmix_value_cmp_t compare_data_buffer(const void *a, const void *b)
{
    auto x = static_cast<const pmix_data_buffer_t *>(a);
    auto y = static_cast<const pmix_data_buffer_t *>(b);
    return compare_bytes(x->base_ptr, x->bytes_used, y->base_ptr, y->bytes_used);
}

}  // namespace pmixpp::values::ops
