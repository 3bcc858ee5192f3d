// PMIx_Fabric_register / _update / _deregister of a client, a tool or the
// host itself (self-access). Who describes a fabric, in order: the first
// pnet component that knows one (server/pnet/fabric_calls.h), else the
// host's `fabric` upcall, else nobody (PMIX_ERR_NOT_AVAILABLE and one line
// saying why). The server numbers each registration and remembers who
// answered it, so an update asks the same one again and a deregistration
// tells it (fabric_registry.h).
#include "common/runtime/log.h"
#include "server/state/peer_io.h"
#include "server/pnet/fabric_calls.h"
#include "server/requests/requests.h"
#include "server/requests/fabric_registry.h"

#include <iterator>
#include <memory>
#include <new>
#include <string>

namespace pmixpp::server {

namespace {

constexpr const char *kHostName = "host";

// Whatever the answerer said, plus the index the requester will hold.
pmix_status_t describe(uint64_t index, const std::string &name, wire::InfoArray &info, wire::FabricReply *reply_p)
{
    std::size_t kept = 0;
    for (const pmix_info_t &entry : info) kept += PMIX_CHECK_KEY(&entry, PMIX_FABRIC_INDEX) ? 0 : 1;
    wire::InfoArray out;
    pmix_status_t rc = out.allocate(kept + 1);
    std::size_t at = 0;
    for (std::size_t i = 0; rc == PMIX_SUCCESS && i < info.size(); ++i) {
        if (!PMIX_CHECK_KEY(&info[i], PMIX_FABRIC_INDEX)) rc = PMIx_Info_xfer(&out[at++], &info[i]);
    }
    if (rc != PMIX_SUCCESS) return rc;
    const std::size_t as_size = index;
    PMIX_INFO_LOAD(&out[at], PMIX_FABRIC_INDEX, &as_size, PMIX_SIZE);
    reply_p->status = PMIX_SUCCESS;
    reply_p->index = index;
    reply_p->name = name.substr(0, wire::kMaxNameLength);  // a display name; the registry keeps it whole
    reply_p->info = std::move(out);
    return PMIX_SUCCESS;
}

std::string text_in(const wire::InfoArray &info, const char *key)
{
    for (const pmix_info_t &entry : info) {
        if (PMIX_CHECK_KEY(&entry, key) && entry.value.type == PMIX_STRING && entry.value.data.string != nullptr) {
            return entry.value.data.string;
        }
    }
    return {};
}

bool size_in(const wire::InfoArray &info, const char *key, std::size_t *value_p)
{
    for (const pmix_info_t &entry : info) {
        if (PMIX_CHECK_KEY(&entry, key) && entry.value.type == PMIX_SIZE) {
            *value_p = entry.value.data.size;
            return true;
        }
    }
    return false;
}

std::size_t registrations_of(const Server &server, PeerId owner)
{
    std::size_t n = 0;
    for (const auto &[index, fabric] : server.part<FabricRegistry>().fabrics) n += fabric.owner == owner ? 1 : 0;
    return n;
}

// The requester may still be there to hold it (a host answer comes later).
bool owner_present(Server &server, PeerId owner)
{
    return owner == kNoPeer || server.find_peer(owner) != nullptr;
}

// Records a registration and answers with its description.
void record_and_respond(Server &server, RegisteredFabric fabric, wire::InfoArray &info, const FabricResponder &respond)
{
    const uint64_t index = server.part<FabricRegistry>().next_index++;
    wire::FabricReply reply;
    const pmix_status_t rc = describe(index, fabric.name, info, &reply);
    if (rc != PMIX_SUCCESS) return respond_status<wire::FabricReply>(respond, rc);
    server.part<FabricRegistry>().fabrics.emplace(index, std::move(fabric));
    respond(reply);
}

// Nobody to answer: said once in full, then only when tracing.
void say_unavailable(Server &server, const pmix_proc_t &requester)
{
    const std::string who = std::string(requester.nspace) + "." + std::to_string(requester.rank);
    const std::string line =
        "PMIx_Fabric_register of " + who + " answered PMIX_ERR_NOT_AVAILABLE: " +
        (pnet::any_component_knows_fabrics(server) ? "no active pnet component knows a fabric that matches"
                                                   : "no active pnet component knows a fabric") +
        ", and the host offers no fabric upcall (select a fabric component with PMIX_MCA_pnet, or give the host's "
        "pmix_server_module_t a fabric function)";
    if (!server.part<FabricRegistry>().said_unavailable) {
        server.part<FabricRegistry>().said_unavailable = true;
        runtime::log_warning("server", line);
    } else {
        runtime::log_trace("PMIX_MCA_pnet_verbose", "server", line);
    }
}

// ---- the host's fabric upcall -------------------------------------------------

// What the host is handed stays here until it calls back.
struct HostFabricCall {
    pmix_proc_t requester{};
    PeerId owner = kNoPeer;
    uint64_t index = 0;  // an update: the registration it refreshes; 0 for a registration
    wire::InfoArray directives;
    FabricResponder respond;
};

// On the progress thread, after the host's answer was copied.
void finish_host_call(Server &server, HostFabricCall &call, pmix_status_t status, wire::InfoArray &info)
{
    if (status != PMIX_SUCCESS) return respond_status<wire::FabricReply>(call.respond, status);
    if (call.index != 0) {  // an update: the registration may have ended meanwhile
        const auto it = server.part<FabricRegistry>().fabrics.find(call.index);
        if (it == server.part<FabricRegistry>().fabrics.end())
            return respond_status<wire::FabricReply>(call.respond, PMIX_ERR_NOT_FOUND);
        wire::FabricReply reply;
        const pmix_status_t rc = describe(call.index, it->second.name, info, &reply);
        return rc == PMIX_SUCCESS ? call.respond(reply) : respond_status<wire::FabricReply>(call.respond, rc);
    }
    if (!owner_present(server, call.owner))
        return respond_status<wire::FabricReply>(call.respond, PMIX_ERR_LOST_CONNECTION);
    RegisteredFabric fabric;
    fabric.name = text_in(info, PMIX_FABRIC_IDENTIFIER);
    if (fabric.name.empty()) fabric.name = kHostName;
    fabric.owner = call.owner;
    const uint64_t next = server.part<FabricRegistry>().next_index;
    if (!size_in(info, PMIX_FABRIC_INDEX, &fabric.host_index)) fabric.host_index = next;
    record_and_respond(server, std::move(fabric), info, call.respond);
}

// The host's answer may come from any thread, even from inside the upcall.
void host_answered(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata, pmix_release_cbfunc_t release,
                   void *release_cbdata)
{
    std::shared_ptr<HostFabricCall> call(static_cast<HostFabricCall *>(cbdata));
    auto copy = std::make_shared<wire::InfoArray>();
    if (status == PMIX_SUCCESS && info != nullptr && ninfo > 0) {
        const pmix_status_t rc = copy->assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) status = rc;
    }
    if (release != nullptr) release(release_cbdata);
    if (call == nullptr) return;
    post_to_server([call, copy, status](Server &server) { finish_host_call(server, *call, status, *copy); });
}

// PMIX_ERR_NOT_SUPPORTED: the host has no fabric upcall, or declined it.
pmix_status_t ask_host(Server &server, pmix_fabric_operation_t op, std::unique_ptr<HostFabricCall> call)
{
    const auto upcall = server.host.slots().fabric;
    if (upcall == nullptr) return PMIX_ERR_NOT_SUPPORTED;
    HostFabricCall *raw = call.release();
    const pmix_status_t rc =
        upcall(&raw->requester, op, raw->directives.data(), raw->directives.size(), host_answered, raw);
    if (rc == PMIX_SUCCESS) return PMIX_SUCCESS;  // its callback owns the call now
    std::unique_ptr<HostFabricCall> refused(raw);
    if (rc != PMIX_OPERATION_SUCCEEDED) return rc;
    // Done at once, with nothing to say about the fabric.
    wire::InfoArray none;
    finish_host_call(server, *refused, PMIX_SUCCESS, none);
    return PMIX_SUCCESS;
}

}  // namespace

