// Reading typed values out of a host's pmix_info_t array, with the meanings
// of the SDK's <pmixpp/util.hpp> (which these delegate to): a value of the
// wrong type or out of range is an error status (the host must hear about a
// mistake, not have it ignored); a bool is PMIX_BOOL, no value (PMIX_UNDEF,
// true) or one of the strings 1/true/yes/on, 0/false/no/off in any case.
#ifndef PMIXPP_SERVER_STATE_INFO_READ_H
#define PMIXPP_SERVER_STATE_INFO_READ_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace pmixpp::server {

const pmix_info_t *find_info(const pmix_info_t info[], std::size_t ninfo, const char *key);

pmix_status_t read_bool(const pmix_value_t &value, bool *out_p);
pmix_status_t read_string(const pmix_value_t &value, std::string *out_p);
// Any integer type (pid and rank included) whose value fits.
pmix_status_t read_u32(const pmix_value_t &value, uint32_t *out_p);
pmix_status_t read_rank(const pmix_value_t &value, pmix_rank_t *out_p);
pmix_status_t read_pointer(const pmix_value_t &value, void **out_p);

// A directive's bool: false when absent or malformed (directives are hints).
bool directive_flag(const pmix_info_t info[], std::size_t ninfo, const char *key);
// PMIX_TIMEOUT in seconds; nullopt when absent, zero or not an integer.
std::optional<uint32_t> directive_timeout(const pmix_info_t info[], std::size_t ninfo);

}  // namespace pmixpp::server

#endif
