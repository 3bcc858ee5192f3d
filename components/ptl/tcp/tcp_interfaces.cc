// Which local addresses ptl/tcp listens on. Without remote connections only
// loopback addresses qualify; if_include / if_exclude then filter by
// interface name ("lo") or by network ("10.0.0.0/8", "fd00::/8").
#include "tcp.h"

#include "../shared/ptl_shared.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>
#include <new>

namespace pmixpp::ptl::tcp {
namespace {

// One entry of an include/exclude list.
struct Selector {
    std::string interface;   // a name, or empty for a network
    int family = AF_UNSPEC;  // of the network
    unsigned char network[16] = {};
    unsigned prefix_bits = 0;
};

bool parse_network(std::string_view token, Selector *selector_p)
{
    const size_t slash = token.find('/');
    const std::string host(token.substr(0, slash));
    const std::string_view bits_text = token.substr(slash + 1);
    Selector selector;
    selector.family = host.find(':') == std::string::npos ? AF_INET : AF_INET6;
    const unsigned max_bits = selector.family == AF_INET ? 32 : 128;
    const auto [end, ec] =
        std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), selector.prefix_bits, 10);
    if (bits_text.empty() || ec != std::errc() || end != bits_text.data() + bits_text.size() ||
        selector.prefix_bits > max_bits || inet_pton(selector.family, host.c_str(), selector.network) != 1) {
        return false;
    }
    *selector_p = selector;
    return true;
}

pmix_status_t parse_selectors(const char *what, const std::string &list, std::vector<Selector> *selectors_p)
{
    std::vector<Selector> selectors;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view token = std::string_view(list).substr(start, comma - start);
        start = comma + 1;
        if (token.empty()) continue;
        Selector selector;
        if (token.find('/') != std::string_view::npos) {
            if (!parse_network(token, &selector)) {
                log(PMIXPP_LOG_ERROR, "%s: '%.*s' is not a network such as 10.0.0.0/8 or fd00::/8", what,
                    static_cast<int>(token.size()), token.data());
                return PMIX_ERR_BAD_PARAM;
            }
        } else if (token.size() >= IFNAMSIZ) {
            log(PMIXPP_LOG_ERROR, "%s: '%.*s' is too long for an interface name", what, static_cast<int>(token.size()),
                token.data());
            return PMIX_ERR_BAD_PARAM;
        } else {
            selector.interface = std::string(token);
        }
        selectors.push_back(std::move(selector));
    }
    *selectors_p = std::move(selectors);
    return PMIX_SUCCESS;
}

const unsigned char *address_bytes(const Endpoint &endpoint)
{
    if (endpoint.family() == AF_INET) {
        return reinterpret_cast<const unsigned char *>(
            &reinterpret_cast<const sockaddr_in *>(&endpoint.storage)->sin_addr);
    }
    return reinterpret_cast<const sockaddr_in6 *>(&endpoint.storage)->sin6_addr.s6_addr;
}

bool in_network(const Selector &selector, const Endpoint &endpoint)
{
    if (selector.family != endpoint.family()) return false;
    const unsigned char *bytes = address_bytes(endpoint);
    const unsigned whole = selector.prefix_bits / 8;
    const unsigned rest = selector.prefix_bits % 8;
    if (std::memcmp(bytes, selector.network, whole) != 0) return false;
    if (rest == 0) return true;
    const auto mask = static_cast<unsigned char>(0xff << (8 - rest));
    return (bytes[whole] & mask) == (selector.network[whole] & mask);
}

bool matches_any(const std::vector<Selector> &selectors, const std::string &interface, const Endpoint &endpoint)
{
    for (const Selector &selector : selectors) {
        if (selector.interface.empty() ? in_network(selector, endpoint) : selector.interface == interface) {
            return true;
        }
    }
    return false;
}

bool family_wanted(const Settings &settings, int family)
{
    return (family == AF_INET && !settings.disable_ipv4) || (family == AF_INET6 && !settings.disable_ipv6);
}

