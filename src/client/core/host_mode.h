// Host mode: this process runs the PMIx server (PMIx_server_init) and calls
// the client API without being a connected client of anyone. As in OpenPMIx
// it is then the proc PMIX_SERVER_NSPACE / PMIX_SERVER_RANK, PMIx_Initialized
// is true, PMIx_Init returns that proc without connecting, and Get, Put,
// Commit, Fence, Query_info, the event calls and Resolve_peers/nodes work on
// the server's own state, and what a host carries out (spawn, allocation,
// job control, log, connect, publish and lookup, IOF push) goes to the
// host's own upcalls (server/engine/self_access.h). A client session, when
// there is one, always takes precedence.
#ifndef PMIXPP_CLIENT_CORE_HOST_MODE_H
#define PMIXPP_CLIENT_CORE_HOST_MODE_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <pmix_common.h>

#include "client/core/event_home.h"
#include "common/store/store.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

// No client session, and a server runs in this process.
bool host_mode();

// PMIX_SERVER_NSPACE / PMIX_SERVER_RANK of the running server.
pmix_status_t host_identity(pmix_proc_t *proc_p);

// The host's own event handlers, created on first use (nullptr when no
// server runs or memory is short). Also (re)connects the server's event
// sink to them.
std::shared_ptr<EventHome> host_event_home();

// pthread_atfork child handler: the parent's host state is not ours.
void forget_host_state_in_child();

// ---- the data calls (host_data.cc)
using HostValueDone = std::function<void(pmix_status_t status, store::ValuePtr value)>;

// PMIx_Get of the host. Blocking form: from the progress thread only local
// data is looked at (waiting there would deadlock).
pmix_status_t host_get(const pmix_proc_t *proc, const char *key, const pmix_info_t info[], size_t ninfo,
                       store::ValuePtr *value_p);
// done runs once on the progress thread when PMIX_SUCCESS is returned.
pmix_status_t host_get_nb(const pmix_proc_t *proc, const char *key, const pmix_info_t info[], size_t ninfo,
                          HostValueDone done);
pmix_status_t host_put(pmix_scope_t scope, const char *key, const pmix_value_t *value);
pmix_status_t host_commit();
pmix_status_t host_store_internal(const pmix_proc_t &proc, const char *key, const pmix_value_t *value);
using HostOpDone = std::function<void(pmix_status_t status)>;
pmix_status_t host_fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                            HostOpDone done);
using HostQueryDone = std::function<void(pmix_status_t status, std::shared_ptr<wire::InfoArray> results)>;
pmix_status_t host_query_nb(const pmix_query_t queries[], size_t nqueries, HostQueryDone done);

// Resolve_peers / Resolve_nodes from the server's store.
pmix_status_t host_resolve_peers(const char *nodename, const char *nspace, pmix_proc_t **procs_p, size_t *nprocs_p);
pmix_status_t host_resolve_nodes(const char *nspace, char **nodelist_p);

// ---- the host's own module (host_jobs.cc)
// PMIx_Spawn of the host: its spawn upcall, requester the server proc. done
// runs once on the progress thread when PMIX_SUCCESS is returned.
using HostSpawnDone = std::function<void(pmix_status_t status, std::shared_ptr<wire::SpawnReply> reply)>;
pmix_status_t host_spawn_nb(const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[], size_t napps,
                            HostSpawnDone done);
// PMIx_Allocation_request and PMIx_Job_control of the host: its allocate
// and job_control upcalls (a job control's cleanup registration too: the
// host keeps its own files).
using HostInfoDone = std::function<void(pmix_status_t status, std::shared_ptr<wire::InfoReply> reply)>;
pmix_status_t host_allocate_nb(pmix_alloc_directive_t directive, const pmix_info_t info[], size_t ninfo,
                               HostInfoDone done);
pmix_status_t host_job_control_nb(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[],
                                  size_t ndirs, HostOpDone done);
// PMIx_Log of the host: the channels it could not serve itself go to its
// own log upcall.
pmix_status_t host_log_nb(wire::InfoArray left, const pmix_info_t directives[], size_t ndirs, HostOpDone done);
// PMIx_Connect / PMIx_Disconnect of the host: done at once for a set of
// only itself, else its own connect (disconnect) upcall.
pmix_status_t host_connect_nb(bool disconnect, const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, HostOpDone done);
// PMIx_Publish / Lookup / Unpublish of the host: its own name-service
// upcalls, with its uid and gid.
pmix_status_t host_publish_nb(const pmix_info_t info[], size_t ninfo, HostOpDone done);
using HostLookupDone = std::function<void(pmix_status_t status, std::shared_ptr<wire::LookupReply> reply)>;
pmix_status_t host_lookup_nb(std::vector<std::string> keys, const pmix_info_t directives[], size_t ndirs,
                             HostLookupDone done);
pmix_status_t host_unpublish_nb(std::vector<std::string> keys, const pmix_info_t directives[], size_t ndirs,
                                HostOpDone done);
// PMIx_IOF_push of the host: its push_stdin upcall, the server proc as the
// source; eof adds PMIX_IOF_COMPLETE.
pmix_status_t host_iof_push_nb(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[],
                               size_t ndirs, const pmix_byte_object_t *bo, bool eof, HostOpDone done);
// PMIx_IOF_pull of the host: done gets the server's id of the pull, whose
// chunks then reach client::deliver_iof; and its deregistration.
using HostPullDone = std::function<void(pmix_status_t status, uint64_t id)>;
pmix_status_t host_iof_pull_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                               uint16_t channels, HostPullDone done);
pmix_status_t host_iof_deregister_nb(uint64_t id, const pmix_info_t directives[], size_t ndirs, HostOpDone done);

// ---- events (host_events.cc)
using HostRegDone = std::function<void(pmix_status_t status, size_t reference)>;
pmix_status_t host_register_handler(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[], size_t ninfo,
                                    pmix_notification_fn_t function, HostRegDone done);
pmix_status_t host_deregister_handler(size_t reference, HostOpDone done);
pmix_status_t host_notify(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                          const pmix_info_t info[], size_t ninfo, HostOpDone done);

}  // namespace pmixpp::client

#endif
