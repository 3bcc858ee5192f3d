#include "common/wire/flow_limits.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <string>

#include "common/runtime/log.h"

namespace pmixpp::wire {

namespace {

// The variable's value, or the default with one warning when it is not a
// size (each variable warns once per process).
std::size_t size_from(const char *variable, std::size_t fallback)
{
    const char *value = std::getenv(variable);
    if (value == nullptr || *value == '\0') return fallback;
    std::size_t bytes = 0;
    if (parse_byte_size(value, &bytes)) return bytes;
    runtime::log_warning("wire", std::string(variable) + "=\"" + value +
                                     "\" is not a positive size such as 4194304, 512k or 4m (ignored; using " +
                                     std::to_string(fallback) + ")");
    return fallback;
}

}  // namespace

bool parse_byte_size(const char *text, std::size_t *bytes_p)
{
    if (text == nullptr || *text < '0' || *text > '9') return false;
    char *end = nullptr;
    errno = 0;
    const unsigned long long number = std::strtoull(text, &end, 10);
    if (errno != 0 || number == 0) return false;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'k':
    case 'K':
        shift = 10;
        ++end;
        break;
    case 'm':
    case 'M':
        shift = 20;
        ++end;
        break;
    case 'g':
    case 'G':
        shift = 30;
        ++end;
        break;
    default: return false;
    }
    if (*end != '\0' || number > (std::numeric_limits<std::size_t>::max() >> shift)) return false;
    *bytes_p = static_cast<std::size_t>(number) << shift;
    return true;
}

FlowLimits FlowLimits::server_from_environment()
{
    static const FlowLimits limits = [] {
        FlowLimits read;
        read.high_water = size_from(kHighWaterEnv, kDefaultHighWater);
        read.low_water = size_from(kLowWaterEnv, kDefaultLowWater);
        read.hard_limit = size_from(kHardLimitEnv, kDefaultHardLimit);
        read.frames_per_wakeup = size_from(kFramesPerWakeupEnv, kDefaultFramesPerWakeup);
        if (read.low_water >= read.high_water) read.low_water = read.high_water / 2;
        if (read.hard_limit < read.high_water) read.hard_limit = read.high_water;
        return read;
    }();
    return limits;
}

}  // namespace pmixpp::wire
