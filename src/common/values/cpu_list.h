// hwloc's list ("0-3,8") and mask ("0x000000ff,0x00000001") notations as
// other processes write them: in cpuset strings (PMIX_CPUSET) and in the
// object lists of locality strings. Checked before hwloc reads them, because
// hwloc takes any size and endless sets ("N-", "0xf...f"): "0-4000000000"
// makes it allocate half a gigabyte, printing an endless set never
// finishes, and a malformed mask (",0x1f") trips an assert() inside hwloc.
#ifndef PMIXPP_COMMON_VALUES_CPU_LIST_H
#define PMIXPP_COMMON_VALUES_CPU_LIST_H

#include <string_view>

namespace pmixpp::values {

// Larger than any machine's count of processors or cache, core and package
// objects (Linux's NR_CPUS tops out at 8192).
inline constexpr unsigned long kMaxCpuIndex = 65535;

// True for "N", "N-M" (N <= M) items joined by ',', every number at most
// kMaxCpuIndex, nothing else (no sign, space or empty item). An empty text
// is an empty list.
bool is_bounded_cpu_list(std::string_view text);

// True for "0x" and 1 to 8 hex digits, then any number of ",", an optional
// "0x" and 1 to 8 hex digits: 32 bits a group, highest first, at most
// (kMaxCpuIndex + 1) / 32 groups. Not the endless "0xf...f".
bool is_bounded_cpu_mask(std::string_view text);

}  // namespace pmixpp::values

#endif
