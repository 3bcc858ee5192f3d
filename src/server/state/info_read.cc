#include "server/state/info_read.h"

#include <pmixpp/util.hpp>

namespace pmixpp::server {

// The readers are the SDK's (pmixpp/util.hpp), so that the server and the
// components give an attribute the same meaning; the names stay for the
// server's many callers.

const pmix_info_t *find_info(const pmix_info_t info[], std::size_t ninfo, const char *key)
{
    return util::find_info(info, ninfo, key);
}

pmix_status_t read_bool(const pmix_value_t &value, bool *out_p)
{
    return util::read_bool(value, out_p);
}

pmix_status_t read_string(const pmix_value_t &value, std::string *out_p)
{
    return util::read_string(value, out_p);
}

pmix_status_t read_u32(const pmix_value_t &value, uint32_t *out_p)
{
    return util::read_unsigned(value, out_p);
}

pmix_status_t read_rank(const pmix_value_t &value, pmix_rank_t *out_p)
{
    return util::read_unsigned(value, out_p);
}

pmix_status_t read_pointer(const pmix_value_t &value, void **out_p)
{
    if (value.type != PMIX_POINTER) return PMIX_ERR_BAD_PARAM;
    *out_p = value.data.ptr;
    return PMIX_SUCCESS;
}

bool directive_flag(const pmix_info_t info[], std::size_t ninfo, const char *key)
{
    return util::flag_set(info, ninfo, key);
}

std::optional<uint32_t> directive_timeout(const pmix_info_t info[], std::size_t ninfo)
{
    const pmix_info_t *item = find_info(info, ninfo, PMIX_TIMEOUT);
    uint32_t seconds = 0;
    if (item == nullptr || read_u32(item->value, &seconds) != PMIX_SUCCESS || seconds == 0) {
        return std::nullopt;
    }
    return seconds;
}

}  // namespace pmixpp::server
