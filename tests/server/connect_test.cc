// PMIx_Connect / PMIx_Disconnect at the server, from raw wire clients: the
// local collective over two namespaces, the host's connect / disconnect
// upcall once with every proc, its status to every participant, and the
// refusals (no upcall, caller not in the set, timeout, a participant gone).
#include "server/server_fixture.h"

#include <criterion/criterion.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

using namespace server_test;
using namespace pmixpp;

namespace {

constexpr const char *kOtherJob = "job2";

// What the host's upcalls saw, and how they answer. The upcalls run on the
// server's progress thread; the test reads after the replies arrived.
struct HostRecord {
    std::atomic<int> connects{0};
    std::atomic<int> disconnects{0};
    std::mutex lock;
    std::condition_variable changed;
    std::vector<pmix_proc_t> procs;  // of the last upcall
    size_t ninfo = 0;
    pmix_status_t answer = PMIX_OPERATION_SUCCEEDED;  // returned by the upcall
    bool answer_through_callback = false;             // else returned directly
    bool hold = false;                                // keep the callback until release()
    pmix_op_cbfunc_t held_cbfunc = nullptr;
    void *held_cbdata = nullptr;
};
HostRecord g_host;

pmix_status_t record(std::atomic<int> &counter, const pmix_proc_t procs[], size_t nprocs, size_t ninfo,
                     pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    std::unique_lock<std::mutex> guard(g_host.lock);
    g_host.procs.assign(procs, procs + nprocs);
    g_host.ninfo = ninfo;
    ++counter;
    g_host.changed.notify_all();
    if (g_host.hold) {
        g_host.held_cbfunc = cbfunc;
        g_host.held_cbdata = cbdata;
        return PMIX_SUCCESS;
    }
    if (!g_host.answer_through_callback) return g_host.answer;
    guard.unlock();
    cbfunc(g_host.answer, cbdata);  // from inside the upcall, as a one-node host may
    return PMIX_SUCCESS;
}

pmix_status_t host_connect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t ninfo,
                           pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return record(g_host.connects, procs, nprocs, ninfo, cbfunc, cbdata);
}

pmix_status_t host_disconnect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t ninfo,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return record(g_host.disconnects, procs, nprocs, ninfo, cbfunc, cbdata);
}

// Waits (bounded) until the connect upcall ran `count` times.
bool wait_for_connects(int count)
{
    std::unique_lock<std::mutex> guard(g_host.lock);
    return g_host.changed.wait_for(guard, std::chrono::milliseconds(kTimeoutMs),
                                   [count] { return g_host.connects.load() >= count; });
}

void release(pmix_status_t status)
{
    pmix_op_cbfunc_t cbfunc = nullptr;
    void *cbdata = nullptr;
    {
        std::lock_guard<std::mutex> guard(g_host.lock);
        cbfunc = g_host.held_cbfunc;
        cbdata = g_host.held_cbdata;
        g_host.held_cbfunc = nullptr;
    }
    cr_assert(cbfunc != nullptr, "no held connect upcall to release");
    cbfunc(status, cbdata);
}

pmix_server_module_t g_module{};

void start_with(bool upcalls)
{
    if (upcalls) {
        g_module.connect = host_connect;
        g_module.disconnect = host_disconnect;
    }
    start_server(make_tmpdir(), &g_module);
    register_job(kJob, 2);
    register_job_with_a_remote_rank(kOtherJob, 1);
}

void two_jobs_with_host()
{
    start_with(true);
}
void two_jobs_without_host()
{
    start_with(false);
}
void teardown()
{
    PMIx_server_finalize();
}

std::unique_ptr<RawClient> connect_as(const char *nspace, pmix_rank_t rank)
{
    auto client = std::make_unique<RawClient>();
    cr_assert_eq(client->hello(nspace, rank, nullptr), PMIX_SUCCESS);
    return client;
}