void start_fabric_register(Server &server, const pmix_proc_t &requester, PeerId owner,
                           wire::FabricRegisterRequest request, FabricResponder respond)
{
    if (registrations_of(server, owner) >= kMaxFabricsPerRequester) {
        server.warnings.note(
            "fabrics", "PMIx_Fabric_register refused with PMIX_ERR_OUT_OF_RESOURCE: " + std::string(requester.nspace) +
                           "." + std::to_string(requester.rank) + " holds " + std::to_string(kMaxFabricsPerRequester) +
                           " registrations already (deregister those it no longer uses)");
        return respond_status<wire::FabricReply>(respond, PMIX_ERR_OUT_OF_RESOURCE);
    }
    pnet::FabricDescription description;
    pmix_status_t rc =
        pnet::register_fabric(server, request.directives.data(), request.directives.size(), &description);
    if (rc == PMIX_SUCCESS) {
        RegisteredFabric fabric{description.identifier, description.component, 0, owner};
        return record_and_respond(server, std::move(fabric), description.info, respond);
    }
    if (rc != PMIX_ERR_NOT_FOUND) return respond_status<wire::FabricReply>(respond, rc);
    auto call = std::make_unique<HostFabricCall>();
    call->requester = requester;
    call->owner = owner;
    call->directives = std::move(request.directives);
    call->respond = respond;
    rc = ask_host(server, PMIX_FABRIC_REQUEST_INFO, std::move(call));
    if (rc == PMIX_SUCCESS) return;
    if (rc == PMIX_ERR_NOT_SUPPORTED) {
        say_unavailable(server, requester);
        rc = PMIX_ERR_NOT_AVAILABLE;
    }
    respond_status<wire::FabricReply>(respond, rc);
}

