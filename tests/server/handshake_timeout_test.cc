// Connections that never complete their Hello are closed after
// PMIX_MCA_ptl_base_handshake_timeout (set to a fraction of a second for
// this binary in CMakeLists.txt), while everyone else is served.
#include "server/server_fixture.h"

#include <criterion/criterion.h>

#include <cstdint>
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

// The server (not our own 10 s receive timeout) ends the connection.
void expect_closed_by_server(RawClient &client)
{
    wire::Frame frame;
    const pmix_status_t rc = client.receive(&frame);
    cr_expect_eq(rc, PMIX_ERR_LOST_CONNECTION, "expected the server to close the silent connection, got %s",
                 PMIx_Error_string(rc));
}

}  // namespace

TestSuite(server_handshake_timeout, .init = setup, .fini = teardown);

Test(server_handshake_timeout, silent_connection_is_closed)
{
    RawClient silent;
    expect_closed_by_server(silent);
}

Test(server_handshake_timeout, half_a_header_then_silence_is_closed)
{
    RawClient stuck;
    const uint8_t partial[] = {0x50, 0x4d, 0x58};
    stuck.send_raw(partial, sizeof(partial));
    expect_closed_by_server(stuck);
}

Test(server_handshake_timeout, others_are_served_while_one_is_silent)
{
    RawClient silent;
    RawClient client;
    cr_assert_eq(client.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    client.request(1, wire::CommitRequest{});
    cr_expect_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
    expect_closed_by_server(silent);
    // A welcomed client is past the handshake: its timer no longer applies.
    client.request(2, wire::CommitRequest{});
    cr_expect_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS, "a connected client was cut off");
}
