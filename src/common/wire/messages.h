// The payloads of pmixpp's wire protocol: one struct per message and one
// encode/decode pair per struct, over the buffer codec (common/buffer).
// This header is the contract between server and client; docs/wire-protocol.md
// describes the same protocol for people.
//
// Every payload starts with a u16 discriminator:
//   HANDSHAKE frames: a HandshakeMessage code (Hello, Welcome, Refuse);
//   REQUEST frames:   a Command code, then the request's fields;
//   REPLY frames:     an i32 status first (the Command is known from the tag);
//   NOTIFY frames:    a Notification code (Event, ...).
// (A REPLY's first field is its status, not a code: the tag names the request.)
//
// The peek_* functions read a payload's discriminator (or a reply's status)
// without decoding the rest, to choose the decoder.
//
// Pattern for every message X:
//   pmix_status_t encode(const X &, buffer::Packer &);     appends X
//   pmix_status_t decode(buffer::Unpacker &, X *x_p);      reads X
// encode refuses values the protocol cannot carry (PMIX_ERR_BAD_PARAM); decode
// validates every field and returns the codec's error for a truncated payload
// (PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER) and PMIX_ERR_UNPACK_FAILURE for a
// malformed one (wrong discriminator, unknown enum value, over-long string,
// count above a limit). decode never reads past the buffer, never throws, and
// sets *x_p only on success. encode_payload/decode_payload below wrap a whole
// frame payload (roll back / leave the buffer untouched on failure).
#ifndef PMIXPP_COMMON_WIRE_MESSAGES_H
#define PMIXPP_COMMON_WIRE_MESSAGES_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <pmix_common.h>

#include "common/buffer/packer.h"
#include "common/values/array_ops.h"
#include "common/wire/frame.h"
#include "common/wire/messages_array.h"
#include "common/values/type_ops.h"

