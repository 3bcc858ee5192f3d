#include "client/core/params.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "common/runtime/log.h"

namespace pmixpp::client {

std::chrono::milliseconds seconds_param(const char *name, std::chrono::milliseconds fallback)
{
    const char *text = std::getenv(name);
    if (text == nullptr || text[0] == '\0') {
        return fallback;
    }
    char *end = nullptr;
    double seconds = std::strtod(text, &end);
    // An hour-long cap keeps the conversion in range; nobody waits longer.
    if (end == text || *end != '\0' || !std::isfinite(seconds) || seconds < 0 || seconds > 3600.0) {
        runtime::log_warning("client", std::string(name) + "=" + text +
                                           " is not a number of seconds in [0, 3600] (the default is used)");
        return fallback;
    }
    return std::chrono::milliseconds{static_cast<long long>(seconds * 1000.0)};
}

}  // namespace pmixpp::client
