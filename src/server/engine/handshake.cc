#include "server/engine/handshake.h"

#include "common/runtime/log.h"
#include "common/wire/messages.h"
#include "server/engine/connections.h"
#include "server/engine/tool_peers.h"
#include "server/requests/requests.h"

#include <pmix.h>
#include <pmixpp/psec.h>

#include <algorithm>
#include <cstdlib>

namespace pmixpp::server {

namespace {

// Why a handshake failed, to be sent and logged.
struct Refusal {
    pmix_status_t status = PMIX_SUCCESS;
    std::string reason;
    bool refused() const { return status != PMIX_SUCCESS; }
};

Refusal refuse_with(pmix_status_t status, std::string reason)
{
    return Refusal{status, std::move(reason)};
}

}  // namespace

void refuse_peer(Peer &peer, pmix_status_t status, const std::string &reason)
{
    runtime::log_warning("server", "refused " + describe(peer) + ": " + reason);
    wire::Refuse message;
    message.status = status;
    message.reason = reason.substr(0, wire::kMaxMessageLength);
    wire::Bytes bytes;
    if (wire::encode_to_bytes(message, &bytes) == PMIX_SUCCESS) {
        send_bytes(peer, wire::FrameKind::handshake, wire::kNoTag, bytes);
    }
    peer.connection->close_when_sent(status, "refused: " + reason);
}

namespace {

void send_refuse(Peer &peer, const Refusal &refusal)
{
    refuse_peer(peer, refusal.status, refusal.reason);
}

std::string namespace_text(const wire::Hello &hello)
{
    return "nspace " + hello.nspace + " rank " + std::to_string(hello.rank);
}

const pmixpp_psec_module_t *psec_by_name(const Server &server, const std::string &name)
{
    for (const auto &selected : server.psec_modules) {
        const auto *module = static_cast<const pmixpp_psec_module_t *>(selected.module);
        const std::size_t needed = offsetof(pmixpp_psec_module_t, validate_credential) + sizeof(void *);
        if (selected.component == name && module != nullptr && module->struct_size >= needed &&
            module->validate_credential != nullptr) {
            return module;
        }
    }
    return nullptr;
}

std::string psec_names(const Server &server)
{
    std::string names;
    for (const auto &selected : server.psec_modules) {
        names += (names.empty() ? "" : ",") + selected.component;
    }
    return names.empty() ? "none" : names;
}

Refusal authenticate(const Server &server, const Peer &peer, const wire::Hello &hello, uid_t *uid_p, gid_t *gid_p)
{
    const pmixpp_psec_module_t *psec = psec_by_name(server, hello.psec_module);
    if (psec == nullptr) {
        return refuse_with(PMIX_ERR_NOT_SUPPORTED, "psec module '" + hello.psec_module +
                                                       "' is not available here (have: " + psec_names(server) + ")");
    }
    pmix_byte_object_t credential{};
    credential.bytes = const_cast<char *>(reinterpret_cast<const char *>(hello.credential.data()));
    credential.size = hello.credential.size();
    const pmix_status_t rc = psec->validate_credential(&peer.kernel, &credential, uid_p, gid_p);
    if (rc != PMIX_SUCCESS) {
        return refuse_with(PMIX_ERR_INVALID_CRED,
                           "psec/" + hello.psec_module + " rejected the credential: " + PMIx_Error_string(rc));
    }
    return {};
}

Refusal check_registration(Server &server, const wire::Hello &hello, uid_t uid, gid_t gid)
{
    Namespace *ns = server.find_namespace(hello.nspace);
    if (ns == nullptr || !ns->registered) {
        return refuse_with(PMIX_ERR_NOT_FOUND, "nspace " + hello.nspace + " is not registered");
    }
    auto found = ns->clients.find(hello.rank);
    if (found == ns->clients.end()) {
        return refuse_with(PMIX_ERR_NOT_FOUND, namespace_text(hello) + " is not a registered client");
    }
    const ClientRecord &client = found->second;
    if (client.uid != uid) {
        return refuse_with(PMIX_ERR_INVALID_CRED, "uid " + std::to_string(uid) + " does not match uid " +
                                                      std::to_string(client.uid) + " registered for " +
                                                      namespace_text(hello));
    }
    if (client.gid != gid) {
        return refuse_with(PMIX_ERR_INVALID_CRED, "gid " + std::to_string(gid) + " does not match gid " +
                                                      std::to_string(client.gid) + " registered for " +
                                                      namespace_text(hello));
    }
    if (client.peer != kNoPeer) {
        return refuse_with(PMIX_ERR_INVALID_CRED, namespace_text(hello) + " is already connected");
    }
    return {};
}

// When the transport learned the peer's pid from the kernel, the Hello
// cannot claim another one (the host trusts the pid it sees in upcalls).
Refusal check_pid(const Peer &peer, const wire::Hello &hello)
{
    if (peer.kernel.pid_known != 1 || hello.pid == static_cast<int32_t>(peer.kernel.pid)) return {};
    return refuse_with(PMIX_ERR_INVALID_CRED, "the hello claims pid " + std::to_string(hello.pid) +
                                                  " but the kernel says pid " + std::to_string(peer.kernel.pid));
}

// Clients the host registered, and tools (launchers count as tools) when
// the host takes them; nobody else.
Refusal check_peer_type(const wire::Hello &hello)
{
    switch (hello.peer_type) {
    case wire::PeerType::Client:
    case wire::PeerType::Tool:
    case wire::PeerType::Launcher: return {};
    case wire::PeerType::Singleton:
        return refuse_with(PMIX_ERR_NOT_SUPPORTED, "a singleton (a client started without a launcher) cannot join this "
                                                   "server: it serves the clients its host registered, and tools");
    default:
        return refuse_with(PMIX_ERR_NOT_SUPPORTED,
                           std::string(wire::peer_type_name(hello.peer_type)) +
                               " connections are not supported (only launched clients and tools)");
    }
}

Refusal check_hello(Server &server, const Peer &peer, const wire::Hello &hello, uint16_t *version_p, uid_t *uid_p,
                    gid_t *gid_p)
{
    if (wire::negotiate_version(hello, version_p) != PMIX_SUCCESS) {
        return refuse_with(PMIX_ERR_NOT_SUPPORTED, "no common protocol version (peer speaks " +
                                                       std::to_string(hello.min_version) + ".." +
                                                       std::to_string(hello.max_version) + ", this server " +
                                                       std::to_string(wire::kMinProtocolVersion) + ".." +
                                                       std::to_string(wire::kMaxProtocolVersion) + ")");
    }
    Refusal refusal = check_peer_type(hello);
    if (refusal.refused()) return refusal;
    refusal = check_pid(peer, hello);
    if (refusal.refused()) return refusal;
    refusal = authenticate(server, peer, hello, uid_p, gid_p);
    if (refusal.refused()) return refusal;
    if (hello.peer_type == wire::PeerType::Client) {
        refusal = check_registration(server, hello, *uid_p, *gid_p);
        if (refusal.refused()) return refusal;
    }
    const auto &offered = hello.gds_modules;
    if (std::find(offered.begin(), offered.end(), server.store->module_name()) == offered.end()) {
        return refuse_with(PMIX_ERR_NOT_SUPPORTED, std::string("the peer cannot use gds/") +
                                                       server.store->module_name() +
                                                       ", the only data store of this server");
    }
    return {};
}

// OpenPMIx 4.2 calls these without a callback (Slurm's never calls one).
Refusal ask_host(Server &server, const wire::Hello &hello, const ClientRecord &client)
{
    const pmix_server_module_t &host = server.host.slots();
    const pmix_proc_t proc = make_proc(hello.nspace, hello.rank);
    pmix_status_t rc = PMIX_SUCCESS;
    if (host.client_connected2 != nullptr) {
        rc = host.client_connected2(&proc, client.server_object, nullptr, 0, nullptr, nullptr);
    } else if (host.client_connected != nullptr) {
        rc = host.client_connected(&proc, client.server_object, nullptr, nullptr);
    }
    if (rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED) return {};
    return refuse_with(rc, std::string("the host refused the connection: ") + PMIx_Error_string(rc));
}

pmix_status_t build_welcome(Server &server, const wire::Hello &hello, uint16_t version, wire::Welcome *welcome_p)
{
    wire::Welcome welcome;
    welcome.version = version;
    welcome.gds_module = server.store->module_name();
    welcome.server_nspace = server.config.nspace;
    welcome.server_rank = server.config.rank;
    welcome.peer_nspace = hello.nspace;
    welcome.peer_rank = hello.rank;
    welcome.library_version = PMIx_Get_version();
    pmix_byte_object_t blob{};
    const pmix_status_t rc = server.store->export_nspace(hello.nspace.c_str(), &blob);
    if (rc == PMIX_SUCCESS && blob.bytes != nullptr) {
        const auto *first = reinterpret_cast<const uint8_t *>(blob.bytes);
        welcome.job_data.assign(first, first + blob.size);
    }
    std::free(blob.bytes);
    // A namespace registered with PMIX_REGISTER_NODATA has nothing to export.
    if (rc != PMIX_SUCCESS && rc != PMIX_ERR_NOT_FOUND) return rc;
    add_arena_welcome(server, hello.nspace, welcome.info);  // the job's fence arena, if any
    *welcome_p = std::move(welcome);
    return PMIX_SUCCESS;
}

void accept_peer(Server &server, Peer &peer, const wire::Hello &hello, uint16_t version)
{
    const pmix_proc_t proc = make_proc(hello.nspace, hello.rank);
    Refusal refusal = ask_host(server, hello, *server.find_client(proc));
    // The upcall runs host code that may deregister the client (or its
    // namespace) through the server API: nothing found before it is trusted.
    ClientRecord *client = server.find_client(proc);
    if (!refusal.refused() && client == nullptr) {
        refusal =
            refuse_with(PMIX_ERR_NOT_FOUND, namespace_text(hello) + " was deregistered while the host accepted it");
    }
    wire::Welcome welcome;
    if (!refusal.refused()) {
        const pmix_status_t rc = build_welcome(server, hello, version, &welcome);
        if (rc != PMIX_SUCCESS) {
            refusal = refuse_with(rc, std::string("cannot export the job data: ") + PMIx_Error_string(rc));
        }
    }
    if (refusal.refused()) {
        send_refuse(peer, refusal);
        return;
    }
    client->peer = peer.id;
    client->finalized = false;
    // Back after a PMIx_Finalize (re-init): no longer a gone participant.
    if (Namespace *ns = server.find_namespace(hello.nspace)) ns->gone.erase(hello.rank);
    peer.state = PeerState::connected;
    peer.proc = proc;
    peer.handshake_timer.cancel();
    peer.connection->set_description(describe(peer));
    server.hooks.client_connected(server, peer);  // engine/subsystems.cc
    send_message(peer, wire::FrameKind::handshake, wire::kNoTag, welcome);
}

}  // namespace

void handle_hello(Server &server, Peer &peer, const wire::Frame &frame)
{
    wire::HandshakeMessage type{};
    wire::Hello hello;
    if (wire::peek_handshake(frame.payload, &type) != PMIX_SUCCESS || type != wire::HandshakeMessage::Hello ||
        wire::decode_payload(frame.payload, &hello) != PMIX_SUCCESS) {
        send_refuse(peer, refuse_with(PMIX_ERR_UNPACK_FAILURE, "malformed hello"));
        return;
    }
    if (peer.awaiting_host) {
        drop_peer(peer, PMIX_ERR_UNPACK_FAILURE, "a second hello");
        return;
    }
    uint16_t version = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    const Refusal refusal = check_hello(server, peer, hello, &version, &uid, &gid);
    if (refusal.refused()) {
        send_refuse(peer, refusal);
        return;
    }
    if (hello.peer_type != wire::PeerType::Client) {
        admit_tool(server, peer, hello, version, uid, gid);
        return;
    }
    accept_peer(server, peer, hello, version);
}

void share_job_data_when_registered(Server &server, const std::string &nspace)
{
    const Namespace *ns = server.find_namespace(nspace);
    if (ns == nullptr || !ns->registered || ns->tool || ns->nlocalprocs <= 0) return;
    if (ns->clients.size() < static_cast<std::size_t>(ns->nlocalprocs)) return;
    server.store->share_nspace_ahead(nspace.c_str());
}

}  // namespace pmixpp::server