namespace pmixpp::wire {

// ---------------------------------------------------------------- versions, limits

// Protocol versions this library speaks (a closed range); the newest is the
// one frame headers carry (frame.h).
inline constexpr uint16_t kMinProtocolVersion = 1;
inline constexpr uint16_t kMaxProtocolVersion = kProtocolVersion;

// Module names (psec, gds, ptl) and library version strings.
inline constexpr size_t kMaxNameLength = 255;
// Human-readable texts: Refuse reason, Abort message.
inline constexpr size_t kMaxMessageLength = 4096;
// Entries in Hello::gds_modules.
inline constexpr size_t kMaxGdsModules = 32;
// Event codes in one RegisterEventsRequest.
inline constexpr size_t kMaxEventCodes = 4096;
// Bytes of one security credential (a munge credential is a few hundred).
inline constexpr size_t kMaxCredentialSize = 64 * 1024;
// Bytes of forwarded output or stdin in one IOF message; a sender splits
// larger writes, so one chunk never monopolizes a connection.
inline constexpr size_t kMaxIofChunk = 64 * 1024;

// ---------------------------------------------------------------- handshake (HANDSHAKE frames)

enum class HandshakeMessage : uint16_t { Hello = 1, Welcome = 2, Refuse = 3 };

// What kind of process is connecting. Unknown values are malformed.
enum class PeerType : uint8_t {
    Client = 1,     // an application process launched by the host
    Tool = 2,       // debugger, monitor, pmixpp tool
    Server = 3,     // another PMIx server (e.g. a daemon attaching as a tool-like peer)
    Launcher = 4,   // a launcher (prterun-like) connecting to a system server
    Singleton = 5,  // a client started without a launcher that found a server
};
const char *peer_type_name(PeerType type);

// Client -> server, first message on a connection. Its layout never changes
// between protocol versions (a server must always be able to read it and
// answer); later versions add fields through `info`.
struct Hello {
    uint16_t min_version = kMinProtocolVersion;
    uint16_t max_version = kMaxProtocolVersion;
    PeerType peer_type = PeerType::Client;
    std::string nspace;  // may be empty for a tool without identity
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    int32_t pid = 0;
    std::string psec_module;               // name of the psec module that made `credential`
    Bytes credential;                      // may be empty (native psec relies on the kernel)
    std::vector<std::string> gds_modules;  // usable gds modules, preferred first
    std::string ptl_module;                // the transport this connection uses
    std::string library_version;           // PMIx_Get_version() of the peer
    InfoArray info;                        // extensions
};

// Server -> client when the connection is accepted.
struct Welcome {
    uint16_t version = kMaxProtocolVersion;  // chosen protocol version
    pmix_status_t status = PMIX_SUCCESS;
    std::string gds_module;  // chosen from Hello::gds_modules
    std::string server_nspace;
    pmix_rank_t server_rank = PMIX_RANK_UNDEF;
    // The identity the server knows the peer by (assigned by the server when a
    // tool connected without one; else the Hello's nspace/rank).
    std::string peer_nspace;
    pmix_rank_t peer_rank = PMIX_RANK_UNDEF;
    std::string library_version;
    Bytes job_data;  // export of the peer's namespace by the chosen gds module (opaque)
    InfoArray info;
};

// Server -> client when the connection is refused; the server closes it after.
struct Refuse {
    pmix_status_t status = PMIX_ERR_UNREACH;
    std::string reason;  // e.g. "uid 1001 does not match uid 0 registered for nspace foo rank 3"
};

pmix_status_t encode(const Hello &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, Hello *msg_p);
pmix_status_t encode(const Welcome &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, Welcome *msg_p);
pmix_status_t encode(const Refuse &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, Refuse *msg_p);

// The discriminator of a HANDSHAKE payload, not consumed.
pmix_status_t peek_handshake(std::span<const uint8_t> payload, HandshakeMessage *type_p);

// The highest version in both [hello.min, hello.max] and ours;
// PMIX_ERR_NOT_SUPPORTED when the ranges do not overlap.
pmix_status_t negotiate_version(const Hello &hello, uint16_t *version_p);

// ---------------------------------------------------------------- requests (REQUEST frames)

// Everything a client or tool can ask its server. Codes are stable; a code
// the server has no handler for (ToolAttach, ToolDetach) or does not know is
// answered with PMIX_ERR_NOT_SUPPORTED.
enum class Command : uint16_t {
    // data exchange, life cycle, events, queries
    Commit = 1,
    Fence = 2,
    Get = 3,
    Abort = 4,
    Finalize = 5,
    RegisterEvents = 6,
    DeregisterEvents = 7,
    NotifyEvent = 8,
    Query = 9,
    JobData = 10,  // a private copy of the job data when a client cannot use the shared one
    // reserved
    Publish = 20,
    Lookup = 21,
    Unpublish = 22,
    Spawn = 23,
    Connect = 24,
    Disconnect = 25,
    JobControl = 26,  // cleanup registrations (RFC0027) stay in the server, the rest goes to the host
    Monitor = 27,
    Log = 28,
    Allocate = 29,
    SessionControl = 30,
    GroupConstruct = 40,
    GroupJoin = 41,
    GroupInvite = 42,
    GroupLeave = 43,
    GroupDestruct = 44,
    IofPull = 50,
    IofPush = 51,
    IofDeregister = 52,
    GetCredential = 60,
    ValidateCredential = 61,
    FabricRegister = 70,
    FabricUpdate = 71,
    ToolAttach = 80,
    ToolDetach = 81,
    // New codes go here, at the end, whatever their value.
    FabricDeregister = 72,
    Heartbeat = 82,  // one-way (tag 0): PMIx_Heartbeat, feeds the sender's heartbeat monitors
};

// "commit", "fence", ...; "unknown" for a code not listed above.
const char *command_name(Command cmd);
bool is_known_command(uint16_t code);

// The Command of a REQUEST payload, not consumed. Any u16 is returned (the
// server answers unknown codes with PMIX_ERR_NOT_SUPPORTED); only a payload
// too short to hold one fails.
pmix_status_t peek_command(std::span<const uint8_t> payload, Command *cmd_p);

// PMIx_Commit: the put data, by scope. The server stores local for local
// peers, remote for the fence/direct-modex to other nodes, global for both.
struct CommitRequest {
    InfoArray local;
    InfoArray remote;
    InfoArray global;
    // False: the server sends no reply (a client that does not wait for it
    // is spared a wake-up; a failure is logged by the server instead).
    // Encoded as a trailing u8, absent = true, so older encoders still work.
    bool reply_wanted = true;
};

// PMIx_Fence(_nb).
struct FenceRequest {
    std::vector<pmix_proc_t> procs;  // empty = the caller's whole namespace
    InfoArray directives;            // PMIX_COLLECT_DATA, PMIX_TIMEOUT, ...
};

// PMIx_Get(_nb) that the client could not answer from its cache.
struct GetRequest {
    pmix_proc_t proc{};  // whose data (rank PMIX_RANK_WILDCARD = job level)
    std::string key;     // empty = everything of that proc
    InfoArray directives;
};

// PMIx_Abort.
struct AbortRequest {
    pmix_status_t status = PMIX_ERROR;
    std::string message;
    std::vector<pmix_proc_t> procs;  // empty = the caller's whole namespace
};

// PMIx_Finalize.
struct FinalizeRequest {
    InfoArray directives;  // e.g. PMIX_EMBED_BARRIER
};

// PMIx_Register_event_handler: what the server must forward to this client.
struct RegisterEventsRequest {
    std::vector<pmix_status_t> codes;  // empty = all events
    InfoArray info;
};

// PMIx_Deregister_event_handler.
struct DeregisterEventsRequest {
    uint64_t reference = 0;  // RegisterEventsReply::reference
};

// An event, as raised (client -> server, inside NotifyEventRequest) or
// delivered (server -> client, NOTIFY frame).
struct Event {
    pmix_status_t status = PMIX_ERROR;
    pmix_proc_t source{};
    pmix_data_range_t range = PMIX_RANGE_UNDEF;
    InfoArray info;
};

// PMIx_Notify_event from a client or tool.
struct NotifyEventRequest {
    Event event;
};

// PMIx_Query_info(_nb) for what the client cannot answer itself.
struct QueryRequest {
    QueryArray queries;
};

// PMIx_Publish(_nb), PMIx_Lookup(_nb), PMIx_Unpublish(_nb)
// (messages_publish.cc): forwarded to the host's publish / lookup /
// unpublish upcalls. A key is at most PMIX_MAX_KEYLEN bytes.
struct PublishRequest {
    InfoArray info;  // the data, plus directives (PMIX_RANGE, PMIX_PERSISTENCE, ...)
};
struct LookupRequest {
    std::vector<std::string> keys;
    InfoArray directives;  // PMIX_RANGE, PMIX_WAIT, PMIX_TIMEOUT, ...
};
struct UnpublishRequest {
    std::vector<std::string> keys;  // empty: everything the caller published
    InfoArray directives;
};

// PMIx_Connect(_nb), PMIx_Disconnect(_nb) (messages_connect.cc): a local
// collective over `procs` (rank PMIX_RANK_WILDCARD: every proc of that
// namespace), then the host's connect / disconnect upcall once. An empty
// proc list is carried as is; the server answers it PMIX_ERR_BAD_PARAM.
struct ConnectRequest {
    std::vector<pmix_proc_t> procs;
    InfoArray info;  // PMIX_TIMEOUT, and whatever the host understands
};
struct DisconnectRequest {
    std::vector<pmix_proc_t> procs;
    InfoArray info;
};

// PMIx_Group_construct(_nb), PMIx_Group_destruct(_nb) (messages_group.cc):
// a local collective of the group's members under the group's name
// (server/requests/groups.cc). Construct is answered by an InfoReply
// (PMIX_GROUP_MEMBERSHIP, PMIX_GROUP_CONTEXT_ID), destruct by a StatusReply.
// An empty name or member list is carried as is; the server refuses it.
struct GroupConstructRequest {
    std::string group;  // at most PMIX_MAX_NSLEN bytes
    std::vector<pmix_proc_t> procs;
    InfoArray info;  // PMIX_TIMEOUT, PMIX_GROUP_ASSIGN_CONTEXT_ID, ...
};
struct GroupDestructRequest {
    std::string group;
    InfoArray info;
};
// PMIx_Group_leave(_nb): the caller leaves a constructed group; the other
// members hear PMIX_GROUP_LEFT. Answered by a StatusReply.
struct GroupLeaveRequest {
    std::string group;
    InfoArray info;
};
// PMIx_Group_invite(_nb): the caller (the leader) invites procs into a new
// group; the server raises PMIX_GROUP_INVITED to them and answers with an
// InfoReply (as construct) once every invitee has answered.
struct GroupInviteRequest {
    std::string group;
    std::vector<pmix_proc_t> procs;
    InfoArray info;  // PMIX_TIMEOUT, PMIX_GROUP_OPTIONAL, PMIX_GROUP_ASSIGN_CONTEXT_ID, ...
};
// PMIx_Group_join(_nb), and what an invitee's or leader's event handlers
// answered to a group event (client/core/group_answers.cc). Accept is
// answered (InfoReply) when the group is complete or aborted, the others at
// once.
enum class GroupAnswer : uint8_t {
    decline = 0,       // PMIX_GROUP_DECLINE
    accept = 1,        // PMIX_GROUP_ACCEPT
    claim_leader = 2,  // a handler of PMIX_GROUP_LEADER_FAILED returned PMIX_GROUP_LEADER
    no_claim = 3,      // _LEADER_FAILED or _MEMBER_FAILED: neither a lead nor an abort
    abort = 4,         // a handler returned PMIX_GROUP_CONSTRUCT_ABORT
};
struct GroupJoinRequest {
    std::string group;
    pmix_proc_t leader{};  // as the caller named it; rank PMIX_RANK_UNDEF when none
    GroupAnswer answer = GroupAnswer::accept;
    InfoArray info;
};

// PMIx_Job_control(_nb) (messages_job_control.cc). Registered cleanup
// (PMIX_REGISTER_CLEANUP*, PMIX_CLEANUP_*) is the server's own business;
// other directives go to the host's job_control upcall.
struct JobControlRequest {
    std::vector<pmix_proc_t> targets;  // empty = the caller's namespace, rank wildcard
    InfoArray directives;
};

// PMIx_Spawn(_nb), PMIx_Allocation_request(_nb), PMIx_Session_control and
// the PMIx_Log channels a process cannot serve itself (messages_dynamic.cc):
// each goes to the host's matching upcall.
struct SpawnRequest {
    InfoArray job_info;  // PMIX_SPAWN_CHILD_SEP, PMIX_SESSION_ID, PMIX_NOTIFY_COMPLETION, ...
    AppArray apps;       // at least one
};
struct AllocateRequest {
    pmix_alloc_directive_t directive = PMIX_ALLOC_NEW;  // a known directive (1..4 or 5, cancel)
    InfoArray info;
};
struct SessionControlRequest {
    uint32_t session_id = 0;
    InfoArray directives;  // PMIX_SESSION_TERMINATE, _PAUSE, _RESUME, _SIGNAL, _SEP, ...
};
struct LogRequest {
    InfoArray data;        // what the client could not write itself
    InfoArray directives;  // PMIX_LOG_ONCE, timestamps, ...
};

// A client whose gds could not use the Welcome's job data (a gds/shmem
// segment it cannot map) asks for a copy that carries the data itself
// (messages_job_data.cc). Only the caller's own namespace is answered.
struct JobDataRequest {
    std::string nspace;
};

// PMIx_Get_credential(_nb) and PMIx_Validate_credential(_nb)
// (messages_credentials.cc): for the host's get_credential /
// validate_credential upcalls. A validation is answered by an InfoReply
// (PMIX_CRED_TYPE, PMIX_USERID, PMIX_GRPID, ...).
struct GetCredentialRequest {
    InfoArray directives;  // PMIX_CRED_TYPE, PMIX_TIMEOUT, ...
};
struct ValidateCredentialRequest {
    Bytes credential;  // not empty, at most kMaxCredentialSize bytes
    InfoArray directives;
};

// PMIx_Fabric_register(_nb) / _update(_nb) / _deregister(_nb)
// (messages_fabric.cc). The server answers register and update with a
// FabricReply, deregister with a StatusReply. `index` is the one a
// FabricReply gave.
struct FabricRegisterRequest {
    InfoArray directives;  // which fabric (PMIX_FABRIC_IDENTIFIER, PMIX_FABRIC_PLANE, ...)
};
struct FabricUpdateRequest {
    uint64_t index = 0;
};
struct FabricDeregisterRequest {
    uint64_t index = 0;
};

pmix_status_t encode(const FabricRegisterRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, FabricRegisterRequest *msg_p);
pmix_status_t encode(const FabricUpdateRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, FabricUpdateRequest *msg_p);
pmix_status_t encode(const FabricDeregisterRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, FabricDeregisterRequest *msg_p);
// PMIx_Process_monitor(_nb) (messages_monitor.cc): what to watch (exactly
// one info: PMIX_MONITOR_HEARTBEAT, PMIX_MONITOR_FILE, PMIX_MONITOR_CANCEL
// or a key only the host knows), the caller's error code and the
// directives. Answered by an InfoReply. A heartbeat is a HeartbeatRequest,
// sent without a tag and never answered.
struct MonitorRequest {
    InfoArray monitor;  // exactly one entry
    pmix_status_t error = PMIX_SUCCESS;
    InfoArray directives;
};
struct HeartbeatRequest {};

// Forwarded I/O (messages_iof.cc). PMIx_IOF_pull asks for the output of
// procs on some channels (stdout/stderr/stddiag bits, never stdin) and is
// answered by an IofPullReply with the server's registration id, which
// IofDeregister names later. IofPush carries stdin for the targets (an empty
// chunk with eof is a plain end of input); answered by a StatusReply.
inline constexpr uint16_t kIofOutputChannels =
    PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL | PMIX_FWD_STDDIAG_CHANNEL;
struct IofPullRequest {
    std::vector<pmix_proc_t> procs;  // not empty; a wildcard rank means the whole nspace
    uint16_t channels = 0;           // a non-empty subset of kIofOutputChannels
    InfoArray directives;
};
struct IofDeregisterRequest {
    uint64_t id = 0;
    InfoArray directives;
};
struct IofPushRequest {
    std::vector<pmix_proc_t> targets;  // not empty
    InfoArray directives;
    Bytes data;  // at most kMaxIofChunk bytes
    bool eof = false;
};

pmix_status_t encode(const IofPullRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, IofPullRequest *msg_p);
pmix_status_t encode(const IofDeregisterRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, IofDeregisterRequest *msg_p);
pmix_status_t encode(const IofPushRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, IofPushRequest *msg_p);
pmix_status_t encode(const CommitRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, CommitRequest *msg_p);
pmix_status_t encode(const MonitorRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, MonitorRequest *msg_p);
pmix_status_t encode(const HeartbeatRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, HeartbeatRequest *msg_p);
pmix_status_t encode(const GetCredentialRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GetCredentialRequest *msg_p);
pmix_status_t encode(const ValidateCredentialRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, ValidateCredentialRequest *msg_p);
pmix_status_t encode(const JobDataRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, JobDataRequest *msg_p);
pmix_status_t encode(const FenceRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, FenceRequest *msg_p);
pmix_status_t encode(const GetRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GetRequest *msg_p);
pmix_status_t encode(const AbortRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, AbortRequest *msg_p);
pmix_status_t encode(const FinalizeRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, FinalizeRequest *msg_p);
pmix_status_t encode(const RegisterEventsRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, RegisterEventsRequest *msg_p);
pmix_status_t encode(const DeregisterEventsRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, DeregisterEventsRequest *msg_p);
pmix_status_t encode(const NotifyEventRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, NotifyEventRequest *msg_p);
pmix_status_t encode(const PublishRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, PublishRequest *msg_p);
pmix_status_t encode(const LookupRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, LookupRequest *msg_p);
pmix_status_t encode(const UnpublishRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, UnpublishRequest *msg_p);
pmix_status_t encode(const QueryRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, QueryRequest *msg_p);
pmix_status_t encode(const SpawnRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, SpawnRequest *msg_p);
pmix_status_t encode(const AllocateRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, AllocateRequest *msg_p);
pmix_status_t encode(const SessionControlRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, SessionControlRequest *msg_p);
pmix_status_t encode(const LogRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, LogRequest *msg_p);
pmix_status_t encode(const JobControlRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, JobControlRequest *msg_p);
pmix_status_t encode(const ConnectRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, ConnectRequest *msg_p);
pmix_status_t encode(const DisconnectRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, DisconnectRequest *msg_p);
pmix_status_t encode(const GroupConstructRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GroupConstructRequest *msg_p);
pmix_status_t encode(const GroupDestructRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GroupDestructRequest *msg_p);
pmix_status_t encode(const GroupLeaveRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GroupLeaveRequest *msg_p);
pmix_status_t encode(const GroupInviteRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GroupInviteRequest *msg_p);
pmix_status_t encode(const GroupJoinRequest &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GroupJoinRequest *msg_p);

// ---------------------------------------------------------------- replies (REPLY frames)

// Reply of the requests that return only a status: Commit, Abort, Finalize,
// DeregisterEvents, NotifyEvent, and any request the server does not support.
struct StatusReply {
    pmix_status_t status = PMIX_SUCCESS;
};

// Collected data a fence leaves where every local client reads it (the
// server's gds share_modex): the client hands `blob` to its gds import_modex.
struct SharedModex {
    std::string nspace;  // at most PMIX_MAX_NSLEN bytes
    Bytes blob;
};

struct FenceReply {
    pmix_status_t status = PMIX_SUCCESS;
    Bytes data;  // with PMIX_COLLECT_DATA: modex records (see ModexBlob below)
    // Namespaces whose collected data was shared instead of put in `data`.
    // Encoded after `data` as a count and entries; absent = none, so
    // replies of older servers still decode.
    std::vector<SharedModex> shared;
};

struct GetReply {
    pmix_status_t status = PMIX_SUCCESS;
    InfoArray data;  // the proc's key/values (the client caches them)
};

struct RegisterEventsReply {
    pmix_status_t status = PMIX_SUCCESS;
    uint64_t reference = 0;  // for DeregisterEventsRequest
};

// Reply of LookupRequest: what was found, each with its publisher.
struct LookupReply {
    pmix_status_t status = PMIX_SUCCESS;
    PdataArray data;
};

struct QueryReply {
    pmix_status_t status = PMIX_SUCCESS;
    InfoArray results;
};

// Reply of JobControlRequest: a refused cleanup registration says why
// (e.g. which path is not absolute); empty otherwise.
struct JobControlReply {
    pmix_status_t status = PMIX_SUCCESS;
    std::string reason;  // at most kMaxMessageLength bytes
};

// Reply of SpawnRequest: the new job's namespace (empty on failure).
struct SpawnReply {
    pmix_status_t status = PMIX_SUCCESS;
    std::string nspace;  // at most PMIX_MAX_NSLEN bytes
};

// Reply of IofPullRequest: the registration id (0 on failure).
struct IofPullReply {
    pmix_status_t status = PMIX_SUCCESS;
    uint64_t id = 0;
};

// Reply of AllocateRequest, SessionControlRequest and MonitorRequest: what
// the host said (PMIX_SESSION_ID, PMIX_ALLOC_ID, ...).
struct InfoReply {
    pmix_status_t status = PMIX_SUCCESS;
    InfoArray info;
};

// Reply of JobDataRequest: an export of the namespace by the server's gds
// module that carries the data inline (import it with the same module).
struct JobDataReply {
    pmix_status_t status = PMIX_SUCCESS;
    Bytes data;
};

// Reply of GetCredentialRequest: the credential (empty on failure) and what
// its maker said about it (PMIX_CRED_TYPE, ...).
struct GetCredentialReply {
    pmix_status_t status = PMIX_SUCCESS;
    Bytes credential;  // at most kMaxCredentialSize bytes
    InfoArray info;
};

// Reply of FabricRegisterRequest and FabricUpdateRequest: the fabric's
// index and name (what pmix_fabric_t holds) and its description.
struct FabricReply {
    pmix_status_t status = PMIX_SUCCESS;
    uint64_t index = 0;
    std::string name;  // at most kMaxNameLength bytes
    InfoArray info;    // PMIX_FABRIC_INDEX, PMIX_FABRIC_VENDOR, ...
};

pmix_status_t encode(const FabricReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, FabricReply *msg_p);
pmix_status_t encode(const GetCredentialReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GetCredentialReply *msg_p);
pmix_status_t encode(const SpawnReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, SpawnReply *msg_p);
pmix_status_t encode(const InfoReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, InfoReply *msg_p);
pmix_status_t encode(const JobDataReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, JobDataReply *msg_p);
pmix_status_t encode(const IofPullReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, IofPullReply *msg_p);
pmix_status_t encode(const StatusReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, StatusReply *msg_p);
pmix_status_t encode(const FenceReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, FenceReply *msg_p);
pmix_status_t encode(const GetReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, GetReply *msg_p);
pmix_status_t encode(const RegisterEventsReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, RegisterEventsReply *msg_p);
pmix_status_t encode(const QueryReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, QueryReply *msg_p);
pmix_status_t encode(const LookupReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, LookupReply *msg_p);
pmix_status_t encode(const JobControlReply &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, JobControlReply *msg_p);

// The status of a REPLY payload, not consumed (for failing a request without
// knowing its reply type).
pmix_status_t peek_reply_status(std::span<const uint8_t> payload, pmix_status_t *status_p);

// ---------------------------------------------------------------- notifications (NOTIFY frames)

enum class Notification : uint16_t {
    Event = 1,
    IofData = 2,  // IofData below
};

// A NOTIFY frame with one chunk of output for one pull registration of the
// tool (server -> tool). `dropped` counts the bytes the server threw away for
// this registration since the previous chunk because the tool did not read
// fast enough; info is what the host passed along (e.g. PMIX_IOF_COMPLETE).
struct IofData {
    uint64_t id = 0;
    pmix_proc_t source{};
    uint16_t channel = 0;  // exactly one output channel bit
    Bytes data;            // at most kMaxIofChunk bytes
    uint64_t dropped = 0;
    InfoArray info;
};

// Any u16 is returned: a client ignores notifications it does not know.
pmix_status_t peek_notification(std::span<const uint8_t> payload, Notification *type_p);

// A NOTIFY frame carrying one event (server -> client).
pmix_status_t encode(const Event &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, Event *msg_p);
pmix_status_t encode(const IofData &msg, buffer::Packer &p);
pmix_status_t decode(buffer::Unpacker &u, IofData *msg_p);

// ---------------------------------------------------------------- modex data

// One process's modex data.
struct ProcData {
    pmix_proc_t proc{};
    InfoArray info;
};

// The collected-data blob of a fence: a sequence of self-delimiting records,
// one per proc, with no header. Because of that, the concatenation of several
// blobs (what a host's fence returns after gathering each server's
// contribution) is again a valid blob. An empty blob holds no proc.
pmix_status_t encode_modex(const std::vector<ProcData> &procs, Bytes *blob_p);
// Appends the records of procs to *blob_p (keeps what is there).
pmix_status_t append_modex(const std::vector<ProcData> &procs, Bytes *blob_p);
pmix_status_t decode_modex(const void *blob, size_t size, std::vector<ProcData> *procs_p);

// ---------------------------------------------------------------- whole payloads

// Appends msg to buf; buf is unchanged on failure.
template <typename Message> pmix_status_t encode_payload(const Message &msg, pmix_data_buffer_t *buf)
{
    if (!buffer::buffer_is_consistent(buf)) {
        return PMIX_ERR_BAD_PARAM;
    }
    buffer::Packer packer(buf);
    pmix_status_t rc = encode(msg, packer);
    if (rc != PMIX_SUCCESS) {
        packer.rollback();
    }
    return rc;
}

// Decodes the unread rest of buf as exactly one message: trailing bytes are
// malformed. On success the bytes are consumed; on failure buf is unchanged.
template <typename Message> pmix_status_t decode_payload(pmix_data_buffer_t *buf, Message *msg_p)
{
    if (buf == nullptr || msg_p == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    buffer::Unpacker unpacker(buf);
    if (!unpacker.valid()) {
        return PMIX_ERR_BAD_PARAM;
    }
    Message msg;
    pmix_status_t rc = decode(unpacker, &msg);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (unpacker.remaining() != 0) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    unpacker.commit();
    *msg_p = std::move(msg);
    return PMIX_SUCCESS;
}

// Read-only view of size bytes as a buffer (nothing is copied or freed).
pmix_data_buffer_t borrow_bytes(const void *bytes, size_t size);

// Decodes exactly one message from raw payload bytes (e.g. a frame's body).
template <typename Message> pmix_status_t decode_payload(const void *bytes, size_t size, Message *msg_p)
{
    if (bytes == nullptr && size != 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_data_buffer_t view = borrow_bytes(bytes, size);
    return decode_payload(&view, msg_p);
}

template <typename Message> pmix_status_t decode_payload(std::span<const uint8_t> bytes, Message *msg_p)
{
    return decode_payload(bytes.data(), bytes.size(), msg_p);
}

// Encodes msg into a fresh byte vector (*bytes_p set only on success).
template <typename Message> pmix_status_t encode_to_bytes(const Message &msg, Bytes *bytes_p)
{
    pmix_data_buffer_t buf{};
    pmix_status_t rc = encode_payload(msg, &buf);
    if (rc == PMIX_SUCCESS) {
        try {
            const auto *first = reinterpret_cast<const uint8_t *>(buf.base_ptr);
            bytes_p->assign(first, first + buf.bytes_used);
        } catch (const std::bad_alloc &) {
            rc = PMIX_ERR_NOMEM;
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return rc;
}

}  // namespace pmixpp::wire

#endif
