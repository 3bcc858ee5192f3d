// The host side of pmixrun's PMIx server: the pmix_server_module_t upcalls,
// which run on the library's progress thread, and the queue through which
// they hand what the supervisor must act on (an abort) to the main thread.
#ifndef PMIXPP_BIN_PMIXRUN_HOST_MODULE_H
#define PMIXPP_BIN_PMIXRUN_HOST_MODULE_H

#include <pmix_server.h>

#include <deque>
#include <mutex>
#include <string>

namespace pmixrun {

struct HostEvent {
    enum class Kind { abort };
    Kind kind = Kind::abort;
    pmix_proc_t proc{};
    int status = 0;
    std::string message;
};

// Events from the progress thread; wake_fd() becomes readable when one is
// queued (a pipe the supervisor polls).
class HostEvents {
public:
    HostEvents();
    ~HostEvents();
    HostEvents(const HostEvents &) = delete;
    HostEvents &operator=(const HostEvents &) = delete;

    bool ok() const { return fds_[0] >= 0; }
    int wake_fd() const { return fds_[0]; }
    void push(HostEvent event);
    // Everything queued so far (and drains the wake-up pipe).
    std::deque<HostEvent> take();

private:
    std::mutex mutex_;
    std::deque<HostEvent> queue_;
    int fds_[2] = {-1, -1};
};

// The module, with its upcalls bound to `events` (one per process).
pmix_server_module_t make_host_module(HostEvents *events);

} // namespace pmixrun

#endif
