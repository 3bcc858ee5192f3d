// ptl/tcp's own cases, next to the conformance suite.
#include "ptl/ptl_test_support.h"

#include <arpa/inet.h>
#include <fstream>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>

using namespace pmixpp::tests::ptl;

namespace pmixpp::tests::ptl {

namespace {

std::vector<std::string> uris_of(Listening &listening)
{
    std::vector<std::string> uris;
    for (size_t i = 0; i < listening.count(); ++i) uris.push_back(listening[i].uri);
    return uris;
}

bool has_prefix(const std::vector<std::string> &uris, const std::string &prefix)
{
    for (const auto &uri : uris) {
        if (uri.starts_with(prefix)) return true;
    }
    return false;
}

// Whether this host can bind ::1 at all (IPv6 may be off in a container).
bool ipv6_loopback_available()
{
    const int fd = socket(AF_INET6, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_loopback;
    const bool ok = bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0;
    close(fd);
    return ok;
}

// A port nobody listens on right now (the kernel's pick, released again).
int free_ipv4_port()
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    cr_assert_eq(bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
    cr_assert_eq(getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length), 0);
    close(fd);
    return ntohs(address.sin_port);
}

// The first IPv4 address of an interface other than lo, or "".
std::string non_loopback_ipv4()
{
    ifaddrs *all = nullptr;
    if (getifaddrs(&all) != 0) return "";
    std::string found;
    for (ifaddrs *entry = all; entry != nullptr && found.empty(); entry = entry->ifa_next) {
        if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
        const auto *address = reinterpret_cast<sockaddr_in *>(entry->ifa_addr);
        if ((ntohl(address->sin_addr.s_addr) >> 24) == 127) continue;
        char text[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &address->sin_addr, text, sizeof(text));
        found = text;
    }
    freeifaddrs(all);
    return found;
}

void finalize()
{
    framework::finalize();
}

}  // namespace

InfoList default_server_info()
{
    return InfoList();
}
void remove_server_files() {}

std::vector<GarbageInfo> garbage_info_cases()
{
    return {
        {InfoList().integer(PMIX_TCP_IPV4_PORT, 70000), PMIX_ERR_BAD_PARAM, "port too big"},
        {InfoList().integer(PMIX_TCP_IPV6_PORT, -5), PMIX_ERR_BAD_PARAM, "negative port"},
        {InfoList().text(PMIX_TCP_IPV4_PORT, "http"), PMIX_ERR_BAD_PARAM, "port text"},
        {InfoList().real(PMIX_TCP_IPV4_PORT, 80.5), PMIX_ERR_TYPE_MISMATCH, "port double"},
        {InfoList().integer(PMIX_TCP_DISABLE_IPV4, 3), PMIX_ERR_TYPE_MISMATCH, "disable int"},
        {InfoList().integer(PMIX_TCP_IF_INCLUDE, 3), PMIX_ERR_TYPE_MISMATCH, "include int"},
        {InfoList().text(PMIX_TCP_IF_INCLUDE, "10.0.0.0/40"), PMIX_ERR_BAD_PARAM, "bad prefix"},
        {InfoList().text(PMIX_TCP_IF_EXCLUDE, "300.0.0.0/8"), PMIX_ERR_BAD_PARAM, "bad network"},
        {InfoList().text(PMIX_TCP_IF_INCLUDE, "lo").text(PMIX_TCP_IF_EXCLUDE, "eth0"), PMIX_ERR_BAD_PARAM,
         "include and exclude"},
        {InfoList().text(PMIX_SERVER_REMOTE_CONNECTIONS, "sometimes"), PMIX_ERR_BAD_PARAM, "remote text"},
        {InfoList().text(PMIX_TCP_REPORT_URI, nullptr), PMIX_ERR_BAD_PARAM, "report uri NULL"},
    };
}

}  // namespace pmixpp::tests::ptl

TestSuite(tcp, .fini = pmixpp::tests::ptl::finalize);

Test(tcp, loopback_ipv4_and_ipv6_by_default)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const auto uris = uris_of(listening);
    cr_assert(has_prefix(uris, "tcp4://127.0.0.1:"), "no IPv4 loopback listener");
    if (ipv6_loopback_available()) cr_assert(has_prefix(uris, "tcp6://[::1]:"), "no IPv6 loopback listener");
    for (size_t i = 0; i < listening.count(); ++i) expect_round_trip(module, listening[i]);
}

Test(tcp, fixed_ipv4_port)
{
    const int port = free_ipv4_port();
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().integer(PMIX_TCP_IPV4_PORT, port).flag(PMIX_TCP_DISABLE_IPV6, true));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert_eq(listening.count(), 1u);
    const std::string expected = "tcp4://127.0.0.1:" + std::to_string(port);
    cr_assert_str_eq(listening[0].uri, expected.c_str());
    expect_round_trip(module, listening[0]);
}

