// A worker thread for the slow part of learning who connected (ptl/tcp's
// /proc scan, the module's complete_identity), so that the progress thread
// never pays for it: a flood of connections from one user must not stall
// every other job's requests. Started on first use (a server with Unix
// sockets only never starts it), joined when destroyed.
#ifndef PMIXPP_SERVER_STATE_IDENTITY_RESOLVER_H
#define PMIXPP_SERVER_STATE_IDENTITY_RESOLVER_H

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace pmixpp::server {

class IdentityResolver {
public:
    static constexpr std::size_t kMaxWaiting = 1024;

    IdentityResolver() = default;
    ~IdentityResolver();
    IdentityResolver(const IdentityResolver &) = delete;
    IdentityResolver &operator=(const IdentityResolver &) = delete;

    // Runs work on the worker thread, in order. False (work dropped) when
    // kMaxWaiting jobs already wait or the thread cannot start.
    bool submit(std::function<void()> work);

private:
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace pmixpp::server

#endif
