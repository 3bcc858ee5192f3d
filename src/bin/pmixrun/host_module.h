// The host side of pmixrun's PMIx server: the pmix_server_module_t upcalls,
// which run on the library's progress thread, and the queue through which
// they hand what the main thread must do (an abort, a spawn, a session or
// job control, an allocation) to the Runtime.
#ifndef PMIXPP_BIN_PMIXRUN_HOST_MODULE_H
#define PMIXPP_BIN_PMIXRUN_HOST_MODULE_H

#include <pmix_server.h>

#include <deque>
#include <functional>
#include <mutex>

namespace pmixrun {

class Runtime;
using HostTask = std::function<void(Runtime &)>;

// Tasks from the progress thread; wake_fd() becomes readable when one is
// queued (a pipe the supervisor polls).
class HostEvents {
public:
    HostEvents();
    ~HostEvents();
    HostEvents(const HostEvents &) = delete;
    HostEvents &operator=(const HostEvents &) = delete;

    bool ok() const { return fds_[0] >= 0; }
    int wake_fd() const { return fds_[0]; }
    void push(HostTask task);
    // Everything queued so far (and drains the wake-up pipe).
    std::deque<HostTask> take();

private:
    std::mutex mutex_;
    std::deque<HostTask> queue_;
    int fds_[2] = {-1, -1};
};

// The module, with its upcalls bound to `events` (one per process).
pmix_server_module_t make_host_module(HostEvents *events);

// The PMIx_Session_control handler (passed to PMIx_server_init as
// PMIXPP_SERVER_SESSION_CONTROL).
pmix_status_t on_session_control(const pmix_proc_t *requestor, uint32_t session_id, const pmix_info_t directives[],
                                 size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata);

}  // namespace pmixrun

#endif
