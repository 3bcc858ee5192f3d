#include "common/runtime/log.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace pmixpp::runtime {

namespace {

void write_line(std::string_view area, std::string_view what)
{
    std::string line;
    line.reserve(area.size() + what.size() + 12);
    line.append("pmixpp: ").append(area).append(": ").append(what).append("\n");
    // One write() so lines of concurrent threads and processes do not mix.
    ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
    (void)ignored;
}

}  // namespace

bool verbose_enabled(const char *verbose_env)
{
    const char *value = std::getenv(verbose_env);
    return value != nullptr && std::atoi(value) > 0;
}

void log_warning(std::string_view area, std::string_view what)
{
    write_line(area, what);
}

void log_trace(const char *verbose_env, std::string_view area, std::string_view what)
{
    if (verbose_enabled(verbose_env)) {
        write_line(area, what);
    }
}

}  // namespace pmixpp::runtime
