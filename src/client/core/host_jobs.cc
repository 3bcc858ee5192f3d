// The host's calls that its own host module carries out, as OpenPMIx hands
// them to the upcalls with the server's proc as requester: PMIx_Spawn,
// PMIx_Allocation_request, PMIx_Job_control, PMIx_Log, PMIx_Connect /
// Disconnect, PMIx_Publish / Lookup / Unpublish and PMIx_IOF_push (its
// push_stdin); and its own pulls of its children's output (PMIx_IOF_pull,
// answered by the server's registry).
#include "client/core/host_mode.h"
#include "client/core/iof_handlers.h"
#include "server/engine/self_access.h"

namespace pmixpp::client {

pmix_status_t host_spawn_nb(const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[], size_t napps,
                            HostSpawnDone done)
{
    return server::server_spawn_nb(job_info, ninfo, apps, napps, [done](wire::SpawnReply &reply) {
        done(reply.status, std::make_shared<wire::SpawnReply>(std::move(reply)));
    });
}

pmix_status_t host_allocate_nb(pmix_alloc_directive_t directive, const pmix_info_t info[], size_t ninfo,
                               HostInfoDone done)
{
    return server::server_allocate_nb(directive, info, ninfo, [done](wire::InfoReply &reply) {
        done(reply.status, std::make_shared<wire::InfoReply>(std::move(reply)));
    });
}

pmix_status_t host_job_control_nb(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[],
                                  size_t ndirs, HostOpDone done)
{
    return server::server_job_control_nb(targets, ntargets, directives, ndirs,
                                         [done](wire::StatusReply &reply) { done(reply.status); });
}

pmix_status_t host_log_nb(wire::InfoArray left, const pmix_info_t directives[], size_t ndirs, HostOpDone done)
{
    return server::server_log_nb(std::move(left), directives, ndirs,
                                 [done](wire::StatusReply &reply) { done(reply.status); });
}

pmix_status_t host_connect_nb(bool disconnect, const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, HostOpDone done)
{
    return server::server_connect_nb(disconnect, procs, nprocs, info, ninfo,
                                     [done](wire::StatusReply &reply) { done(reply.status); });
}

pmix_status_t host_publish_nb(const pmix_info_t info[], size_t ninfo, HostOpDone done)
{
    return server::server_publish_nb(info, ninfo, [done](wire::StatusReply &reply) { done(reply.status); });
}

pmix_status_t host_lookup_nb(std::vector<std::string> keys, const pmix_info_t directives[], size_t ndirs,
                             HostLookupDone done)
{
    return server::server_lookup_nb(std::move(keys), directives, ndirs, [done](wire::LookupReply &reply) {
        done(reply.status, std::make_shared<wire::LookupReply>(std::move(reply)));
    });
}

pmix_status_t host_unpublish_nb(std::vector<std::string> keys, const pmix_info_t directives[], size_t ndirs,
                                HostOpDone done)
{
    return server::server_unpublish_nb(std::move(keys), directives, ndirs,
                                       [done](wire::StatusReply &reply) { done(reply.status); });
}

pmix_status_t host_iof_push_nb(const pmix_proc_t targets[], size_t ntargets, const pmix_info_t directives[],
                               size_t ndirs, const pmix_byte_object_t *bo, bool eof, HostOpDone done)
{
    const auto *data = bo != nullptr ? reinterpret_cast<const uint8_t *>(bo->bytes) : nullptr;
    const size_t size = bo != nullptr ? bo->size : 0;
    return server::server_iof_push_nb(targets, ntargets, directives, ndirs, data, size, eof,
                                      [done](wire::StatusReply &reply) { done(reply.status); });
}

pmix_status_t host_iof_pull_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                               uint16_t channels, HostPullDone done)
{
    // The chunks of the host's pulls reach the same handlers a tool's do.
    pmix_status_t rc = server::server_set_iof_sink([](const wire::IofData &chunk) { deliver_iof(chunk); });
    if (rc != PMIX_SUCCESS) return rc;
    return server::server_iof_pull_nb(procs, nprocs, directives, ndirs, channels,
                                      [done](wire::IofPullReply &reply) { done(reply.status, reply.id); });
}

pmix_status_t host_iof_deregister_nb(uint64_t id, const pmix_info_t directives[], size_t ndirs, HostOpDone done)
{
    return server::server_iof_deregister_nb(id, directives, ndirs,
                                            [done](wire::StatusReply &reply) { done(reply.status); });
}

}  // namespace pmixpp::client
