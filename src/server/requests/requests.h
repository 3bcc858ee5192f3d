// The handlers of client requests (one file each) and the hooks other parts
// of the server call into them with. Progress thread only. Every handler
// answers its request exactly once (a StatusReply or its own reply type),
// now or when the data or the host's callback arrives.
#ifndef PMIXPP_SERVER_REQUESTS_REQUESTS_H
#define PMIXPP_SERVER_REQUESTS_REQUESTS_H

#include "common/store/resolver.h"
#include "common/wire/messages.h"
#include "server/state/server.h"

#include <cstdint>
#include <functional>

namespace pmixpp::server {

void handle_commit(Server &server, Peer &peer, uint32_t tag, wire::CommitRequest &request);
void handle_fence(Server &server, Peer &peer, uint32_t tag, wire::FenceRequest &request);
void handle_get(Server &server, Peer &peer, uint32_t tag, wire::GetRequest &request);
void handle_abort(Server &server, Peer &peer, uint32_t tag, wire::AbortRequest &request);
void handle_finalize(Server &server, Peer &peer, uint32_t tag, wire::FinalizeRequest &request);
void handle_register_events(Server &server, Peer &peer, uint32_t tag, wire::RegisterEventsRequest &request);
void handle_deregister_events(Server &server, Peer &peer, uint32_t tag, wire::DeregisterEventsRequest &request);
void handle_notify_event(Server &server, Peer &peer, uint32_t tag, wire::NotifyEventRequest &request);
void handle_query(Server &server, Peer &peer, uint32_t tag, wire::QueryRequest &request);
// publish.cc: to the host's publish / lookup / unpublish upcalls.
void handle_publish(Server &server, Peer &peer, uint32_t tag, wire::PublishRequest &request);
void handle_lookup(Server &server, Peer &peer, uint32_t tag, wire::LookupRequest &request);
void handle_unpublish(Server &server, Peer &peer, uint32_t tag, wire::UnpublishRequest &request);
// dynamic.cc: to the host's spawn / allocate / session-control / log upcalls.
void handle_spawn(Server &server, Peer &peer, uint32_t tag, wire::SpawnRequest &request);
void handle_allocate(Server &server, Peer &peer, uint32_t tag, wire::AllocateRequest &request);
void handle_session_control(Server &server, Peer &peer, uint32_t tag, wire::SessionControlRequest &request);
void handle_log(Server &server, Peer &peer, uint32_t tag, wire::LogRequest &request);
void handle_job_data(Server &server, Peer &peer, uint32_t tag, wire::JobDataRequest &request);
// connect.cc: local collectives ending in the host's connect / disconnect upcall.
void handle_connect(Server &server, Peer &peer, uint32_t tag, wire::ConnectRequest &request);
void handle_disconnect(Server &server, Peer &peer, uint32_t tag, wire::DisconnectRequest &request);
void handle_group_construct(Server &server, Peer &peer, uint32_t tag, wire::GroupConstructRequest &request);
void handle_group_destruct(Server &server, Peer &peer, uint32_t tag, wire::GroupDestructRequest &request);
void handle_group_leave(Server &server, Peer &peer, uint32_t tag, wire::GroupLeaveRequest &request);
void handle_group_invite(Server &server, Peer &peer, uint32_t tag, wire::GroupInviteRequest &request);
void handle_group_join(Server &server, Peer &peer, uint32_t tag, wire::GroupJoinRequest &request);
// credentials.cc: to the host's get_credential / validate_credential upcalls.
void handle_get_credential(Server &server, Peer &peer, uint32_t tag, wire::GetCredentialRequest &request);
void handle_validate_credential(Server &server, Peer &peer, uint32_t tag, wire::ValidateCredentialRequest &request);
// The same for any requester (a client, or the host itself through
// self-access); `respond` runs exactly once, on the progress thread, never
// before start_* returns. PMIX_ERR_NOT_SUPPORTED: the host has no such upcall.
using CredentialResponder = std::function<void(wire::GetCredentialReply &reply)>;
void start_get_credential(Server &server, const pmix_proc_t &requester, wire::GetCredentialRequest request,
                          CredentialResponder respond);
using ValidationResponder = std::function<void(wire::InfoReply &reply)>;
void start_validate_credential(Server &server, const pmix_proc_t &requester, wire::ValidateCredentialRequest request,
                               ValidationResponder respond);
// fabric.cc: PMIx_Fabric_register / _update / _deregister of any requester
// (a client or tool, or the host itself through self-access with owner
// kNoPeer). `respond` runs exactly once, on the progress thread, possibly
// before start_* returns.
using FabricResponder = std::function<void(wire::FabricReply &reply)>;
void start_fabric_register(Server &server, const pmix_proc_t &requester, PeerId owner,
                           wire::FabricRegisterRequest request, FabricResponder respond);
void start_fabric_update(Server &server, const pmix_proc_t &requester, PeerId owner, wire::FabricUpdateRequest request,
                         FabricResponder respond);
// Ends owner's registration `index` (its component is told):
// PMIX_ERR_NOT_FOUND when owner holds no such registration.
pmix_status_t end_fabric(Server &server, PeerId owner, uint64_t index);
void handle_fabric_register(Server &server, Peer &peer, uint32_t tag, wire::FabricRegisterRequest &request);
void handle_fabric_update(Server &server, Peer &peer, uint32_t tag, wire::FabricUpdateRequest &request);
void handle_fabric_deregister(Server &server, Peer &peer, uint32_t tag, wire::FabricDeregisterRequest &request);
// A connection ended: what it registered ends too. Finalize: everything.
void fabric_peer_lost(Server &server, const Peer &peer);
void end_all_fabrics(Server &server);
// job_control.cc: cleanup registrations stay here (server/cleanup), the
// rest goes to the host's job_control upcall.
void handle_job_control(Server &server, Peer &peer, uint32_t tag, wire::JobControlRequest &request);

// monitor.cc: PMIx_Process_monitor to the host's monitor upcall, else the
// server's own monitors (server/monitor/); PMIx_Heartbeat (one-way).
void handle_monitor(Server &server, Peer &peer, uint32_t tag, wire::MonitorRequest &request);
void handle_heartbeat(Server &server, Peer &peer, uint32_t tag, wire::HeartbeatRequest &request);
// iof.cc: PMIx_IOF_pull / _deregister (registered here, the host's iof_pull
// told) and PMIx_IOF_push (to the host's push_stdin).
void handle_iof_pull(Server &server, Peer &peer, uint32_t tag, wire::IofPullRequest &request);
void handle_iof_deregister(Server &server, Peer &peer, uint32_t tag, wire::IofDeregisterRequest &request);
void handle_iof_push(Server &server, Peer &peer, uint32_t tag, wire::IofPushRequest &request);
// The same for any requester; `owner` is its connection (kNoPeer: the host
// itself), whose monitors stop when it goes. `respond` runs exactly once,
// on the progress thread, possibly before start_monitor returns.
using MonitorResponder = std::function<void(wire::InfoReply &reply)>;
void start_monitor(Server &server, PeerId owner, const pmix_proc_t &requester, wire::MonitorRequest request,
                   MonitorResponder respond);

// get.cc / query.cc: the request of any requester (a connected client, or
// the host itself through self-access); `respond` runs exactly once, on the
// progress thread, possibly before start_* returns.
using GetResponder = std::function<void(wire::GetReply &reply)>;
// owner: the connection the request came in on (kNoPeer for the host's
// own), whose parked gets are capped (PMIX_MCA_ptl_base_max_parked_requests).
void start_get(Server &server, const pmix_proc_t &requester, wire::GetRequest request, GetResponder respond,
               PeerId owner = kNoPeer);
// PMIx_Spawn of a client, or of the host itself (self-access): the host's
// spawn upcall, answered on the progress thread after it returned.
using SpawnResponder = std::function<void(wire::SpawnReply &reply)>;
void start_spawn(Server &server, const pmix_proc_t &requester, wire::SpawnRequest request, SpawnResponder respond);
// PMIx_IOF_pull of a peer, or of the host itself (owner iof::kHostOwner),
// and the end of one (the host's iof_pull hears PMIX_IOF_STOP).
using IofPullResponder = std::function<void(wire::IofPullReply &reply)>;
void start_iof_pull(Server &server, PeerId owner, wire::IofPullRequest request, IofPullResponder respond);
pmix_status_t stop_iof_pull(Server &server, PeerId owner, wire::IofDeregisterRequest &request);
// PMIx_IOF_push of a client or tool, or of the host itself: the host's
// push_stdin upcall with `source` as the sender.
using IofPushResponder = std::function<void(wire::StatusReply &reply)>;
void start_iof_push(Server &server, const pmix_proc_t &source, wire::IofPushRequest request, IofPushResponder respond);
// PMIx_Allocation_request of a client or of the host itself: the host's
// allocate upcall, its info answer copied.
using InfoResponder = std::function<void(wire::InfoReply &reply)>;
void start_allocate(Server &server, const pmix_proc_t &requester, wire::AllocateRequest request, InfoResponder respond);
// PMIx_Job_control of a client (not a cleanup registration) or of the host
// itself: the host's job_control upcall.
using JobControlDone = std::function<void(pmix_status_t status)>;
void start_job_control(Server &server, const pmix_proc_t &requester, wire::JobControlRequest request,
                       JobControlDone done);
// PMIx_Log channels that only the host serves, of a client or of the host
// itself: the host's log upcall.
using StatusResponder = std::function<void(wire::StatusReply &reply)>;
void start_log(Server &server, const pmix_proc_t &requester, wire::LogRequest request, StatusResponder respond);
// PMIx_Publish / Lookup / Unpublish of a client (with its uid and gid in
// the info) or of the host itself: the host's name-service upcalls.
using LookupResponder = std::function<void(wire::LookupReply &reply)>;
void start_publish(Server &server, const pmix_proc_t &requester, wire::PublishRequest request, StatusResponder respond);
void start_lookup(Server &server, const pmix_proc_t &requester, wire::LookupRequest request, LookupResponder respond);
void start_unpublish(Server &server, const pmix_proc_t &requester, wire::UnpublishRequest request,
                     StatusResponder respond);
using QueryResponder = std::function<void(wire::QueryReply &reply)>;
void start_query(Server &server, const pmix_proc_t &requester, wire::QueryRequest request, QueryResponder respond);

// fence_arena.cc (fence_arenas.h): the arena of a job registered here
// whole; its name in a client's Welcome; a whole-job fence taken through it
// (false: not for the arena, the caller goes on as usual); a rank's end.
void open_fence_arena(Server &server, const std::string &nspace);
void close_fence_arena(Server &server, const std::string &nspace);
void add_arena_welcome(Server &server, const std::string &nspace, wire::InfoArray &info);
bool arena_fence(Server &server, Peer &peer, uint32_t tag, const wire::FenceRequest &request);
void arena_peer_lost(Server &server, const Peer &peer);
void close_all_fence_arenas(Server &server);
// fence.cc: a participant's connection ended.
void fence_peer_lost(Server &server, const Peer &peer);
// fence.cc: fail every open collective (finalize).
void fail_all_fences(Server &server, pmix_status_t status);
// connect.cc: the same for connects and disconnects.
void connect_peer_lost(Server &server, const Peer &peer);
void fail_all_connects(Server &server, pmix_status_t status);
// groups.cc: the same for group constructs and destructs.
void group_peer_lost(Server &server, const Peer &peer);
void fail_all_groups(Server &server, pmix_status_t status);
// group_invites.cc: the same for invitations in progress.
void invitation_peer_lost(Server &server, const Peer &peer);
void fail_all_invitations(Server &server, pmix_status_t status);
// group_invites.cc: a leader raised PMIX_GROUP_CONSTRUCT_ABORT for its open
// invitation (PMIX_GROUP_ID): the invitation is aborted (true).
bool invitation_aborted_by(Server &server, const Peer &peer, const wire::Event &event);
// groups.cc: procs with each {group name, PMIX_RANK_WILDCARD} replaced by
// the group's members, {group name, N} by its Nth member in sorted order (a
// fence over a group, as OpenPMIx allows).
std::vector<pmix_proc_t> with_groups_expanded(const Server &server, std::vector<pmix_proc_t> procs);
// groups.cc: a get qualified by PMIX_GROUP_CONTEXT_ID asks for what a
// member gave in PMIX_GROUP_INFO when that group was constructed; true (and
// *reply_p set, PMIX_ERR_NOT_FOUND when it gave no such key) for such a get.
bool answer_group_qualified_get(const Server &server, const wire::GetRequest &request, wire::GetReply *reply_p);
// groups.cc: PMIx_Get of PMIX_GROUP_MEMBERSHIP or PMIX_GROUP_CONTEXT_ID of a
// constructed group, named by the proc's nspace or a PMIX_GROUP_ID
// directive; true (and *reply_p set) for such a get.
bool answer_group_get(const Server &server, const wire::GetRequest &request, wire::GetReply *reply_p);

// fence.cc: stores a modex blob from the host (fence, direct modex): the
// records of procs on other nodes, as PMIX_REMOTE data. Records of local
// procs are skipped: the store has their data with its real scopes.
pmix_status_t store_remote_blob(Server &server, const wire::Bytes &blob);

// fence.cc: copies the modex bytes a host hands to a fence or direct-modex
// callback, then lets the host release them (the host may free them as soon
// as release runs), on the progress thread after the callback returned. A
// failed copy turns *status_p into PMIX_ERR_NOMEM.
wire::Bytes take_host_blob(const char *data, size_t ndata, pmix_release_cbfunc_t release, void *release_cbdata,
                           pmix_status_t *status_p);

// fence_share.cc: when a collecting fence's replies to `recipients` local
// participants would carry at least Config::share_modex_bytes in all, the
// collected data of every namespace the store can share (gds share_modex)
// moves from reply.data to reply.shared; anything else stays in data.
void share_collected(Server &server, std::size_t recipients, wire::FenceReply &reply);
// True when the peer reads the collected data a fence's reply carries (it
// is connected and its dialect, if any, says so: peer_dialect.h).
bool reads_collected_data(Server &server, PeerId peer);

// commit.cc: the modex blob of one local proc's data visible to `scope`
// (PMIX_REMOTE for other nodes, PMIX_LOCAL for peers on this node).
pmix_status_t proc_modex(const Server &server, const pmix_proc_t &proc, pmix_scope_t scope, wire::ProcData *data_p);

}  // namespace pmixpp::server

#endif
