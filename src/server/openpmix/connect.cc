// An OpenPMIx connect request, checked for what only its dialect can check
// and turned into our Hello; the engine's handshake does the rest (psec,
// registration, the host's client_connected), as for our own clients.
#include "common/openpmix/connect.h"
#include "common/runtime/log.h"
#include "server/openpmix/dialect.h"
#include "server/openpmix/edge.h"
#include "server/state/peer_io.h"

#include <cstring>
#include <memory>

namespace pmixpp::server {

namespace {

void refuse(Peer &peer, pmix_status_t status, const std::string &reason)
{
    runtime::log_warning("server", "refused OpenPMIx " + describe(peer) + ": " + reason);
    (void)peer.connection->send(wire::FrameKind::handshake, wire::kNoTag, openpmix::encode_client_answer(status, 0));
    peer.connection->close_when_sent(status, "refused: " + reason);
}

// psec/native over tcp sends the uid and gid in band. OpenPMIx trusts
// them; we compare them with what the kernel says of the socket, so a peer
// cannot claim to be another user.
bool native_identity_matches(const Peer &peer, const openpmix::ConnectRequest &request, std::string *reason_p)
{
    if (request.credential.size() != sizeof(uint32_t) * 2) {
        *reason_p = "its psec/native credential has " + std::to_string(request.credential.size()) +
                    " bytes, not a uid and a gid";
        return false;
    }
    uint32_t uid = 0;
    uint32_t gid = 0;
    std::memcpy(&uid, request.credential.data(), sizeof(uid));
    std::memcpy(&gid, request.credential.data() + sizeof(uid), sizeof(gid));
    if (peer.kernel.known != 1 && peer.kernel.uid_known != 1) return true;  // psec/native refuses it later
    if (uid != peer.kernel.uid || (peer.kernel.known == 1 && gid != peer.kernel.gid)) {
        *reason_p = "it claims uid " + std::to_string(uid) + " gid " + std::to_string(gid) +
                    " but the kernel says uid " + std::to_string(peer.kernel.uid) + " gid " +
                    std::to_string(peer.kernel.gid);
        return false;
    }
    return true;
}

// Tools and launchers name their uid and gid besides the credential.
bool claimed_ids_match(const Peer &peer, const openpmix::ConnectRequest &request, std::string *reason_p)
{
    if (peer.kernel.known != 1 && peer.kernel.uid_known != 1) return true;
    if (request.uid != peer.kernel.uid || (peer.kernel.known == 1 && request.gid != peer.kernel.gid)) {
        *reason_p = "the " + std::string(openpmix::connect_flag_name(request.flag)) + " names uid " +
                    std::to_string(request.uid) + " gid " + std::to_string(request.gid) + " but the kernel says uid " +
                    std::to_string(peer.kernel.uid) + " gid " + std::to_string(peer.kernel.gid);
        return false;
    }
    return true;
}

wire::PeerType peer_type_of(const openpmix::ConnectRequest &request)
{
    if (request.flag == openpmix::ConnectFlag::simple_client) return wire::PeerType::Client;
    if (request.flag == openpmix::ConnectFlag::singleton_client) return wire::PeerType::Singleton;
    return request.is_tool() ? wire::PeerType::Tool : wire::PeerType::Launcher;
}

// The credential as our psec module of that name reads it: native looks at
// the kernel only; munge takes the credential text without its NUL.
wire::Bytes credential_for_psec(const openpmix::ConnectRequest &request)
{
    if (request.psec == "native") return {};
    wire::Bytes credential(request.credential.begin(), request.credential.end());
    while (!credential.empty() && credential.back() == 0) credential.pop_back();
    return credential;
}

wire::Hello hello_of(const Server &server, const Peer &peer, const openpmix::ConnectRequest &request)
{
    wire::Hello hello;
    hello.peer_type = peer_type_of(request);
    hello.nspace = request.has_proc ? request.nspace : std::string();
    hello.rank = request.has_proc ? request.rank : PMIX_RANK_UNDEF;
    // OpenPMIx sends no pid; the kernel's is the one the host trusts.
    hello.pid = peer.kernel.pid_known == 1 ? static_cast<int32_t>(peer.kernel.pid) : 0;
    hello.psec_module = request.psec;
    hello.credential = credential_for_psec(request);
    // The peer reads its job data from what we send it (job_data.cc),
    // whichever store serves our own clients.
    hello.gds_modules = {server.store->module_name()};
    hello.ptl_module = peer.ptl;
    hello.library_version = "OpenPMIx " + request.version;
    return hello;
}

}  // namespace

bool openpmix_hello(Server &server, Peer &peer, const wire::Frame &connect, wire::Frame *hello_p)
{
    openpmix::ConnectRequest request;
    std::string reason;
    pmix_status_t rc = openpmix::decode_connect_request(connect.payload, &request, &reason);
    if (rc != PMIX_SUCCESS) {
        refuse(peer, rc, reason);
        return false;
    }
    openpmix::Encoding encoding;
    if (!request.encoding(&encoding, &reason)) {
        refuse(peer, PMIX_ERR_NOT_SUPPORTED, reason);
        return false;
    }
    if (request.psec == "native" && !native_identity_matches(peer, request, &reason)) {
        refuse(peer, PMIX_ERR_INVALID_CRED, reason);
        return false;
    }
    if (request.has_ids && !claimed_ids_match(peer, request, &reason)) {
        refuse(peer, PMIX_ERR_INVALID_CRED, reason);
        return false;
    }
    peer.dialect = std::make_unique<OpenPmixDialect>(encoding, request.version, request.flag);
    wire::Frame hello;
    hello.header.kind = wire::FrameKind::handshake;
    rc = wire::encode_to_bytes(hello_of(server, peer, request), &hello.payload);
    if (rc != PMIX_SUCCESS) {
        refuse(peer, rc, std::string("cannot translate its connect request: ") + PMIx_Error_string(rc));
        return false;
    }
    hello.header.payload_size = static_cast<uint32_t>(hello.payload.size());
    *hello_p = std::move(hello);
    return true;
}

}  // namespace pmixpp::server
