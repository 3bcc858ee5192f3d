// Reading typed values out of a host's pmix_info_t array. A value of the
// wrong type is PMIX_ERR_BAD_PARAM (the host must hear about a mistake, not
// have it ignored); a bool given with no data (PMIX_UNDEF) counts as true,
// as PMIX_INFO_TRUE does.
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
// Any unsigned or non-negative signed integer type that fits.
pmix_status_t read_u32(const pmix_value_t &value, uint32_t *out_p);
pmix_status_t read_rank(const pmix_value_t &value, pmix_rank_t *out_p);
pmix_status_t read_pointer(const pmix_value_t &value, void **out_p);

// A directive's bool: false when absent or malformed (directives are hints).
bool directive_flag(const pmix_info_t info[], std::size_t ninfo, const char *key);
// PMIX_TIMEOUT in seconds; nullopt when absent, zero or not an integer.
std::optional<uint32_t> directive_timeout(const pmix_info_t info[], std::size_t ninfo);

}  // namespace pmixpp::server

#endif
