#include "server/engine/tool_peers.h"

#include "common/values/value_ops.h"
#include "server/engine/connections.h"
#include "server/engine/handshake.h"

#include <pmix.h>

#include <memory>
#include <string>
#include <vector>

namespace pmixpp::server {

namespace {

// What the handshake knows while the host decides.
struct PendingTool {
    PeerId peer = kNoPeer;
    std::string nspace;  // what the tool asked for (may be empty)
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    uint16_t version = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    // Handed to the host, which may read it until it calls back.
    std::vector<pmix_info_t> info;

    PendingTool() = default;
    PendingTool(const PendingTool &) = delete;
    PendingTool &operator=(const PendingTool &) = delete;
    ~PendingTool()
    {
        for (auto &item : info) values::info_destruct(&item);
    }
    void add(const char *key, const void *data, pmix_data_type_t type)
    {
        pmix_info_t item{};
        if (values::info_load(&item, key, data, type) == PMIX_SUCCESS) info.push_back(item);
    }
};

void describe_tool(PendingTool &pending, const Peer &peer, const wire::Hello &hello)
{
    const uint32_t uid = pending.uid;
    const uint32_t gid = pending.gid;
    const pid_t pid = peer.kernel.pid_known == 1 ? peer.kernel.pid : static_cast<pid_t>(hello.pid);
    pending.add(PMIX_USERID, &uid, PMIX_UINT32);
    pending.add(PMIX_GRPID, &gid, PMIX_UINT32);
    pending.add(PMIX_PROC_PID, &pid, PMIX_PID);
    if (!hello.nspace.empty()) {
        pending.add(PMIX_TOOL_NSPACE, hello.nspace.c_str(), PMIX_STRING);
        pending.add(PMIX_TOOL_RANK, &hello.rank, PMIX_PROC_RANK);
    }
    if (hello.peer_type == wire::PeerType::Launcher) {
        const bool yes = true;
        pending.add(PMIX_LAUNCHER, &yes, PMIX_BOOL);
    }
}

wire::Welcome tool_welcome(const Server &server, const pmix_proc_t &tool, uint16_t version)
{
    wire::Welcome welcome;
    welcome.version = version;
    welcome.gds_module = server.store->module_name();
    welcome.server_nspace = server.config.nspace;
    welcome.server_rank = server.config.rank;
    welcome.peer_nspace = std::string(tool.nspace, strnlen(tool.nspace, PMIX_MAX_NSLEN));
    welcome.peer_rank = tool.rank;
    welcome.library_version = PMIx_Get_version();
    return welcome;  // no job data: a tool is no member of a registered job
}

// The name the tool is known by: the host's, else the one it asked for.
bool tool_identity(const PendingTool &pending, const pmix_proc_t *assigned, pmix_proc_t *proc_p)
{
    if (assigned != nullptr && assigned->nspace[0] != '\0' && assigned->rank != PMIX_RANK_UNDEF &&
        assigned->rank != PMIX_RANK_WILDCARD) {
        *proc_p = *assigned;
        return true;
    }
    if (pending.nspace.empty()) return false;
    *proc_p = make_proc(pending.nspace, pending.rank);
    return true;
}

// Why the host's answer cannot be used, or an empty string.
std::string check_answer(Server &server, const pmix_proc_t &tool)
{
    const Namespace *ns = server.find_namespace(tool.nspace);
    if (ns == nullptr) return {};
    if (!ns->tool) return "the host named the tool " + proc_name(tool) + ", a process of a registered job";
    auto found = ns->clients.find(tool.rank);
    if (found != ns->clients.end() && found->second.peer != kNoPeer) {
        return "tool " + proc_name(tool) + " is already connected";
    }
    return {};
}

void finish_tool(Server &server, const PendingTool &pending, pmix_status_t status, const pmix_proc_t *assigned)
{
    Peer *peer = server.find_peer(pending.peer);
    // Gone meanwhile, or closed by the handshake timeout: nobody to answer.
    if (peer == nullptr || peer->state != PeerState::handshaking || !peer->awaiting_host) return;
    peer->awaiting_host = false;
    if (status != PMIX_SUCCESS && status != PMIX_OPERATION_SUCCEEDED) {
        return refuse_peer(*peer, status, std::string("the host refused the tool: ") + PMIx_Error_string(status));
    }
    pmix_proc_t tool{};
    if (!tool_identity(pending, assigned, &tool)) {
        return refuse_peer(*peer, PMIX_ERR_BAD_PARAM, "the host accepted the tool but gave it no nspace and rank");
    }
    const std::string problem = check_answer(server, tool);
    if (!problem.empty()) return refuse_peer(*peer, PMIX_ERR_BAD_PARAM, problem);
    Namespace &ns = server.namespace_entry(std::string(tool.nspace, strnlen(tool.nspace, PMIX_MAX_NSLEN)));
    ns.tool = true;
    ClientRecord &record = ns.clients[tool.rank];
    record.uid = pending.uid;
    record.gid = pending.gid;
    record.peer = peer->id;
    record.finalized = false;
    peer->tool = true;
    peer->state = PeerState::connected;
    peer->proc = tool;
    peer->handshake_timer.cancel();
    peer->connection->set_description("tool " + proc_name(tool) + " via " + peer->ptl);
    send_message(*peer, wire::FrameKind::handshake, wire::kNoTag, tool_welcome(server, tool, pending.version));
}

// pmix_tool_connection_cbfunc_t: any thread, maybe inside the upcall.
void on_host_answer(pmix_status_t status, pmix_proc_t *proc, void *cbdata)
{
    std::shared_ptr<PendingTool> pending(static_cast<PendingTool *>(cbdata));
    const bool has_proc = proc != nullptr;
    const pmix_proc_t assigned = has_proc ? *proc : pmix_proc_t{};
    post_to_server([pending, status, has_proc, assigned](Server &server) {
        finish_tool(server, *pending, status, has_proc ? &assigned : nullptr);
    });
}

}  // namespace

void admit_tool(Server &server, Peer &peer, const wire::Hello &hello, uint16_t version, uid_t uid, gid_t gid)
{
    const auto upcall = server.host.slots().tool_connected;
    if (upcall == nullptr) {
        return refuse_peer(peer, PMIX_ERR_NOT_SUPPORTED,
                           "the host does not accept tool connections (it gave no tool_connected upcall)");
    }
    auto pending = std::make_unique<PendingTool>();
    pending->peer = peer.id;
    pending->nspace = hello.nspace;
    pending->rank = hello.rank;
    pending->version = version;
    pending->uid = uid;
    pending->gid = gid;
    describe_tool(*pending, peer, hello);
    peer.awaiting_host = true;
    PendingTool *raw = pending.release();  // owned by on_host_answer from here
    upcall(raw->info.data(), raw->info.size(), on_host_answer, raw);
}

void forget_tool(Server &server, const Peer &peer)
{
    Namespace *ns = server.find_namespace(peer.proc.nspace);
    if (ns == nullptr || !ns->tool) return;
    auto found = ns->clients.find(peer.proc.rank);
    if (found != ns->clients.end() && found->second.peer == peer.id) ns->clients.erase(found);
    if (ns->clients.empty()) server.namespaces.erase(ns->name);
}

}  // namespace pmixpp::server
