// Shared pieces of the runtime tests: a running engine, socket pairs and an
// endpoint that records what its Connection delivered.
#ifndef PMIXPP_TESTS_RUNTIME_SUPPORT_H
#define PMIXPP_TESTS_RUNTIME_SUPPORT_H

#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <criterion/criterion.h>

#include "common/runtime/latch.h"
#include "common/runtime/progress_engine.h"
#include "common/wire/connection.h"

namespace rt = pmixpp::runtime;
namespace wire = pmixpp::wire;
using namespace std::chrono_literals;

// Guards against a hang turning into a test timeout with no message.
inline constexpr auto kGenerous = 20s;

// Declare it before the Endpoints so that it is released after them.
struct RunningEngine {
    rt::ProgressEngine engine;
    RunningEngine() { cr_assert_eq(engine.acquire(nullptr), PMIX_SUCCESS); }
    ~RunningEngine() { engine.release(); }
};

struct SocketPair {
    int fds[2] = {-1, -1};
    SocketPair() { cr_assert_eq(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0); }
};

struct CloseInfo {
    pmix_status_t status = PMIX_SUCCESS;
    std::string reason;
};

// A Connection plus what it received; waits are bounded by kGenerous.
struct Endpoint {
    std::shared_ptr<wire::Connection> conn;
    std::mutex mutex;
    std::vector<wire::Frame> frames;
    size_t wanted = 0;
    rt::Latch<> got_wanted;
    rt::Latch<CloseInfo> closed;
    int close_calls = 0;

    Endpoint(rt::ProgressEngine &engine, int fd, wire::FrameLimits limits = {}, size_t want = 0) : wanted(want)
    {
        conn = wire::Connection::create(engine, fd, limits);
        conn->set_message_handler([this](const wire::Frame &f) {
            std::lock_guard lock(mutex);
            frames.push_back(f);
            if (frames.size() == wanted) {
                got_wanted.complete(PMIX_SUCCESS);
            }
        });
        conn->set_close_handler([this](pmix_status_t st, const std::string &why) {
            ++close_calls;
            closed.complete(st, CloseInfo{st, why});
        });
    }

    void wait_frames() { cr_assert_eq(got_wanted.wait_for(kGenerous), PMIX_SUCCESS, "frames never arrived"); }

    CloseInfo wait_closed()
    {
        (void)closed.wait_for(kGenerous);
        cr_assert(closed.is_complete(), "connection never closed");
        return closed.payload();
    }

    size_t frame_count()
    {
        std::lock_guard lock(mutex);
        return frames.size();
    }

    // Handlers point at this object: make sure none can run after it is gone.
    ~Endpoint()
    {
        conn->close();
        (void)closed.wait_for(kGenerous);
    }
};

inline std::vector<uint8_t> pattern_bytes(size_t size, unsigned seed)
{
    std::vector<uint8_t> bytes(size);
    for (size_t i = 0; i < size; ++i) {
        bytes[i] = static_cast<uint8_t>((i * 131u + seed) & 0xff);
    }
    return bytes;
}

#endif
