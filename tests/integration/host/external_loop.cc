#include "integration/host/external_loop.h"

#include <event2/event.h>
#include <event2/thread.h>

namespace pmixpp::itest {

bool ExternalLoop::start()
{
    if (base_ != nullptr) return false;
    // The test stops the loop from another thread: the base needs locking.
    if (evthread_use_pthreads() != 0) return false;
    base_ = event_base_new();
    if (base_ == nullptr) return false;
    thread_ = std::thread([base = base_] { event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY); });
    return true;
}

void ExternalLoop::stop()
{
    if (base_ == nullptr) return;
    event_base_loopbreak(base_);
    if (thread_.joinable()) thread_.join();
    event_base_free(base_);
    base_ = nullptr;
}

}  // namespace pmixpp::itest
