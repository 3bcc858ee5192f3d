// Golden bytes from the real thing: golden_client.c, built against Debian's
// OpenPMIx 4.2.2 and against ours, makes one fixed sequence of calls under
// the scripted OpenPMIx server of tests/client. The server records each
// message, and our client's must be the real one's, byte for byte: the
// connect request, then every command (init's REQ, commit, fence, get,
// publish, lookup, unpublish, query, job control, monitor, allocation,
// credentials, connect, disconnect, group construct, spawn, event
// registration and notification, finalize). Both must also print the same
// status for each call. The two differences we chose are named below
// (with_our_credential, is_commit). The OpenPMIx server's answers are
// tested the other way round, by the real clients of compat_interop.
#include <criterion/criterion.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../../client/openpmix_fake_server.h"
#include "../../support/child_process.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/frame.h"

namespace {

using namespace pmixpp;
using namespace pmixpp::testing;
using openpmix::Command;
using openpmix::Writer;

struct Recording {
    std::vector<uint8_t> connect;
    std::vector<Message> messages;
    test_support::Result run;
};

std::vector<uint8_t> answer_to(Command command)
{
    switch (command) {
    case Command::req: return job_data();
    case Command::get: return peer_key_answer();
    case Command::fence:
    case Command::register_events:
    case Command::finalize: return FakeOpenPmixServer::status(PMIX_SUCCESS);
    default: return FakeOpenPmixServer::status(PMIX_ERR_NOT_SUPPORTED);
    }
}

// Messages on OpenPMIx's reserved tags (below 100) are one-way: recorded,
// not answered.
void record(FakeOpenPmixServer &server, int fd, Recording *recording_p)
{
    if (!server.take_connect_request(fd)) return;
    recording_p->connect = server.connect_body;
    Message message;
    while (server.next(fd, &message)) {
        recording_p->messages.push_back(message);
        if (message.tag < openpmix::kFirstRequestTag) continue;
        if (!server.answer(fd, message.tag, answer_to(message.as_command()))) return;
        if (message.as_command() == Command::finalize) return;
    }
}

// OpenPMIx's client would scan our component folder and warn of each file.
Recording run_under_the_recorder(const std::string &program, bool openpmix)
{
    FakeOpenPmixServer server;  // names itself in PMIX_SERVER_URI41 of our environment
    Recording recording;
    server.run([&recording](FakeOpenPmixServer &s, int fd) { record(s, fd, &recording); });
    std::vector<std::string> argv = {"PMIX_GDS_MODULE=hash", "PMIX_BFROP_BUFFER_TYPE=PMIX_BFROP_BUFFER_NON_DESC",
                                     "PMIX_MCA_gds=hash", "PMIX_MCA_psec=native", program};
    if (openpmix) argv.insert(argv.begin(), {"-u", "PMIX_MCA_mca_base_component_path"});
    recording.run = test_support::run("/usr/bin/env", argv, "", 60);
    server.join();
    return recording;
}

std::string hex(const std::vector<uint8_t> &bytes)
{
    std::string text;
    char two[4];
    for (uint8_t byte : bytes) {
        std::snprintf(two, sizeof(two), "%02x", byte);
        text += two;
    }
    return text;
}

std::string program(const char *name)
{
    return std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/tests/compat/interop/" + name;
}

// Where we differ on purpose. OpenPMIx's server answers a credential
// request NOT_SUPPORTED when its host has no credential upcall; our
// client's own psec then makes one (docs/compat.md), the real one fails.
std::string with_our_credential(std::string statuses)
{
    const std::string theirs = "get_credential -1\n";
    const std::size_t at = statuses.find(theirs);
    if (at != std::string::npos) statuses.replace(at, theirs.size(), "get_credential 0\n");
    return statuses;
}

bool one_way(const Message &m)
{
    return m.tag < openpmix::kFirstRequestTag;
}

// And our commit does not wait for the server's answer, as with our own
// server: the next request follows it on the same socket.
bool is_commit(const Message &m)
{
    return m.as_command() == Command::commit;
}

}  // namespace

Test(interop_golden, our_client_sends_the_real_clients_bytes, .timeout = 180)
{
    const Recording real = run_under_the_recorder(program("golden_client_openpmix"), true);
    const Recording ours = run_under_the_recorder(program("golden_client_ours"), false);
    cr_assert_eq(real.run.code, 0, "the real client exited %d:\n%s%s", real.run.code, real.run.out.c_str(),
                 real.run.err.c_str());
    cr_assert_eq(ours.run.code, 0, "ours exited %d:\n%s%s", ours.run.code, ours.run.out.c_str(), ours.run.err.c_str());
    const std::string expected = with_our_credential(real.run.out);
    cr_expect_str_eq(ours.run.out.c_str(), expected.c_str(), "the calls' statuses differ:\n%s\nagainst the real:\n%s",
                     ours.run.out.c_str(), expected.c_str());
    cr_expect_str_eq(hex(ours.connect).c_str(), hex(real.connect).c_str(), "the connect requests differ");
    const std::size_t n = std::min(real.messages.size(), ours.messages.size());
    for (std::size_t i = 0; i < n; ++i) {
        const char *name = openpmix::command_name(real.messages[i].as_command());
        cr_expect_eq(ours.messages[i].command, real.messages[i].command, "message %zu: ours is %s, the real one %s", i,
                     openpmix::command_name(ours.messages[i].as_command()), name);
        cr_expect_eq(one_way(ours.messages[i]), one_way(real.messages[i]) || is_commit(real.messages[i]),
                     "message %zu (%s): one-way in one only", i, name);
        const std::string ours_hex = hex(ours.messages[i].body);
        const std::string real_hex = hex(real.messages[i].body);
        cr_expect_str_eq(ours_hex.c_str(), real_hex.c_str(), "message %zu (%s) differs:\nours %s\nreal %s", i, name,
                         ours_hex.c_str(), real_hex.c_str());
    }
    cr_expect_eq(ours.messages.size(), real.messages.size(), "%zu messages from ours, %zu from the real client",
                 ours.messages.size(), real.messages.size());
}
