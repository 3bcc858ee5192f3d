// pmixrun's upcalls (see host_module.h). One node: a fence gathers only
// this node's contribution, and no other node holds a process's data.
#include "host_module.h"

#include "job_table.h"
#include "name_service.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>

namespace pmixrun {
namespace {

HostEvents *g_events = nullptr;

pmix_status_t on_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char *data, size_t ndata,
                       pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    cbfunc(PMIX_SUCCESS, data, ndata, cbdata, nullptr, nullptr);
    return PMIX_SUCCESS;
}

pmix_status_t on_direct_modex(const pmix_proc_t *, const pmix_info_t[], size_t, pmix_modex_cbfunc_t, void *)
{
    return PMIX_ERR_NOT_FOUND;
}

pmix_status_t on_abort(const pmix_proc_t *proc, void *, int status, const char msg[], pmix_proc_t[], size_t,
                       pmix_op_cbfunc_t, void *)
{
    HostEvent event;
    event.kind = HostEvent::Kind::abort;
    if (proc != nullptr) event.proc = *proc;
    event.status = status;
    event.message = msg != nullptr ? msg : "";
    if (g_events != nullptr) g_events->push(std::move(event));
    // The supervisor ends the job; the caller need not wait for that.
    return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t on_client_finalized(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t, void *)
{
    ns_proc_finalized(proc);
    return PMIX_OPERATION_SUCCEEDED;
}

} // namespace

HostEvents::HostEvents()
{
    if (::pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0) fds_[0] = fds_[1] = -1;
}

HostEvents::~HostEvents()
{
    for (int fd : fds_) {
        if (fd >= 0) ::close(fd);
    }
}

void HostEvents::push(HostEvent event)
{
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(event));
    }
    const char byte = 1;
    (void)!::write(fds_[1], &byte, 1); // a full pipe already wakes the supervisor
}

std::deque<HostEvent> HostEvents::take()
{
    char drain[64];
    while (::read(fds_[0], drain, sizeof drain) > 0) {
    }
    std::lock_guard lock(mutex_);
    std::deque<HostEvent> taken;
    taken.swap(queue_);
    return taken;
}

pmix_server_module_t make_host_module(HostEvents *events)
{
    g_events = events;
    pmix_server_module_t module;
    std::memset(&module, 0, sizeof module);
    module.client_finalized = on_client_finalized;
    module.abort = on_abort;
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    module.publish = ns_publish;
    module.lookup = ns_lookup;
    module.unpublish = ns_unpublish;
    module.query = query_job_table;
    return module;
}

} // namespace pmixrun
