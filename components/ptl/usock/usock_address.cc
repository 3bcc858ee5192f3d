#include "usock.h"

#include <cstddef>
#include <cstring>

namespace pmixpp::ptl::usock {
namespace {

constexpr std::string_view scheme = "usock:";

bool has_nul(std::string_view text)
{
    return text.find('\0') != std::string_view::npos;
}

}  // namespace

bool parse_uri(std::string_view uri, UnixAddress *address_p)
{
    if (!uri.starts_with(scheme)) return false;
    std::string_view rest = uri.substr(scheme.size());
    UnixAddress address;
    if (rest.starts_with('@')) {
        address.abstract = true;
        rest.remove_prefix(1);
    } else if (!rest.starts_with('/')) {
        return false;  // relative paths would depend on the client's cwd
    }
    if (rest.empty() || rest.size() > max_name_length || has_nul(rest)) return false;
    address.name = std::string(rest);
    *address_p = std::move(address);
    return true;
}

std::string to_uri(const UnixAddress &address)
{
    return std::string(scheme) + (address.abstract ? "@" : "") + address.name;
}

bool to_sockaddr(const UnixAddress &address, sockaddr_un *sockaddr_p, socklen_t *length_p)
{
    if (address.name.empty() || address.name.size() > max_name_length) return false;
    sockaddr_un result{};
    result.sun_family = AF_UNIX;
    socklen_t length = 0;
    if (address.abstract) {
        // sun_path[0] stays NUL; the name's exact length, not a terminator,
        // delimits it, so the address length counts only its bytes.
        std::memcpy(result.sun_path + 1, address.name.data(), address.name.size());
        length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + address.name.size());
    } else {
        std::memcpy(result.sun_path, address.name.data(), address.name.size());
        length = static_cast<socklen_t>(sizeof(result));
    }
    *sockaddr_p = result;
    *length_p = length;
    return true;
}

}  // namespace pmixpp::ptl::usock
