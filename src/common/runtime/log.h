// One-line diagnostics of the core: "pmixpp: <area>: <what> (<what to do>)"
// on stderr. Any thread; each line is written with a single write().
#ifndef PMIXPP_COMMON_RUNTIME_LOG_H
#define PMIXPP_COMMON_RUNTIME_LOG_H

#include <string_view>

namespace pmixpp::runtime {

// Always printed: warnings and errors a user must see.
void log_warning(std::string_view area, std::string_view what);

// Printed only when the integer in environment variable verbose_env (for
// example "PMIX_MCA_ptl_verbose") is > 0.
void log_trace(const char *verbose_env, std::string_view area, std::string_view what);
bool verbose_enabled(const char *verbose_env);

}  // namespace pmixpp::runtime

#endif