pmix_proc_t proc_of(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
    proc.rank = rank;
    return proc;
}

// Both jobs whole: job1 ranks 0 and 1, job2 rank 0 are the participants.
template <typename Request> Request both_jobs()
{
    Request request;
    request.procs = {proc_of(kJob, PMIX_RANK_WILDCARD), proc_of(kOtherJob, PMIX_RANK_WILDCARD)};
    return request;
}

// A request of this client's own that the server answers at once: once its
// reply is here, every frame the client sent before was handled.
void sync_with_server(RawClient &client, uint32_t tag)
{
    wire::GetRequest get;
    get.proc = proc_of(kJob, PMIX_RANK_WILDCARD);
    get.key = PMIX_JOB_SIZE;
    client.request(tag, get);
    wire::Frame frame;
    cr_assert_eq(client.receive(&frame), PMIX_SUCCESS);
    cr_assert_eq(frame.header.tag, tag, "a reply came before the collective was complete");
}

pmix_status_t status_of(RawClient &client, uint32_t expected_tag)
{
    wire::Frame frame;
    cr_assert_eq(client.receive(&frame), PMIX_SUCCESS);
    cr_assert_eq(frame.header.tag, expected_tag);
    wire::StatusReply reply;
    cr_assert_eq(wire::decode_payload(frame.payload, &reply), PMIX_SUCCESS);
    return reply.status;
}

struct Three {
    std::unique_ptr<RawClient> a = connect_as(kJob, 0);
    std::unique_ptr<RawClient> b = connect_as(kJob, 1);
    std::unique_ptr<RawClient> c = connect_as(kOtherJob, 0);
};

// All three join `request`; the first two are known to be waiting before the
// last one arrives. Returns each one's status, in a, b, c order.
template <typename Request> std::vector<pmix_status_t> run_collective(Three &clients, const Request &request)
{
    clients.a->request(11, request);
    clients.b->request(12, request);
    sync_with_server(*clients.a, 21);
    sync_with_server(*clients.b, 22);
    cr_expect_eq(g_host.connects.load() + g_host.disconnects.load(), 0, "the host was called before all arrived");
    clients.c->request(13, request);
    return {status_of(*clients.a, 11), status_of(*clients.b, 12), status_of(*clients.c, 13)};
}

void expect_all(const std::vector<pmix_status_t> &statuses, pmix_status_t expected)
{
    for (size_t i = 0; i < statuses.size(); ++i) {
        cr_expect_eq(statuses[i], expected, "participant %zu: %s, expected %s", i, PMIx_Error_string(statuses[i]),
                     PMIx_Error_string(expected));
    }
}

}  // namespace

TestSuite(server_connect, .fini = teardown, .timeout = 60);

Test(server_connect, host_connect_is_called_once_after_every_local_participant, .init = two_jobs_with_host)
{
    Three clients;
    auto request = both_jobs<wire::ConnectRequest>();
    request.info = one_info(PMIX_TIMEOUT, &kTimeoutMs, PMIX_INT);
    expect_all(run_collective(clients, request), PMIX_SUCCESS);
    cr_expect_eq(g_host.connects.load(), 1);
    cr_expect_eq(g_host.disconnects.load(), 0);
    std::lock_guard<std::mutex> guard(g_host.lock);
    cr_assert_eq(g_host.procs.size(), 2u, "the host gets the proc set as named");
    cr_expect_str_eq(g_host.procs[0].nspace, kJob);
    cr_expect_eq(g_host.procs[0].rank, PMIX_RANK_WILDCARD);
    cr_expect_str_eq(g_host.procs[1].nspace, kOtherJob);
    cr_expect_eq(g_host.ninfo, 1u, "the host gets the info");
}

Test(server_connect, host_disconnect_is_called_once_likewise, .init = two_jobs_with_host)
{
    Three clients;
    expect_all(run_collective(clients, both_jobs<wire::DisconnectRequest>()), PMIX_SUCCESS);
    cr_expect_eq(g_host.disconnects.load(), 1);
    cr_expect_eq(g_host.connects.load(), 0);
}