void start_fabric_update(Server &server, const pmix_proc_t &requester, PeerId owner, wire::FabricUpdateRequest request,
                         FabricResponder respond)
{
    const auto it = server.part<FabricRegistry>().fabrics.find(request.index);
    if (it == server.part<FabricRegistry>().fabrics.end() || it->second.owner != owner) {
        return respond_status<wire::FabricReply>(respond, PMIX_ERR_NOT_FOUND);
    }
    const RegisteredFabric &fabric = it->second;
    if (!fabric.component.empty()) {
        wire::InfoArray info;
        const pmix_status_t rc = pnet::update_fabric(server, fabric.component, fabric.name, &info);
        if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) return respond_status<wire::FabricReply>(respond, rc);
        wire::FabricReply reply;
        const pmix_status_t described = describe(request.index, fabric.name, info, &reply);
        return described == PMIX_SUCCESS ? respond(reply) : respond_status<wire::FabricReply>(respond, described);
    }
    auto call = std::make_unique<HostFabricCall>();
    call->requester = requester;
    call->owner = owner;
    call->index = request.index;
    call->respond = respond;
    pmix_status_t rc = call->directives.allocate(1);
    if (rc != PMIX_SUCCESS) return respond_status<wire::FabricReply>(respond, rc);
    PMIX_INFO_LOAD(&call->directives[0], PMIX_FABRIC_INDEX, &fabric.host_index, PMIX_SIZE);
    rc = ask_host(server, PMIX_FABRIC_UPDATE_INFO, std::move(call));
    if (rc != PMIX_SUCCESS) respond_status<wire::FabricReply>(respond, rc);
}

pmix_status_t end_fabric(Server &server, PeerId owner, uint64_t index)
{
    const auto it = server.part<FabricRegistry>().fabrics.find(index);
    if (it == server.part<FabricRegistry>().fabrics.end() || it->second.owner != owner) return PMIX_ERR_NOT_FOUND;
    // The host's fabric upcall has no operation for an end: only a
    // component is told.
    if (!it->second.component.empty()) pnet::deregister_fabric(server, it->second.component, it->second.name);
    server.part<FabricRegistry>().fabrics.erase(it);
    return PMIX_SUCCESS;
}

void fabric_peer_lost(Server &server, const Peer &peer)
{
    for (auto it = server.part<FabricRegistry>().fabrics.begin(); it != server.part<FabricRegistry>().fabrics.end();) {
        const auto next = std::next(it);
        if (it->second.owner == peer.id) (void)end_fabric(server, peer.id, it->first);
        it = next;
    }
}

void end_all_fabrics(Server &server)
{
    while (!server.part<FabricRegistry>().fabrics.empty()) {
        const auto &[index, fabric] = *server.part<FabricRegistry>().fabrics.begin();
        (void)end_fabric(server, fabric.owner, index);
    }
}

namespace {

// A description the wire cannot carry (a component's or host's pointer
// value, say) must not cost the requester its connection: it hears why
// instead, and a registration it cannot hold is ended again.
FabricResponder reply_later(PeerId peer, uint32_t tag, bool registering)
{
    return [peer, tag, registering](wire::FabricReply &reply) {
        Server *now = current();
        if (now == nullptr) return;
        wire::Bytes unused;
        const pmix_status_t rc = reply.status == PMIX_SUCCESS ? wire::encode_to_bytes(reply, &unused) : PMIX_SUCCESS;
        if (rc != PMIX_SUCCESS) {
            runtime::log_warning("server", "the description of fabric " + reply.name + " cannot be sent (" +
                                               PMIx_Error_string(rc) + "); the requester gets that status");
            if (registering) (void)end_fabric(*now, peer, reply.index);
            reply = wire::FabricReply{};
            reply.status = rc;
        }
        reply_to(*now, peer, tag, reply);
    };
}

}  // namespace

void handle_fabric_register(Server &server, Peer &peer, uint32_t tag, wire::FabricRegisterRequest &request)
{
    start_fabric_register(server, peer.proc, peer.id, std::move(request), reply_later(peer.id, tag, true));
}

void handle_fabric_update(Server &server, Peer &peer, uint32_t tag, wire::FabricUpdateRequest &request)
{
    start_fabric_update(server, peer.proc, peer.id, request, reply_later(peer.id, tag, false));
}

void handle_fabric_deregister(Server &server, Peer &peer, uint32_t tag, wire::FabricDeregisterRequest &request)
{
    reply_status(server, peer.id, tag, end_fabric(server, peer.id, request.index));
}

}  // namespace pmixpp::server
