// Finding the server from the environment PMIx_server_setup_fork gave us.
#ifndef PMIXPP_CLIENT_CORE_DISCOVERY_H
#define PMIXPP_CLIENT_CORE_DISCOVERY_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <pmix_common.h>

namespace pmixpp::client {

// Which protocol the server at a contact speaks.
enum class ServerProtocol : uint8_t {
    pmixpp,
    openpmix,
    // Not known (a tcp URI given alone, PMIX_SERVER_URI of a tool): ours is
    // tried first, OpenPMIx's when the server closes on our hello without a
    // word, as an OpenPMIx server does (it reads our header as an empty
    // connect request).
    either,
};

bool is_tcp_uri(std::string_view uri);

struct ServerContact {
    std::vector<std::string> uris;  // priority order
    std::string server_nspace;      // may be empty when only PMIXPP_SERVER_URIS is set
    pmix_rank_t server_rank = PMIX_RANK_UNDEF;
    std::string nspace;                  // PMIX_NAMESPACE (empty: we have no identity yet)
    pmix_rank_t rank = PMIX_RANK_UNDEF;  // PMIX_RANK
    std::vector<std::string> psec;       // PMIX_SECURITY_MODE, comma-separated
    std::vector<std::string> gds;        // PMIX_GDS_MODULE, comma-separated
    std::string ptl;                     // PMIX_PTL_MODULE (informational)
    // A tool (PMIx_tool_init) says so in its Hello, a launcher tool too; the
    // nspace/rank above are then the identity it asks for (may be empty).
    bool tool = false;
    bool launcher = false;
    std::string found_in;  // where it was found, for messages
    // OpenPMIx's when the environment names the server in PMIX_SERVER_URI*
    // alone, with tcp (a pmixpp server adds PMIXPP_SERVER_URIS), or when the
    // rendezvous file a tool found is OpenPMIx's.
    ServerProtocol protocol = ServerProtocol::pmixpp;
};

// False when the environment names no server (we run as a singleton). The
// URIs come from PMIXPP_SERVER_URIS (';'-separated, priority order) when
// set, else from the first of PMIX_SERVER_URI41/4/3/2/21
// ("<nspace>.<rank>;<uri>"). A malformed PMIX_RANK is reported through
// *error_p and the function returns true with contact->rank UNDEF.
bool discover_server(ServerContact *contact_p, std::string *error_p);

// "<nspace>.<rank>;<uri>" -> parts. False when malformed.
bool parse_server_uri(std::string_view value, std::string *nspace_p, pmix_rank_t *rank_p, std::string *uri_p);

// Splits on `separator`, dropping empty items.
std::vector<std::string> split_list(std::string_view text, char separator);

}  // namespace pmixpp::client

#endif