Test(server_connect, the_host_error_reaches_every_participant, .init = two_jobs_with_host)
{
    g_host.answer = PMIX_ERR_NOT_AVAILABLE;
    Three clients;
    expect_all(run_collective(clients, both_jobs<wire::ConnectRequest>()), PMIX_ERR_NOT_AVAILABLE);
    cr_expect_eq(g_host.connects.load(), 1);
}

Test(server_connect, the_host_callback_status_reaches_every_participant, .init = two_jobs_with_host)
{
    g_host.answer = PMIX_ERR_UNREACH;
    g_host.answer_through_callback = true;
    Three clients;
    expect_all(run_collective(clients, both_jobs<wire::DisconnectRequest>()), PMIX_ERR_UNREACH);
}

Test(server_connect, without_the_upcall_every_caller_hears_not_supported, .init = two_jobs_without_host)
{
    Three clients;
    clients.a->request(1, both_jobs<wire::ConnectRequest>());
    cr_expect_eq(status_of(*clients.a, 1), PMIX_ERR_NOT_SUPPORTED, "answered at once, alone");
    clients.c->request(2, both_jobs<wire::DisconnectRequest>());
    cr_expect_eq(status_of(*clients.c, 2), PMIX_ERR_NOT_SUPPORTED);
}

// As OpenPMIx 4.2: a connect among procs that all live here completes in the
// server; the host is not asked, and need not have the upcall.
template <typename Request> Request first_job_only()
{
    Request request;
    request.procs = {proc_of(kJob, PMIX_RANK_WILDCARD)};
    return request;
}

void expect_local_pair_completes(pmix_status_t expected)
{
    auto a = connect_as(kJob, 0);
    auto b = connect_as(kJob, 1);
    a->request(31, first_job_only<wire::ConnectRequest>());
    sync_with_server(*a, 32);
    b->request(33, first_job_only<wire::ConnectRequest>());
    cr_expect_eq(status_of(*a, 31), expected);
    cr_expect_eq(status_of(*b, 33), expected);
    a->request(34, first_job_only<wire::DisconnectRequest>());
    b->request(35, first_job_only<wire::DisconnectRequest>());
    cr_expect_eq(status_of(*a, 34), expected);
    cr_expect_eq(status_of(*b, 35), expected);
}

Test(server_connect, an_all_local_connect_completes_without_the_host, .init = two_jobs_with_host)
{
    expect_local_pair_completes(PMIX_SUCCESS);
    cr_expect_eq(g_host.connects.load(), 0);
    cr_expect_eq(g_host.disconnects.load(), 0);
}

Test(server_connect, an_all_local_connect_needs_no_upcall, .init = two_jobs_without_host)
{
    expect_local_pair_completes(PMIX_SUCCESS);
}

