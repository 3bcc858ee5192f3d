// The handshake as a raw client sees it: accepted, refused for each reason,
// and broken peers closed without disturbing the others.
#include "server/server_fixture.h"

#include <criterion/criterion.h>

#include <cstring>
#include <unistd.h>

using namespace server_test;
using namespace pmixpp;

namespace {

void setup()
{
    start_server(make_tmpdir());
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

// The server still serves: a fresh client of rank 1 is welcomed.
void expect_still_serving()
{
    RawClient other;
    cr_expect_eq(other.hello(kJob, 1, nullptr), PMIX_SUCCESS, "the server stopped serving others");
}

}  // namespace

TestSuite(server_handshake, .init = setup, .fini = teardown);

Test(server_handshake, registered_client_is_welcomed_with_its_job_data)
{
    RawClient client;
    wire::Welcome welcome;
    cr_assert_eq(client.hello(kJob, 0, &welcome), PMIX_SUCCESS);
    cr_expect_eq(welcome.status, PMIX_SUCCESS);
    cr_expect_eq(welcome.gds_module, "hash");
    cr_expect_eq(welcome.server_nspace, "srv");
    cr_expect_eq(welcome.server_rank, 7u);
    cr_expect_eq(welcome.peer_nspace, kJob);
    cr_expect_eq(welcome.peer_rank, 0u);
    cr_expect(!welcome.job_data.empty(), "the job data travels with the welcome");
}

Test(server_handshake, unknown_nspace_is_not_found)
{
    RawClient client;
    wire::Refuse refuse;
    cr_expect_eq(client.hello("nosuchjob", 0, nullptr, &refuse), PMIX_ERR_NOT_FOUND);
    cr_expect(refuse.reason.find("nosuchjob") != std::string::npos, "reason: %s", refuse.reason.c_str());
    wire::Frame frame;
    cr_expect_neq(client.receive(&frame), PMIX_SUCCESS, "a refused connection is closed");
    expect_still_serving();
}

Test(server_handshake, unregistered_rank_is_not_found)
{
    RawClient client;
    cr_expect_eq(client.hello(kJob, 5, nullptr), PMIX_ERR_NOT_FOUND);
    expect_still_serving();
}

Test(server_handshake, wrong_uid_is_invalid_cred)
{
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, kJob);
    proc.rank = 0;
    cr_assert_eq(PMIx_server_register_client(&proc, getuid() + 1, getgid(), nullptr, nullptr, nullptr),
                 PMIX_OPERATION_SUCCEEDED);
    RawClient client;
    wire::Refuse refuse;
    cr_expect_eq(client.hello(kJob, 0, nullptr, &refuse), PMIX_ERR_INVALID_CRED);
    cr_expect(refuse.reason.find("uid") != std::string::npos, "reason: %s", refuse.reason.c_str());
    expect_still_serving();
}

Test(server_handshake, a_rank_connects_once)
{
    RawClient first;
    cr_assert_eq(first.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    RawClient spoof;
    cr_expect_eq(spoof.hello(kJob, 0, nullptr), PMIX_ERR_INVALID_CRED);
    first.request(1, wire::CommitRequest{});
    cr_expect_eq(first.reply<wire::StatusReply>().status, PMIX_SUCCESS, "the genuine rank keeps working");
}

Test(server_handshake, unknown_psec_module_is_refused)
{
    RawClient client;
    wire::Hello hello;
    hello.nspace = kJob;
    hello.rank = 0;
    hello.pid = getpid();
    hello.psec_module = "nonesuch";
    hello.gds_modules = {"hash"};
    wire::Bytes bytes;
    cr_assert_eq(wire::encode_to_bytes(hello, &bytes), PMIX_SUCCESS);
    cr_assert_eq(wire::send_frame_blocking(client.fd(), wire::FrameKind::handshake, 0, bytes, kTimeoutMs),
                 PMIX_SUCCESS);
    wire::Frame frame;
    cr_assert_eq(client.receive(&frame), PMIX_SUCCESS);
    wire::Refuse refuse;
    cr_assert_eq(wire::decode_payload(frame.payload, &refuse), PMIX_SUCCESS);
    cr_expect_eq(refuse.status, PMIX_ERR_NOT_SUPPORTED);
}

Test(server_handshake, garbage_closes_only_that_connection)
{
    RawClient garbage;
    const char junk[] = "GET / HTTP/1.0\r\n\r\n and then some more bytes";
    garbage.send_raw(junk, sizeof(junk));
    wire::Frame frame;
    cr_expect_neq(garbage.receive(&frame), PMIX_SUCCESS, "garbage must close the connection");
    expect_still_serving();
}

Test(server_handshake, malformed_hello_payload_is_refused)
{
    RawClient client;
    const uint8_t payload[] = {1, 0, 0xff, 0xff};  // Hello code, then nonsense
    cr_assert_eq(wire::send_frame_blocking(client.fd(), wire::FrameKind::handshake, 0, payload, kTimeoutMs),
                 PMIX_SUCCESS);
    wire::Frame frame;
    cr_assert_eq(client.receive(&frame), PMIX_SUCCESS);
    wire::Refuse refuse;
    cr_assert_eq(wire::decode_payload(frame.payload, &refuse), PMIX_SUCCESS);
    cr_expect_eq(refuse.status, PMIX_ERR_UNPACK_FAILURE);
    expect_still_serving();
}

Test(server_handshake, request_before_hello_closes)
{
    RawClient client;
    client.request(1, wire::CommitRequest{});
    wire::Frame frame;
    cr_expect_neq(client.receive(&frame), PMIX_SUCCESS);
    expect_still_serving();
}

Test(server_handshake, a_pid_the_kernel_contradicts_is_invalid_cred)
{
    RawClient client;
    wire::Hello hello = RawClient::default_hello(kJob, 0);
    hello.pid = getpid() + 1;  // the kernel knows better over usock (SO_PEERCRED)
    wire::Refuse refuse;
    cr_expect_eq(client.hello_with(hello, nullptr, &refuse), PMIX_ERR_INVALID_CRED);
    cr_expect(refuse.reason.find("pid") != std::string::npos, "reason: %s", refuse.reason.c_str());
    RawClient genuine;
    cr_expect_eq(genuine.hello(kJob, 0, nullptr), PMIX_SUCCESS, "the rank stays free for its real process");
}
