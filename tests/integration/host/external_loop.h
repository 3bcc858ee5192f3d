// A host's own libevent loop, as a resource manager that gives the PMIx
// server its event base (PMIX_EVENT_BASE) runs it: one thread looping on the
// base until stopped. Stop it only after PMIx_server_finalize, which needs
// the loop to run its last work.
#ifndef PMIXPP_TESTS_INTEGRATION_EXTERNAL_LOOP_H
#define PMIXPP_TESTS_INTEGRATION_EXTERNAL_LOOP_H

#include <thread>

struct event_base;

namespace pmixpp::itest {

class ExternalLoop {
public:
    ExternalLoop() = default;
    ExternalLoop(const ExternalLoop &) = delete;
    ExternalLoop &operator=(const ExternalLoop &) = delete;
    ~ExternalLoop() { stop(); }

    // A locking-enabled base and the thread that loops on it.
    bool start();
    void stop();
    struct event_base *base() const { return base_; }
    std::thread::id thread_id() const { return thread_.get_id(); }

private:
    struct event_base *base_ = nullptr;
    std::thread thread_;
};

}  // namespace pmixpp::itest

#endif