Test(server_connect, a_caller_outside_the_proc_set_is_refused, .init = two_jobs_with_host)
{
    auto a = connect_as(kJob, 0);
    wire::ConnectRequest request;
    request.procs = {proc_of(kOtherJob, PMIX_RANK_WILDCARD)};
    a->request(1, request);
    cr_expect_eq(status_of(*a, 1), PMIX_ERR_BAD_PARAM);
    a->request(2, wire::ConnectRequest{});  // no procs at all
    cr_expect_eq(status_of(*a, 2), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(g_host.connects.load(), 0);
}

Test(server_connect, a_missing_participant_times_out, .init = two_jobs_with_host)
{
    auto a = connect_as(kJob, 0);
    auto c = connect_as(kOtherJob, 0);  // connected, never joins
    auto request = both_jobs<wire::ConnectRequest>();
    const int seconds = 1;
    request.info = one_info(PMIX_TIMEOUT, &seconds, PMIX_INT);
    a->request(1, request);
    cr_expect_eq(status_of(*a, 1), PMIX_ERR_TIMEOUT);
    cr_expect_eq(g_host.connects.load(), 0);
}

Test(server_connect, a_participant_that_dies_fails_it_and_the_server_goes_on, .init = two_jobs_with_host)
{
    auto a = connect_as(kJob, 0);
    auto b = connect_as(kJob, 1);
    auto c = connect_as(kOtherJob, 0);
    a->request(1, both_jobs<wire::ConnectRequest>());
    c->request(2, both_jobs<wire::ConnectRequest>());
    b.reset();  // dies without joining
    cr_expect_eq(status_of(*a, 1), PMIX_ERR_LOST_CONNECTION);
    cr_expect_eq(status_of(*c, 2), PMIX_ERR_LOST_CONNECTION);
    // A set that still names the dead proc fails at once; one without it works.
    a->request(3, both_jobs<wire::ConnectRequest>());
    cr_expect_eq(status_of(*a, 3), PMIX_ERR_LOST_CONNECTION);
    wire::ConnectRequest survivors;
    survivors.procs = {proc_of(kJob, 0), proc_of(kOtherJob, PMIX_RANK_WILDCARD)};
    a->request(4, survivors);
    c->request(5, survivors);
    cr_expect_eq(status_of(*a, 4), PMIX_SUCCESS);
    cr_expect_eq(status_of(*c, 5), PMIX_SUCCESS);
    cr_expect_eq(g_host.connects.load(), 1);
}

// Once the host has the collective, a participant that leaves changes
// nothing for the others: they get the host's answer.
Test(server_connect, a_participant_that_dies_after_the_host_call_is_left_out, .init = two_jobs_with_host)
{
    g_host.hold = true;
    auto a = connect_as(kJob, 0);
    auto b = connect_as(kJob, 1);
    auto c = connect_as(kOtherJob, 0);
    wire::RegisterEventsRequest termination;
    termination.codes = {PMIX_ERR_PROC_TERM_WO_SYNC};
    a->request(4, termination);
    cr_assert_eq(a->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    for (RawClient *client : {a.get(), b.get(), c.get()}) client->request(1, both_jobs<wire::ConnectRequest>());
    cr_assert(wait_for_connects(1), "the host's connect upcall never ran");
    b.reset();
    wire::Frame frame;
    cr_assert_eq(a->receive(&frame), PMIX_SUCCESS);
    cr_assert_eq(frame.header.kind, wire::FrameKind::notify, "b's end is announced before any reply");
    release(PMIX_SUCCESS);
    cr_expect_eq(status_of(*a, 1), PMIX_SUCCESS);
    cr_expect_eq(status_of(*c, 1), PMIX_SUCCESS);
}

Test(server_connect, two_proc_sets_are_two_collectives, .init = two_jobs_with_host)
{
    Three clients;
    wire::ConnectRequest job1_only;
    job1_only.procs = {proc_of(kJob, PMIX_RANK_WILDCARD)};
    wire::ConnectRequest pair;  // job2 has a rank elsewhere: the host's part
    pair.procs = {proc_of(kOtherJob, PMIX_RANK_WILDCARD), proc_of(kJob, 0)};
    clients.a->request(1, job1_only);
    clients.a->request(2, pair);
    clients.c->request(3, pair);
    cr_expect_eq(status_of(*clients.a, 2), PMIX_SUCCESS, "the pair completes while job1 waits for rank 1");
    cr_expect_eq(status_of(*clients.c, 3), PMIX_SUCCESS);
    clients.b->request(4, job1_only);
    cr_expect_eq(status_of(*clients.a, 1), PMIX_SUCCESS);
    cr_expect_eq(status_of(*clients.b, 4), PMIX_SUCCESS);
    cr_expect_eq(g_host.connects.load(), 1, "the pair went to the host, job1 alone did not");
}
