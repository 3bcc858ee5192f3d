#include "client/core/discovery.h"

#include <cerrno>
#include <cstdlib>

namespace pmixpp::client {

namespace {

const char *env(const char *name)
{
    const char *value = std::getenv(name);
    return (value != nullptr && value[0] != '\0') ? value : nullptr;
}

bool parse_rank(std::string_view text, pmix_rank_t *rank_p)
{
    if (text.empty() || text.size() > 10) {
        return false;
    }
    unsigned long long value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') {
            return false;
        }
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value > 0xffffffffULL) {
        return false;
    }
    *rank_p = static_cast<pmix_rank_t>(value);
    return true;
}

// The newest of OpenPMIx's per-version URI variables that is set.
const char *legacy_server_uri()
{
    for (const char *name :
         {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI2", "PMIX_SERVER_URI21"}) {
        if (const char *value = env(name)) {
            return value;
        }
    }
    return nullptr;
}

}  // namespace

std::vector<std::string> split_list(std::string_view text, char separator)
{
    std::vector<std::string> items;
    while (!text.empty()) {
        size_t end = text.find(separator);
        std::string_view item = text.substr(0, end);
        if (!item.empty()) {
            items.emplace_back(item);
        }
        if (end == std::string_view::npos) {
            break;
        }
        text.remove_prefix(end + 1);
    }
    return items;
}

bool parse_server_uri(std::string_view value, std::string *nspace_p, pmix_rank_t *rank_p, std::string *uri_p)
{
    size_t semicolon = value.find(';');
    if (semicolon == std::string_view::npos || semicolon + 1 >= value.size()) {
        return false;
    }
    std::string_view name = value.substr(0, semicolon);
    // The nspace may itself contain dots: the rank follows the last one.
    size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0) {
        return false;
    }
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    if (!parse_rank(name.substr(dot + 1), &rank)) {
        return false;
    }
    *nspace_p = std::string(name.substr(0, dot));
    *rank_p = rank;
    *uri_p = std::string(value.substr(semicolon + 1));
    return true;
}

bool is_tcp_uri(std::string_view uri)
{
    return uri.rfind("tcp4://", 0) == 0 || uri.rfind("tcp6://", 0) == 0;
}

bool discover_server(ServerContact *contact_p, std::string *error_p)
{
    ServerContact contact;
    const char *legacy = legacy_server_uri();
    if (legacy != nullptr) {
        std::string uri;
        if (parse_server_uri(legacy, &contact.server_nspace, &contact.server_rank, &uri)) {
            contact.uris.push_back(uri);
        } else {
            *error_p = std::string("PMIX_SERVER_URI* is not \"<nspace>.<rank>;<uri>\": ") + legacy;
        }
    }
    if (const char *all = env("PMIXPP_SERVER_URIS")) {
        contact.uris = split_list(all, ';');
    } else if (!contact.uris.empty()) {
        if (is_tcp_uri(contact.uris.front())) contact.protocol = ServerProtocol::openpmix;
    }
    if (contact.uris.empty()) {
        return false;
    }
    if (const char *nspace = env("PMIX_NAMESPACE")) {
        contact.nspace = nspace;
    }
    if (const char *rank = env("PMIX_RANK")) {
        if (!parse_rank(rank, &contact.rank)) {
            *error_p = std::string("PMIX_RANK is not a rank: ") + rank;
        }
    }
    if (const char *psec = env("PMIX_SECURITY_MODE")) {
        contact.psec = split_list(psec, ',');
    }
    // A pmixpp server names its own store in PMIXPP_GDS_MODULE and gives
    // PMIX_GDS_MODULE to OpenPMIx's clients (gds/hash).
    if (const char *gds = env("PMIXPP_GDS_MODULE")) {
        contact.gds = split_list(gds, ',');
    } else if (const char *openpmix_gds = env("PMIX_GDS_MODULE")) {
        contact.gds = split_list(openpmix_gds, ',');
    }
    if (const char *ptl = env("PMIX_PTL_MODULE")) {
        contact.ptl = ptl;
    }
    *contact_p = std::move(contact);
    return true;
}

}  // namespace pmixpp::client