Test(tcp, fixed_port_in_use_reported)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening first(module, InfoList().flag(PMIX_TCP_DISABLE_IPV6, true));
    cr_assert_eq(first.status(), PMIX_SUCCESS);
    const int port = std::stoi(std::string(first[0].uri).substr(std::strlen("tcp4://127.0.0.1:")));
    Listening second(module, InfoList().integer(PMIX_TCP_IPV4_PORT, port).flag(PMIX_TCP_DISABLE_IPV6, true));
    cr_assert_eq(second.status(), PMIX_ERR_NOT_AVAILABLE);
}

Test(tcp, disable_ipv4)
{
    if (!ipv6_loopback_available()) cr_skip_test("no IPv6 loopback on this host");
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().flag(PMIX_TCP_DISABLE_IPV4, true));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const auto uris = uris_of(listening);
    cr_assert_not(has_prefix(uris, "tcp4://"));
    cr_assert(has_prefix(uris, "tcp6://[::1]:"));
}

Test(tcp, disable_ipv6)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().flag(PMIX_TCP_DISABLE_IPV6, true));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const auto uris = uris_of(listening);
    cr_assert_not(has_prefix(uris, "tcp6://"));
    cr_assert(has_prefix(uris, "tcp4://127.0.0.1:"));
}

Test(tcp, both_families_disabled_not_available)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().flag(PMIX_TCP_DISABLE_IPV6, true).flag(PMIX_TCP_DISABLE_IPV4, true));
    cr_assert_eq(listening.status(), PMIX_ERR_NOT_AVAILABLE);
}

Test(tcp, report_uri_to_file)
{
    char path[] = "/tmp/pmixpp-tcp-uri-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_TCP_REPORT_URI, path));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    std::ifstream file(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    unlink(path);
    cr_assert_eq(lines.size(), listening.count());
    for (size_t i = 0; i < listening.count(); ++i) cr_assert_str_eq(lines[i].c_str(), listening[i].uri);
}

Test(tcp, report_uri_to_unwritable_place_fails)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_TCP_REPORT_URI, "/nonexistent/dir/uri"));
    cr_assert_eq(listening.status(), PMIX_ERR_FILE_OPEN_FAILURE);
}

Test(tcp, if_include_lo)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_TCP_IF_INCLUDE, "lo").flag(PMIX_SERVER_REMOTE_CONNECTIONS, true));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const auto uris = uris_of(listening);
    for (const auto &uri : uris) {
        cr_assert(uri.starts_with("tcp4://127.") || uri.starts_with("tcp6://[::1]"), "%s is not on lo", uri.c_str());
    }
    cr_assert(has_prefix(uris, "tcp4://127.0.0.1:"));
    expect_round_trip(module, listening[0]);
}

Test(tcp, if_include_by_network)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_TCP_IF_INCLUDE, "127.0.0.0/8"));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert_eq(listening.count(), 1u);
    cr_assert(std::string(listening[0].uri).starts_with("tcp4://127.0.0.1:"));
}

Test(tcp, if_exclude_lo_without_remote_leaves_nothing)
{
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_TCP_IF_EXCLUDE, "lo"));
    cr_assert_eq(listening.status(), PMIX_ERR_NOT_AVAILABLE);
}

// With remote connections another interface's address is used; a client on
// this host connecting to it is still identified by the kernel.
Test(tcp, if_exclude_lo_with_remote_connections)
{
    const std::string address = non_loopback_ipv4();
    if (address.empty()) cr_skip_test("no IPv4 interface besides lo");
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().text(PMIX_TCP_IF_EXCLUDE, "lo").flag(PMIX_SERVER_REMOTE_CONNECTIONS, true));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    const auto uris = uris_of(listening);
    cr_assert_not(has_prefix(uris, "tcp4://127."));
    cr_assert_not(has_prefix(uris, "tcp6://[::1]"));
    cr_assert(has_prefix(uris, "tcp4://" + address + ":"), "no listener on %s", address.c_str());
    for (size_t i = 0; i < listening.count(); ++i) {
        if (std::string(listening[i].uri).starts_with("tcp4://" + address)) expect_round_trip(module, listening[i]);
    }
}

Test(tcp, component_param_applies)
{
    setenv("PMIX_MCA_ptl_tcp_disable_ipv6", "1", 1);
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList());
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert_not(has_prefix(uris_of(listening), "tcp6://"));
}

Test(tcp, info_wins_over_component_param)
{
    if (!ipv6_loopback_available()) cr_skip_test("no IPv6 loopback on this host");
    setenv("PMIX_MCA_ptl_tcp_disable_ipv6", "1", 1);
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().flag(PMIX_TCP_DISABLE_IPV6, false));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert(has_prefix(uris_of(listening), "tcp6://[::1]:"));
}

// The core itself reads integer params: it warns about the garbage and
// hands the component the default (an ephemeral port).
Test(tcp, garbage_component_param_falls_back_to_default)
{
    setenv("PMIX_MCA_ptl_tcp_ipv4_port", "eighty", 1);
    const pmixpp_ptl_module_t *module = load_transport();
    Listening listening(module, InfoList().flag(PMIX_TCP_DISABLE_IPV6, true));
    cr_assert_eq(listening.status(), PMIX_SUCCESS);
    cr_assert(has_prefix(uris_of(listening), "tcp4://127.0.0.1:"));
}
