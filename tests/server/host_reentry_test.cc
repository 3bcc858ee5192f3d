// The host calling back into the server where the server must not trust
// what it looked up before: from inside an upcall (client_connected that
// deregisters the client), and a finalize that comes before work the server
// already promised the host (a dmodex answer) has run.
#include "server/server_fixture.h"

#include "common/runtime/progress_engine.h"

#include <criterion/criterion.h>

#include <event2/event.h>

#include <cstring>
#include <poll.h>

using namespace server_test;
using namespace pmixpp;

namespace {

pmix_proc_t proc_of(pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, kJob);
    proc.rank = rank;
    return proc;
}

// ---- deregistration inside client_connected2 -------------------------------

pmix_status_t deregister_while_connecting(const pmix_proc_t *proc, void *, pmix_info_t[], size_t, pmix_op_cbfunc_t,
                                          void *)
{
    PMIx_server_deregister_client(proc, nullptr, nullptr);
    return PMIX_SUCCESS;  // "accepted" — but the record is gone now
}

pmix_server_module_t g_deregistering_host{};

void start_with_deregistering_host()
{
    g_deregistering_host.client_connected2 = deregister_while_connecting;
    start_server(make_tmpdir(), &g_deregistering_host);
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

// ---- a host that drives its own event base (PMIX_EVENT_BASE) ---------------

struct event_base *g_base = nullptr;

void start_on_own_base()
{
    g_base = event_base_new();
    cr_assert(g_base != nullptr);
    const std::string tmpdir = make_tmpdir();
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, kHost, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_BASE, g_base, PMIX_POINTER);
    const pmix_status_t rc = PMIx_server_init(nullptr, info, 3);
    for (auto &item : info) PMIX_INFO_DESTRUCT(&item);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIx_server_init: %s", PMIx_Error_string(rc));
    register_job(kJob, 2);  // runs inline: this thread drives the base
}

// Runs the server's base until the client has something to read.
void drive_until_readable(int fd)
{
    for (int turn = 0; turn < kTimeoutMs; ++turn) {
        event_base_loop(g_base, EVLOOP_NONBLOCK);
        pollfd ready{fd, POLLIN, 0};
        if (poll(&ready, 1, 1) > 0) return;
    }
    cr_assert_fail("the server never answered");
}

struct DmodexAnswer {
    int calls = 0;
    pmix_status_t status = PMIX_ERROR;
};

void dmodex_answer(pmix_status_t status, char *, size_t, void *cbdata)
{
    auto *answer = static_cast<DmodexAnswer *>(cbdata);
    answer->calls++;
    answer->status = status;
}

}  // namespace

Test(server_host_reentry, client_deregistered_inside_client_connected_is_refused, .init = start_with_deregistering_host,
     .fini = teardown)
{
    RawClient client;
    wire::Refuse refuse;
    cr_expect_eq(client.hello(kJob, 0, nullptr, &refuse), PMIX_ERR_NOT_FOUND);
    cr_expect(refuse.reason.find("deregistered") != std::string::npos, "reason: %s", refuse.reason.c_str());
}

Test(server_host_reentry, dmodex_answer_owed_at_finalize_is_an_error, .init = start_on_own_base)
{
    RawClient client;
    client.send_hello(RawClient::default_hello(kJob, 0));
    drive_until_readable(client.fd());
    cr_assert_eq(client.receive_hello_answer(nullptr), PMIX_SUCCESS);
    wire::CommitRequest commit;
    commit.remote = one_info("app.key", "value", PMIX_STRING);
    client.request(1, commit);
    drive_until_readable(client.fd());
    cr_assert_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
    // This thread is the progress thread from now on (it ran posted work).
    cr_assert_eq(runtime::ProgressEngine::process().post([] {}), PMIX_SUCCESS);
    event_base_loop(g_base, EVLOOP_NONBLOCK);

    // Committed: the answer is posted, to run the next time the base runs.
    const pmix_proc_t target = proc_of(0);
    DmodexAnswer answer;
    cr_assert_eq(PMIx_server_dmodex_request(&target, dmodex_answer, &answer), PMIX_SUCCESS);
    cr_assert_eq(answer.calls, 0, "the answer came before the request returned");
    // ... but the server finalizes first. The host still hears back, once.
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    event_base_loop(g_base, EVLOOP_NONBLOCK);
    cr_expect_eq(answer.calls, 1, "the host's dmodex callback was never called");
    cr_expect_eq(answer.status, PMIX_ERR_LOST_CONNECTION);
    event_base_free(g_base);
}
