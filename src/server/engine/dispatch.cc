#include "server/engine/dispatch.h"

#include "server/engine/connections.h"
#include "server/requests/requests.h"

namespace pmixpp::server {

namespace {

template <typename Request> using Handler = void (*)(Server &, Peer &, uint32_t, Request &);

template <typename Request>
void decode_and_run(Server &server, Peer &peer, const wire::Frame &frame, wire::Command command,
                    Handler<Request> handler)
{
    Request request;
    const pmix_status_t rc = wire::decode_payload(frame.payload, &request);
    if (rc != PMIX_SUCCESS) {
        drop_peer(peer, rc,
                  std::string("malformed ") + wire::command_name(command) + " request: " + PMIx_Error_string(rc));
        return;
    }
    handler(server, peer, frame.header.tag, request);
}

// Every request that asks for an answer (a tag) counts until it has it; a
// peer may hold only so many, so requests that wait on others (fences over
// ranks that never come, host upcalls, parked gets) cannot pile up without
// end. Over the limit the answer comes at once.
bool within_pending_limit(Server &server, Peer &peer, uint32_t tag)
{
    if (tag == wire::kNoTag) return true;
    ++peer.unanswered;
    const std::size_t limit = server.config.max_pending_requests;
    if (limit == 0 || peer.unanswered <= limit) return true;
    server.warnings.note("pending", "requests refused with PMIX_ERR_OUT_OF_RESOURCE: " + describe(peer) + " has " +
                                        std::to_string(limit) + " unanswered (raise " + kMaxPendingRequestsEnv +
                                        " if a job needs more)");
    reply_status(server, peer.id, tag, PMIX_ERR_OUT_OF_RESOURCE);
    return false;
}

}  // namespace

void dispatch_request(Server &server, Peer &peer, const wire::Frame &frame)
{
    wire::Command command{};
    if (wire::peek_command(frame.payload, &command) != PMIX_SUCCESS) {
        drop_peer(peer, PMIX_ERR_UNPACK_FAILURE, "a request too short to name its command");
        return;
    }
    if (!within_pending_limit(server, peer, frame.header.tag)) return;
    using wire::Command;
    switch (command) {
    case Command::Commit: return decode_and_run(server, peer, frame, command, handle_commit);
    case Command::Fence: return decode_and_run(server, peer, frame, command, handle_fence);
    case Command::Get: return decode_and_run(server, peer, frame, command, handle_get);
    case Command::Abort: return decode_and_run(server, peer, frame, command, handle_abort);
    case Command::Finalize: return decode_and_run(server, peer, frame, command, handle_finalize);
    case Command::RegisterEvents: return decode_and_run(server, peer, frame, command, handle_register_events);
    case Command::DeregisterEvents: return decode_and_run(server, peer, frame, command, handle_deregister_events);
    case Command::NotifyEvent: return decode_and_run(server, peer, frame, command, handle_notify_event);
    case Command::Query: return decode_and_run(server, peer, frame, command, handle_query);
    case Command::JobData: return decode_and_run(server, peer, frame, command, handle_job_data);
    case Command::JobControl: return decode_and_run(server, peer, frame, command, handle_job_control);
    case Command::Publish: return decode_and_run(server, peer, frame, command, handle_publish);
    case Command::Lookup: return decode_and_run(server, peer, frame, command, handle_lookup);
    case Command::Unpublish: return decode_and_run(server, peer, frame, command, handle_unpublish);
    case Command::Spawn: return decode_and_run(server, peer, frame, command, handle_spawn);
    case Command::Allocate: return decode_and_run(server, peer, frame, command, handle_allocate);
    case Command::SessionControl: return decode_and_run(server, peer, frame, command, handle_session_control);
    case Command::Log: return decode_and_run(server, peer, frame, command, handle_log);
    case Command::Connect: return decode_and_run(server, peer, frame, command, handle_connect);
    case Command::Disconnect: return decode_and_run(server, peer, frame, command, handle_disconnect);
    case Command::GroupConstruct: return decode_and_run(server, peer, frame, command, handle_group_construct);
    case Command::GroupDestruct: return decode_and_run(server, peer, frame, command, handle_group_destruct);
    case Command::GroupLeave: return decode_and_run(server, peer, frame, command, handle_group_leave);
    case Command::GroupInvite: return decode_and_run(server, peer, frame, command, handle_group_invite);
    case Command::GroupJoin: return decode_and_run(server, peer, frame, command, handle_group_join);
    case Command::GetCredential: return decode_and_run(server, peer, frame, command, handle_get_credential);
    case Command::ValidateCredential: return decode_and_run(server, peer, frame, command, handle_validate_credential);
    case Command::FabricRegister: return decode_and_run(server, peer, frame, command, handle_fabric_register);
    case Command::FabricUpdate: return decode_and_run(server, peer, frame, command, handle_fabric_update);
    case Command::FabricDeregister: return decode_and_run(server, peer, frame, command, handle_fabric_deregister);
    case Command::Monitor: return decode_and_run(server, peer, frame, command, handle_monitor);
    case Command::Heartbeat: return decode_and_run(server, peer, frame, command, handle_heartbeat);
    case Command::IofPull: return decode_and_run(server, peer, frame, command, handle_iof_pull);
    case Command::IofPush: return decode_and_run(server, peer, frame, command, handle_iof_push);
    case Command::IofDeregister: return decode_and_run(server, peer, frame, command, handle_iof_deregister);
    default:
        // No handler (ToolAttach, ToolDetach), or unknown: a clear answer.
        reply_status(server, peer.id, frame.header.tag, PMIX_ERR_NOT_SUPPORTED);
        return;
    }
}

}  // namespace pmixpp::server
