// An hwloc bitmap that frees itself.
#ifndef PMIXPP_COMMON_VALUES_HWLOC_BITMAP_H
#define PMIXPP_COMMON_VALUES_HWLOC_BITMAP_H

#include <hwloc.h>

#include <memory>

namespace pmixpp::values {

struct BitmapFree {
    void operator()(hwloc_bitmap_s *bitmap) const noexcept { hwloc_bitmap_free(bitmap); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapFree>;

}  // namespace pmixpp::values

#endif
