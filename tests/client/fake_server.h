// A scripted stand-in for a pmixpp server: one listening Unix socket in a
// temp dir (its URI goes into PMIXPP_SERVER_URIS, with PMIX_NAMESPACE and
// PMIX_RANK for the client), a thread that accepts one client and runs a
// script speaking the raw wire protocol with blocking I/O. The script must
// not use Criterion asserts (it runs on another thread): it records what it
// saw, and the test asserts after join().
#ifndef PMIXPP_TESTS_CLIENT_FAKE_SERVER_H
#define PMIXPP_TESTS_CLIENT_FAKE_SERVER_H

#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <pmix_common.h>

#include "common/wire/connection.h"
#include "common/wire/messages.h"

namespace client_test {

inline constexpr const char *kJobNspace = "fake.job";
inline constexpr const char *kServerNspace = "fake.server";
inline constexpr int kIoTimeoutMs = 20000;

class FakeServer {
public:
    using Script = std::function<void(FakeServer &server, int fd)>;

    // Listens and exports the client environment (rank `rank` of kJobNspace).
    explicit FakeServer(pmix_rank_t rank = 0);
    ~FakeServer();

    // Accepts one client on a thread and runs script with its fd.
    void run(Script script);
    // Waits for the script to end.
    void join();

    // ---- for scripts
    bool read_hello(int fd);
    // Welcome with the job data of a 2-proc job of kJobNspace on this host.
    bool send_welcome(int fd, pmix_rank_t rank);
    bool send_refuse(int fd, pmix_status_t status, const char *reason);
    // Next REQUEST frame; false on EOF/error.
    bool read_request(int fd, pmixpp::wire::Frame *frame_p, pmixpp::wire::Command *cmd_p);
    template <typename Reply> bool reply(int fd, uint32_t tag, const Reply &msg)
    {
        return send(fd, pmixpp::wire::FrameKind::reply, tag, msg);
    }
    bool notify(int fd, const pmixpp::wire::Event &event)
    {
        return send(fd, pmixpp::wire::FrameKind::notify, pmixpp::wire::kNoTag, event);
    }

    // What the script saw (guarded by mutex).
    std::mutex mutex;
    pmixpp::wire::Hello hello;
    bool got_hello = false;
    std::vector<pmixpp::wire::Command> commands;
    std::vector<std::string> get_keys;
    std::vector<std::string> committed_keys;

private:
    template <typename Message> bool send(int fd, pmixpp::wire::FrameKind kind, uint32_t tag, const Message &msg)
    {
        pmixpp::wire::Bytes payload;
        if (pmixpp::wire::encode_to_bytes(msg, &payload) != PMIX_SUCCESS) {
            return false;
        }
        return pmixpp::wire::send_frame_blocking(fd, kind, tag, payload, kIoTimeoutMs) == PMIX_SUCCESS;
    }

    std::string dir_;
    std::string path_;
    int listen_fd_ = -1;
    std::thread thread_;
};

// The string value of a pmix_value_t, or "" when it is not one.
std::string string_of(const pmix_value_t *value);

}  // namespace client_test

#endif
