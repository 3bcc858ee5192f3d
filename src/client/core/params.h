// The client's tunables, read from the environment when used (so a test or
// a launcher may set them per process). They follow OpenPMIx's grammar for
// core params, PMIX_MCA_pmix_<name>; src/client/README.md lists them.
#ifndef PMIXPP_CLIENT_CORE_PARAMS_H
#define PMIXPP_CLIENT_CORE_PARAMS_H

#include <chrono>

namespace pmixpp::client {

// How long PMIx_Finalize waits for the server's reply
// (PMIX_MCA_pmix_client_finalize_timeout, seconds, default 5).
inline constexpr const char *kFinalizeTimeoutParam = "PMIX_MCA_pmix_client_finalize_timeout";
inline constexpr std::chrono::milliseconds kDefaultFinalizeTimeout{5000};

// How long one event handler may hold an event before the chain moves on
// (PMIX_MCA_pmix_client_event_handler_timeout, seconds, default 60, 0 =
// no limit).
inline constexpr const char *kEventHandlerTimeoutParam = "PMIX_MCA_pmix_client_event_handler_timeout";
inline constexpr std::chrono::milliseconds kDefaultEventHandlerTimeout{60000};

// A duration given in (possibly fractional) seconds by environment variable
// `name`; `fallback` when unset, empty, negative or not a number (the latter
// with one warning naming the variable).
std::chrono::milliseconds seconds_param(const char *name, std::chrono::milliseconds fallback);

}  // namespace pmixpp::client

#endif
