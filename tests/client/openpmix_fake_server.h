// A scripted stand-in for an OpenPMIx server, for the tests of our client
// on a link to one (src/client/openpmix/): a tcp listener on loopback named
// in PMIX_SERVER_URI41 alone, and a thread that speaks OpenPMIx's protocol
// with blocking I/O, one client and one script at a time.
#ifndef PMIXPP_TESTS_CLIENT_OPENPMIX_FAKE_SERVER_H
#define PMIXPP_TESTS_CLIENT_OPENPMIX_FAKE_SERVER_H

#include <pmix.h>

#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"

namespace pmixpp::testing {

inline constexpr const char *kJob = "opx.job";
inline constexpr int kIoMs = 20000;
inline const openpmix::Encoding kV41{openpmix::Bfrops::v41, openpmix::BufferType::non_desc};

struct Message {
    uint32_t tag = 0;
    std::vector<uint8_t> body;
    uint8_t command = 0xff;

    openpmix::Command as_command() const { return static_cast<openpmix::Command>(command); }
};

// What it saw is read after join(). Scripts run off the test's thread:
// no Criterion asserts in them.
class FakeOpenPmixServer {
public:
    using Script = std::function<void(FakeOpenPmixServer &, int fd)>;

    FakeOpenPmixServer();
    ~FakeOpenPmixServer();

    void run(Script script);
    void join();

    // The connect request, answered with success and a server index.
    bool take_connect_request(int fd);
    // Raw big-endian words, as OpenPMIx's handshake answers.
    bool send_words(int fd, std::vector<int32_t> words);
    bool next(int fd, Message *message_p);
    bool answer(int fd, uint32_t tag, const std::vector<uint8_t> &body);
    // Answers requests with `answer_of` until the client's finalize (answered
    // with a status) or the end of the connection.
    void serve(int fd, const std::function<std::vector<uint8_t>(const Message &)> &answer_of);

    static std::vector<uint8_t> status(pmix_status_t st);

    std::vector<uint8_t> connect_body;
    std::vector<uint8_t> seen;
    std::vector<std::vector<uint8_t>> commits;

private:
    int listen_fd_ = -1;
    std::thread thread_;
};

pmix_value_t u32_value(uint32_t v);
// A 2-rank job as an OpenPMIx server lays it out: job keys, then one
// pmix.pblob per rank.
std::vector<uint8_t> job_data();
// The answer to a get of rank 1's "peer.key" (= 42): [status][BYTE_OBJECT
// of [proc][KVAL]].
std::vector<uint8_t> peer_key_answer();
// Connect, then job data: what every script but the broken ones starts with.
bool greet(FakeOpenPmixServer &server, int fd);

}  // namespace pmixpp::testing

#endif
