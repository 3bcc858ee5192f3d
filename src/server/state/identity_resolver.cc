#include "server/state/identity_resolver.h"

#include <pthread.h>
#include <signal.h>

#include <system_error>

namespace pmixpp::server {

IdentityResolver::~IdentityResolver()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

bool IdentityResolver::submit(std::function<void()> work)
{
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= kMaxWaiting) return false;
    if (!thread_.joinable()) {
        // Signals stay with the host's threads, as on the progress thread.
        sigset_t all;
        sigset_t previous;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &previous);
        try {
            thread_ = std::thread([this] { run(); });
        } catch (const std::system_error &) {
        }
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        if (!thread_.joinable()) return false;
    }
    queue_.push_back(std::move(work));
    wake_.notify_one();
    return true;
}

void IdentityResolver::run()
{
    pthread_setname_np(pthread_self(), "pmixpp-ident");
    for (;;) {
        std::function<void()> work;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            work = std::move(queue_.front());
            queue_.pop_front();
        }
        work();
    }
}

}  // namespace pmixpp::server
