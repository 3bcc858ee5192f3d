#include "server/state/info_read.h"

#include <cstring>
#include <limits>

namespace pmixpp::server {

const pmix_info_t *find_info(const pmix_info_t info[], std::size_t ninfo, const char *key)
{
    if (info == nullptr) return nullptr;
    for (std::size_t i = 0; i < ninfo; ++i) {
        if (std::strncmp(info[i].key, key, PMIX_MAX_KEYLEN) == 0) return &info[i];
    }
    return nullptr;
}

pmix_status_t read_bool(const pmix_value_t &value, bool *out_p)
{
    switch (value.type) {
    case PMIX_UNDEF: *out_p = true; return PMIX_SUCCESS;
    case PMIX_BOOL: *out_p = value.data.flag; return PMIX_SUCCESS;
    default: return PMIX_ERR_BAD_PARAM;
    }
}

pmix_status_t read_string(const pmix_value_t &value, std::string *out_p)
{
    if (value.type != PMIX_STRING || value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
    *out_p = value.data.string;
    return PMIX_SUCCESS;
}

namespace {

bool as_u64(const pmix_value_t &value, uint64_t *out_p)
{
    int64_t signed_value = 0;
    switch (value.type) {
    case PMIX_UINT8: *out_p = value.data.uint8; return true;
    case PMIX_UINT16: *out_p = value.data.uint16; return true;
    case PMIX_UINT32: *out_p = value.data.uint32; return true;
    case PMIX_UINT64: *out_p = value.data.uint64; return true;
    case PMIX_SIZE: *out_p = value.data.size; return true;
    case PMIX_PROC_RANK: *out_p = value.data.rank; return true;
    case PMIX_INT8: signed_value = value.data.int8; break;
    case PMIX_INT16: signed_value = value.data.int16; break;
    case PMIX_INT32: signed_value = value.data.int32; break;
    case PMIX_INT64: signed_value = value.data.int64; break;
    case PMIX_INT: signed_value = value.data.integer; break;
    case PMIX_UINT: *out_p = value.data.uint; return true;
    default: return false;
    }
    if (signed_value < 0) return false;
    *out_p = static_cast<uint64_t>(signed_value);
    return true;
}

}  // namespace

pmix_status_t read_u32(const pmix_value_t &value, uint32_t *out_p)
{
    uint64_t wide = 0;
    if (!as_u64(value, &wide) || wide > std::numeric_limits<uint32_t>::max()) return PMIX_ERR_BAD_PARAM;
    *out_p = static_cast<uint32_t>(wide);
    return PMIX_SUCCESS;
}

pmix_status_t read_rank(const pmix_value_t &value, pmix_rank_t *out_p)
{
    uint32_t rank = 0;
    const pmix_status_t rc = read_u32(value, &rank);
    if (rc == PMIX_SUCCESS) *out_p = rank;
    return rc;
}

pmix_status_t read_pointer(const pmix_value_t &value, void **out_p)
{
    if (value.type != PMIX_POINTER) return PMIX_ERR_BAD_PARAM;
    *out_p = value.data.ptr;
    return PMIX_SUCCESS;
}

bool directive_flag(const pmix_info_t info[], std::size_t ninfo, const char *key)
{
    const pmix_info_t *item = find_info(info, ninfo, key);
    bool flag = false;
    return item != nullptr && read_bool(item->value, &flag) == PMIX_SUCCESS && flag;
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
