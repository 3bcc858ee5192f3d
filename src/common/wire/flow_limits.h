// How much a server lets one peer cost it: bytes queued for a peer that does
// not read, and frames handled for it per wake-up. A client or tool has one
// peer (its server) and no limits: pausing its reads could deadlock with a
// server pausing on it.
//
//   PMIX_MCA_ptl_base_queue_high_water  stop reading a peer whose unsent
//                                       replies pass this (default 4M)
//   PMIX_MCA_ptl_base_queue_low_water   read it again below this (default 1M)
//   PMIX_MCA_ptl_base_queue_hard_limit  drop a peer whose unsent bytes pass
//                                       this (default 32M); only frames the
//                                       server sends unasked (events) get so
//                                       far, since a paused peer asks nothing
//   PMIX_MCA_ptl_base_frames_per_wakeup frames handled before the other
//                                       peers get their turn (default 64)
// Sizes take a k/m/g suffix. A bad value is reported once and the default
// used: a typo must not lift the guard.
#ifndef PMIXPP_COMMON_WIRE_FLOW_LIMITS_H
#define PMIXPP_COMMON_WIRE_FLOW_LIMITS_H

#include <cstddef>

namespace pmixpp::wire {

inline constexpr const char *kHighWaterEnv = "PMIX_MCA_ptl_base_queue_high_water";
inline constexpr const char *kLowWaterEnv = "PMIX_MCA_ptl_base_queue_low_water";
inline constexpr const char *kHardLimitEnv = "PMIX_MCA_ptl_base_queue_hard_limit";
inline constexpr const char *kFramesPerWakeupEnv = "PMIX_MCA_ptl_base_frames_per_wakeup";

struct FlowLimits {
    static constexpr std::size_t kDefaultHighWater = std::size_t{4} << 20;
    static constexpr std::size_t kDefaultLowWater = std::size_t{1} << 20;
    static constexpr std::size_t kDefaultHardLimit = std::size_t{32} << 20;
    static constexpr std::size_t kDefaultFramesPerWakeup = 64;

    std::size_t high_water = 0;  // 0: never pause reading
    std::size_t low_water = 0;
    std::size_t hard_limit = 0;         // 0: never drop
    std::size_t frames_per_wakeup = 0;  // 0: no cap

    bool pauses() const { return high_water > 0; }

    // The server's limits: defaults overridden by the variables above. A low
    // water at or above the high water is set to half of it.
    static FlowLimits server_from_environment();
};

// "4194304", "512k", "4m", "1g" -> bytes; false for anything else (or 0).
bool parse_byte_size(const char *text, std::size_t *bytes_p);

}  // namespace pmixpp::wire

#endif
