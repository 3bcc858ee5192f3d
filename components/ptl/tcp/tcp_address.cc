#include "tcp.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>

namespace pmixpp::ptl::tcp {
namespace {

constexpr std::string_view tcp4_scheme = "tcp4://";
constexpr std::string_view tcp6_scheme = "tcp6://";

bool parse_port(std::string_view text, uint16_t *port_p)
{
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535) {
        return false;
    }
    *port_p = static_cast<uint16_t>(value);
    return true;
}

bool parse_ipv4(std::string_view rest, Endpoint *endpoint_p)
{
    const size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos) return false;
    const std::string host(rest.substr(0, colon));
    uint16_t port = 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    if (!parse_port(rest.substr(colon + 1), &port) || inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
        return false;
    }
    address.sin_port = htons(port);
    Endpoint endpoint;
    std::memcpy(&endpoint.storage, &address, sizeof(address));
    endpoint.length = sizeof(address);
    *endpoint_p = endpoint;
    return true;
}

bool parse_ipv6(std::string_view rest, Endpoint *endpoint_p)
{
    const size_t close = rest.find("]:");
    if (!rest.starts_with('[') || close == std::string_view::npos) return false;
    const std::string host(rest.substr(1, close - 1));
    uint16_t port = 0;
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    if (!parse_port(rest.substr(close + 2), &port) || inet_pton(AF_INET6, host.c_str(), &address.sin6_addr) != 1) {
        return false;
    }
    address.sin6_port = htons(port);
    Endpoint endpoint;
    std::memcpy(&endpoint.storage, &address, sizeof(address));
    endpoint.length = sizeof(address);
    *endpoint_p = endpoint;
    return true;
}

const sockaddr_in &ipv4(const Endpoint &endpoint)
{
    return *reinterpret_cast<const sockaddr_in *>(&endpoint.storage);
}
const sockaddr_in6 &ipv6(const Endpoint &endpoint)
{
    return *reinterpret_cast<const sockaddr_in6 *>(&endpoint.storage);
}

}  // namespace

bool parse_uri(std::string_view uri, Endpoint *endpoint_p)
{
    if (uri.find('\0') != std::string_view::npos) return false;
    if (uri.starts_with(tcp4_scheme)) return parse_ipv4(uri.substr(tcp4_scheme.size()), endpoint_p);
    if (uri.starts_with(tcp6_scheme)) return parse_ipv6(uri.substr(tcp6_scheme.size()), endpoint_p);
    return false;
}

std::string to_uri(const Endpoint &endpoint)
{
    char host[INET6_ADDRSTRLEN] = {};
    if (endpoint.family() == AF_INET) {
        inet_ntop(AF_INET, &ipv4(endpoint).sin_addr, host, sizeof(host));
        return std::string(tcp4_scheme) + host + ":" + std::to_string(port_of(endpoint));
    }
    inet_ntop(AF_INET6, &ipv6(endpoint).sin6_addr, host, sizeof(host));
    return std::string(tcp6_scheme) + "[" + host + "]:" + std::to_string(port_of(endpoint));
}

bool is_loopback(const Endpoint &endpoint)
{
    if (endpoint.family() == AF_INET) return (ntohl(ipv4(endpoint).sin_addr.s_addr) >> 24) == 127;
    if (endpoint.family() != AF_INET6) return false;
    const in6_addr &address = ipv6(endpoint).sin6_addr;
    if (IN6_IS_ADDR_LOOPBACK(&address)) return true;
    // ::ffff:127.x.y.z, an IPv4 loopback peer seen through an IPv6 socket
    return IN6_IS_ADDR_V4MAPPED(&address) && address.s6_addr[12] == 127;
}

bool same_host_address(const Endpoint &a, const Endpoint &b)
{
    if (a.family() != b.family()) return false;
    if (a.family() == AF_INET) return ipv4(a).sin_addr.s_addr == ipv4(b).sin_addr.s_addr;
    if (a.family() == AF_INET6) return std::memcmp(&ipv6(a).sin6_addr, &ipv6(b).sin6_addr, sizeof(in6_addr)) == 0;
    return false;
}

uint16_t port_of(const Endpoint &endpoint)
{
    return ntohs(endpoint.family() == AF_INET ? ipv4(endpoint).sin_port : ipv6(endpoint).sin6_port);
}

void set_port(Endpoint *endpoint, uint16_t port)
{
    if (endpoint->family() == AF_INET) {
        reinterpret_cast<sockaddr_in *>(&endpoint->storage)->sin_port = htons(port);
    } else {
        reinterpret_cast<sockaddr_in6 *>(&endpoint->storage)->sin6_port = htons(port);
    }
}

}  // namespace pmixpp::ptl::tcp
