// Self-access: the client API called by the HOST process itself.
//
// A process that runs the server is a PMIx proc of its own
// (PMIX_SERVER_NSPACE / PMIX_SERVER_RANK) but it is not a connected client:
// when its PMIx_Get / Put / Commit / Fence / Query_info /
// Register_event_handler / Notify_event run while server_running(), the
// client library (src/client) answers them from the server's state through
// this interface instead of a connection.
//
// The replies are the same wire structs a connected client receives, so the
// client library handles both paths alike.
//
// Threading: every function may be called from any thread, including the
// progress thread (a host calling PMIx_* from inside an upcall). Each *_nb
// returns PMIX_SUCCESS when `done` will run exactly once, on the progress
// thread, never before the *_nb call returned; any other status means it
// will not run. PMIX_ERR_INIT: no server runs. When the server finalizes,
// pending operations complete with PMIX_ERR_LOST_CONNECTION (or
// PMIX_ERR_INIT if it was gone before they started).
#ifndef PMIXPP_SERVER_ENGINE_SELF_ACCESS_H
#define PMIXPP_SERVER_ENGINE_SELF_ACCESS_H

#include "common/wire/messages.h"

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pmixpp::server {

bool server_running();

// The server's own identity (PMIX_SERVER_NSPACE / PMIX_SERVER_RANK), from
// any thread without a trip to the progress thread; *generation_p changes
// with every server the process runs.
pmix_status_t server_identity(pmix_proc_t *proc_p, uint64_t *generation_p = nullptr);

// ---- data ----------------------------------------------------------------

// PMIx_Get against the server's store, local resolution only: registered job
// data of every namespace it serves, node-level resources
// (PMIx_server_register_resources), the server's own committed data, and
// every modex value it holds (any scope). The value is malloc'ed
// (PMIX_VALUE_RELEASE). PMIX_ERR_NOT_FOUND when nothing matches; never waits.
pmix_status_t server_get(const pmix_proc_t *target, const char *key, const pmix_info_t qualifiers[],
                         std::size_t nqualifiers, pmix_value_t **value_p);

// PMIx_Get(_nb) of the host. What the server does not hold is NOT_FOUND at
// once, as OpenPMIx answers its host (PRRTE's direct modex relies on that).
// With PMIX_TIMEOUT the host waits as a connected client would: a local
// client that has not committed yet is waited for (unless PMIX_IMMEDIATE; at
// most PMIX_TIMEOUT seconds), a remote proc's data is asked from the host's
// direct_modex. An empty key asks for everything of
// the target (reply.data holds all its key/values). reply.status is the
// outcome; on PMIX_SUCCESS with a key, reply.data[0] is that key.
using GetDone = std::function<void(wire::GetReply &reply)>;
pmix_status_t server_get_nb(const pmix_proc_t &target, const char *key, const pmix_info_t qualifiers[],
                            std::size_t nqualifiers, GetDone done);

// PMIx_Put: staged until server_commit() (OpenPMIx semantics: a put is
// visible to others only once committed). PMIX_ERR_BAD_PARAM for a NULL or
// over-long key, a NULL value or an undefined scope.
pmix_status_t server_put(pmix_scope_t scope, const char *key, const pmix_value_t *value);
// PMIx_Store_internal of the host: value as proc's internal data (its own
// namespace when proc's is empty), or as job data for rank wildcard or
// undefined. Open MPI's mpirun stores its own contact URI this way.
pmix_status_t server_store_internal(const pmix_proc_t &proc, const char *key, const pmix_value_t *value);
// PMIx_Commit: stores the staged puts as the server proc's modex data
// (clients' PMIx_Get of the server proc finds them) and wakes waiters.
pmix_status_t server_commit();

// ---- collectives -----------------------------------------------------------

// PMIx_Fence(_nb) of the host. Participants that are only the server proc
// itself (or procs NULL/0) complete at once with PMIX_SUCCESS. Otherwise the
// host's fence_nb gets the server's committed data as the contribution (the
// host is its own RM: the collective is between servers, e.g. daemons);
// without a fence_nb, PMIX_ERR_NOT_SUPPORTED. Returned data of other procs
// is stored (PMIX_REMOTE) so a later server_get finds it; reply.data is
// always empty (the caller shares the server's store).
using FenceDone = std::function<void(wire::FenceReply &reply)>;
pmix_status_t server_fence_nb(const pmix_proc_t procs[], std::size_t nprocs, const pmix_info_t info[],
                              std::size_t ninfo, FenceDone done);

// ---- queries ---------------------------------------------------------------

// PMIx_Query_info(_nb): what the server knows (namespaces, process sets),
// the rest from the host's query upcall, as for a connected client.
using QueryDone = std::function<void(wire::QueryReply &reply)>;
pmix_status_t server_query_nb(const pmix_query_t queries[], std::size_t nqueries, QueryDone done);

// ---- jobs ------------------------------------------------------------------

// PMIx_Spawn(_nb) of the host: handed to its own spawn upcall with the
// server proc as requester, as OpenPMIx does (PRRTE launches the user's job
// this way). The arrays the upcall gets stay valid until it calls back.
// Without a spawn upcall, PMIX_ERR_NOT_SUPPORTED in reply.status.
using SpawnDone = std::function<void(wire::SpawnReply &reply)>;
pmix_status_t server_spawn_nb(const pmix_info_t job_info[], std::size_t ninfo, const pmix_app_t apps[],
                              std::size_t napps, SpawnDone done);

// PMIx_IOF_push of the host: the bytes (and the end of input when eof) to
// its own push_stdin upcall, the server proc as the source. Without one,
// PMIX_ERR_NOT_SUPPORTED in reply.status.
using PushDone = std::function<void(wire::StatusReply &reply)>;
pmix_status_t server_iof_push_nb(const pmix_proc_t targets[], std::size_t ntargets, const pmix_info_t directives[],
                                 std::size_t ndirs, const uint8_t *data, std::size_t size, bool eof, PushDone done);

// PMIx_IOF_pull of the host: registered like a tool's pull (the host's
// iof_pull hears of it), its output handed to the sink below on the
// progress thread, cached output first. reply.id names it for
// server_iof_deregister_nb.
using PullDone = std::function<void(wire::IofPullReply &reply)>;
pmix_status_t server_iof_pull_nb(const pmix_proc_t procs[], std::size_t nprocs, const pmix_info_t directives[],
                                 std::size_t ndirs, uint16_t channels, PullDone done);
pmix_status_t server_iof_deregister_nb(uint64_t id, const pmix_info_t directives[], std::size_t ndirs, PushDone done);
// Where the host's pulls' chunks go (the client library's handlers).
using IofSink = std::function<void(const wire::IofData &chunk)>;
pmix_status_t server_set_iof_sink(IofSink sink);

// PMIx_Allocation_request and PMIx_Job_control of the host: its own
// allocate and job_control upcalls, the server proc as requester, as
// OpenPMIx hands them. Without the upcall, PMIX_ERR_NOT_SUPPORTED.
using AllocateDone = std::function<void(wire::InfoReply &reply)>;
pmix_status_t server_allocate_nb(pmix_alloc_directive_t directive, const pmix_info_t info[], std::size_t ninfo,
                                 AllocateDone done);
using SelfJobControlDone = std::function<void(wire::StatusReply &reply)>;
pmix_status_t server_job_control_nb(const pmix_proc_t targets[], std::size_t ntargets, const pmix_info_t directives[],
                                    std::size_t ndirs, SelfJobControlDone done);

// PMIx_Log of the host (self_jobs.cc): the channels it could not serve
// itself (`data`), handed to its own log upcall. Without the upcall,
// PMIX_ERR_NOT_SUPPORTED.
pmix_status_t server_log_nb(wire::InfoArray data, const pmix_info_t directives[], std::size_t ndirs, PushDone done);

// PMIx_Connect / PMIx_Disconnect of the host (self_connect.cc). As for its
// fence, the host is no participant of its clients' collectives: a set of
// only itself completes at once, any other goes to its own connect
// (disconnect) upcall with the procs and info as given. Without the upcall,
// PMIX_ERR_NOT_SUPPORTED.
pmix_status_t server_connect_nb(bool disconnect, const pmix_proc_t procs[], std::size_t nprocs,
                                const pmix_info_t info[], std::size_t ninfo, PushDone done);

// PMIx_Publish / Lookup / Unpublish of the host (self_publish.cc): its own
// publish, lookup and unpublish upcalls, the server proc as requester and
// its uid and gid in the info. Without the upcall, PMIX_ERR_NOT_SUPPORTED.
pmix_status_t server_publish_nb(const pmix_info_t info[], std::size_t ninfo, PushDone done);
using LookupDone = std::function<void(wire::LookupReply &reply)>;
pmix_status_t server_lookup_nb(std::vector<std::string> keys, const pmix_info_t directives[], std::size_t ndirs,
                               LookupDone done);
pmix_status_t server_unpublish_nb(std::vector<std::string> keys, const pmix_info_t directives[], std::size_t ndirs,
                                  PushDone done);

// ---- events ----------------------------------------------------------------

// Where events for the host's own handlers go: the client library's
// dispatcher (runs on the progress thread). One per process; an empty sink
// clears it. Cleared by PMIx_server_finalize.
using EventSink = std::function<void(const wire::Event &event)>;
pmix_status_t server_set_event_sink(EventSink sink);

// PMIx_Register_event_handler of the host: the sink receives the events the
// server raises or relays (a client's abnormal exit as
// PMIX_ERR_PROC_TERM_WO_SYNC and PMIX_ERR_LOST_CONNECTION, events clients
// notify, events the host's own PMIx_Notify_event does NOT: the library
// handles the raiser's handlers itself) whose code is in `codes` (none: all).
// *reference_p identifies the registration for server_deregister_events.
pmix_status_t server_register_events(const pmix_status_t codes[], std::size_t ncodes, uint64_t *reference_p);
pmix_status_t server_deregister_events(uint64_t reference);

// PMIx_Notify_event of the host: delivered to the connected local clients in
// range that registered for the code (source = the given proc, or the server
// proc when NULL). Never sent back to the host's own upcall or sink.
pmix_status_t server_notify_event(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                                  const pmix_info_t info[], std::size_t ninfo);

// ---- monitoring ------------------------------------------------------------
// PMIx_Process_monitor(_nb) of the host: its own monitor upcall, in the
// server proc's name, else the server's own monitors watch the host process
// (requests/monitor.cc). reply.status is the outcome.
using MonitorDone = std::function<void(wire::InfoReply &reply)>;
pmix_status_t server_monitor_nb(const pmix_info_t &monitor, pmix_status_t error, const pmix_info_t directives[],
                                std::size_t ndirs, MonitorDone done);
// PMIx_Heartbeat of the host: feeds the heartbeat monitors of the server proc.
pmix_status_t server_heartbeat();

// ---- credentials -----------------------------------------------------------
// PMIx_Get_credential / PMIx_Validate_credential of the host: its own
// get_credential / validate_credential upcall, asked in the server proc's
// name. reply.status PMIX_ERR_NOT_SUPPORTED when the host has no such
// upcall (the client library then uses psec, as OpenPMIx does).
using CredentialDone = std::function<void(wire::GetCredentialReply &reply)>;
pmix_status_t server_get_credential_nb(const pmix_info_t directives[], std::size_t ndirs, CredentialDone done);
using ValidationDone = std::function<void(wire::InfoReply &reply)>;
pmix_status_t server_validate_credential_nb(const pmix_byte_object_t &credential, const pmix_info_t directives[],
                                            std::size_t ndirs, ValidationDone done);

// ---- fabrics ---------------------------------------------------------------
// PMIx_Fabric_register / _update / _deregister of the host: answered as a
// client's would be (a pnet component, else the host's own fabric upcall,
// else PMIX_ERR_NOT_AVAILABLE), in the server proc's name. The host's
// registrations end at finalize.
using FabricDone = std::function<void(wire::FabricReply &reply)>;
pmix_status_t server_fabric_register_nb(const pmix_info_t directives[], std::size_t ndirs, FabricDone done);
pmix_status_t server_fabric_update_nb(uint64_t index, FabricDone done);
using FabricEndDone = std::function<void(wire::StatusReply &reply)>;
pmix_status_t server_fabric_deregister_nb(uint64_t index, FabricEndDone done);

}  // namespace pmixpp::server

#endif