Endpoint loopback(int family)
{
    Endpoint endpoint;
    if (family == AF_INET) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        std::memcpy(&endpoint.storage, &address, sizeof(address));
        endpoint.length = sizeof(address);
    } else {
        sockaddr_in6 address{};
        address.sin6_family = AF_INET6;
        address.sin6_addr = in6addr_loopback;
        std::memcpy(&endpoint.storage, &address, sizeof(address));
        endpoint.length = sizeof(address);
    }
    return endpoint;
}

// Link-local IPv6 addresses need a scope id in every URI; they are skipped.
bool usable_interface_address(const ifaddrs &entry, Endpoint *endpoint_p)
{
    if (entry.ifa_addr == nullptr || (entry.ifa_flags & IFF_UP) == 0) return false;
    Endpoint endpoint;
    if (entry.ifa_addr->sa_family == AF_INET) {
        endpoint.length = sizeof(sockaddr_in);
    } else if (entry.ifa_addr->sa_family == AF_INET6) {
        const auto *address = reinterpret_cast<const sockaddr_in6 *>(entry.ifa_addr);
        if (IN6_IS_ADDR_LINKLOCAL(&address->sin6_addr)) return false;
        endpoint.length = sizeof(sockaddr_in6);
    } else {
        return false;
    }
    std::memcpy(&endpoint.storage, entry.ifa_addr, endpoint.length);
    set_port(&endpoint, 0);
    *endpoint_p = endpoint;
    return true;
}

pmix_status_t filtered_interface_addresses(const Settings &settings, std::vector<Endpoint> *addresses_p)
{
    std::vector<Selector> include;
    std::vector<Selector> exclude;
    pmix_status_t rc = parse_selectors(PMIX_TCP_IF_INCLUDE, settings.if_include, &include);
    if (rc == PMIX_SUCCESS) rc = parse_selectors(PMIX_TCP_IF_EXCLUDE, settings.if_exclude, &exclude);
    if (rc != PMIX_SUCCESS) return rc;
    ifaddrs *all = nullptr;
    if (getifaddrs(&all) != 0) {
        log(PMIXPP_LOG_ERROR, "cannot list the network interfaces: %s", std::strerror(errno));
        return PMIX_ERROR;
    }
    std::vector<Endpoint> addresses;
    for (const ifaddrs *entry = all; entry != nullptr; entry = entry->ifa_next) {
        Endpoint endpoint;
        if (!usable_interface_address(*entry, &endpoint) || !family_wanted(settings, endpoint.family())) continue;
        if (!settings.remote_connections && !is_loopback(endpoint)) continue;
        const std::string name = entry->ifa_name != nullptr ? entry->ifa_name : "";
        if (!include.empty() && !matches_any(include, name, endpoint)) continue;
        if (matches_any(exclude, name, endpoint)) continue;
        addresses.push_back(endpoint);
    }
    freeifaddrs(all);
    *addresses_p = std::move(addresses);
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t select_addresses(const Settings &settings, std::vector<Endpoint> *addresses_p)
{
    try {
        std::vector<Endpoint> addresses;
        if (!settings.remote_connections && settings.if_include.empty() && settings.if_exclude.empty()) {
            // The common case needs no interface list at all.
            for (int family : {AF_INET, AF_INET6}) {
                if (family_wanted(settings, family)) addresses.push_back(loopback(family));
            }
        } else {
            const pmix_status_t rc = filtered_interface_addresses(settings, &addresses);
            if (rc != PMIX_SUCCESS) return rc;
        }
        if (addresses.empty()) {
            log(PMIXPP_LOG_ERROR,
                "no interface address matches (remote connections %s, include '%s', exclude '%s'); check "
                "PMIX_TCP_IF_INCLUDE / PMIX_TCP_IF_EXCLUDE",
                settings.remote_connections ? "allowed" : "off", settings.if_include.c_str(),
                settings.if_exclude.c_str());
            return PMIX_ERR_NOT_AVAILABLE;
        }
        *addresses_p = std::move(addresses);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::ptl::tcp
