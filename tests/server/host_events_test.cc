// Events and the host: the host's own handlers (self-access sink) hear of a
// client's abnormal exit, the host's notifications reach clients, and
// clients' registrations for system events are passed up to the host's
// register_events / deregister_events.
#include "server/server_fixture.h"

#include "common/runtime/latch.h"
#include "server/engine/self_access.h"

#include <criterion/criterion.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include <unistd.h>

using namespace server_test;
using namespace pmixpp;

namespace {

constexpr std::chrono::milliseconds kWait{10000};
constexpr pmix_status_t kCustomEvent = PMIX_EXTERNAL_ERR_BASE - 77;

std::atomic<int> g_registered{0};
std::atomic<int> g_deregistered{0};
std::atomic<pmix_status_t> g_last_code{PMIX_SUCCESS};

pmix_status_t host_register(pmix_status_t *codes, size_t ncodes, const pmix_info_t[], size_t, pmix_op_cbfunc_t, void *)
{
    ++g_registered;
    if (ncodes > 0) g_last_code = codes[0];
    return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t host_deregister(pmix_status_t *codes, size_t ncodes, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ++g_deregistered;
    if (ncodes > 0) g_last_code = codes[0];
    cbfunc(PMIX_SUCCESS, cbdata);  // from inside the upcall, as some hosts do
    return PMIX_SUCCESS;
}

pmix_server_module_t g_host{};

void setup()
{
    g_host.register_events = host_register;
    g_host.deregister_events = host_deregister;
    start_server(make_tmpdir(), &g_host);
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

// Collects the codes the host's sink receives.
struct Heard {
    std::mutex mutex;
    std::set<pmix_status_t> codes;
    runtime::Latch<> both;
    pmix_proc_t affected{};
};

uint64_t register_codes(std::initializer_list<pmix_status_t> codes)
{
    uint64_t reference = 0;
    const std::vector<pmix_status_t> list(codes);
    cr_assert_eq(server::server_register_events(list.data(), list.size(), &reference), PMIX_SUCCESS);
    return reference;
}

}  // namespace

TestSuite(server_host_events, .init = setup, .fini = teardown);

Test(server_host_events, abnormal_exit_reaches_the_hosts_handlers)
{
    auto heard = std::make_shared<Heard>();
    cr_assert_eq(server::server_set_event_sink([heard](const wire::Event &event) {
                     std::lock_guard lock(heard->mutex);
                     heard->codes.insert(event.status);
                     if (event.status == PMIX_ERR_PROC_TERM_WO_SYNC) heard->affected = event.source;
                     if (heard->codes.size() == 2) heard->both.complete(PMIX_SUCCESS);
                 }),
                 PMIX_SUCCESS);
    register_codes({PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_ERR_LOST_CONNECTION});
    {
        RawClient doomed;
        cr_assert_eq(doomed.hello(kJob, 1, nullptr), PMIX_SUCCESS);
    }  // closed without PMIx_Finalize
    cr_assert_eq(heard->both.wait_for(kWait), PMIX_SUCCESS, "the host heard %zu of 2 events", heard->codes.size());
    std::lock_guard lock(heard->mutex);
    cr_expect_str_eq(heard->affected.nspace, kJob);
    cr_expect_eq(heard->affected.rank, 1u);
}

Test(server_host_events, deregistered_handlers_hear_nothing)
{
    auto calls = std::make_shared<std::atomic<int>>(0);
    server::server_set_event_sink([calls](const wire::Event &) { ++*calls; });
    const uint64_t reference = register_codes({PMIX_ERR_PROC_TERM_WO_SYNC});
    cr_assert_eq(server::server_deregister_events(reference), PMIX_SUCCESS);
    cr_expect_eq(server::server_deregister_events(reference), PMIX_ERR_NOT_FOUND);
    {
        RawClient doomed;
        cr_assert_eq(doomed.hello(kJob, 1, nullptr), PMIX_SUCCESS);
    }
    // A later round trip orders us after the server noticed the exit.
    RawClient witness;
    cr_assert_eq(witness.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    witness.request(1, wire::CommitRequest{});
    cr_assert_eq(witness.reply<wire::StatusReply>().status, PMIX_SUCCESS);
    cr_expect_eq(calls->load(), 0);
}

Test(server_host_events, host_notification_reaches_a_registered_client)
{
    RawClient client;
    cr_assert_eq(client.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    wire::RegisterEventsRequest registration;
    registration.codes = {kCustomEvent};
    client.request(1, registration);
    cr_assert_eq(client.reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    cr_assert_eq(server::server_notify_event(kCustomEvent, nullptr, PMIX_RANGE_SESSION, nullptr, 0), PMIX_SUCCESS);
    wire::Frame frame;
    cr_assert_eq(client.receive(&frame), PMIX_SUCCESS);
    cr_assert_eq(frame.header.kind, wire::FrameKind::notify);
    wire::Event event;
    cr_assert_eq(wire::decode_payload(frame.payload, &event), PMIX_SUCCESS);
    cr_expect_eq(event.status, kCustomEvent);
    cr_expect_str_eq(event.source.nspace, "srv", "the host is the source");
}

Test(server_host_events, system_event_registrations_go_up_to_the_host)
{
    RawClient client;
    cr_assert_eq(client.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    wire::RegisterEventsRequest registration;
    registration.codes = {PMIX_EVENT_NODE_DOWN, kCustomEvent};
    client.request(1, registration);
    const auto reply = client.reply<wire::RegisterEventsReply>();
    cr_assert_eq(reply.status, PMIX_SUCCESS);
    cr_expect_eq(g_registered.load(), 1);
    cr_expect_eq(g_last_code.load(), PMIX_EVENT_NODE_DOWN, "only the system event goes up");

    RawClient other;
    cr_assert_eq(other.hello(kJob, 1, nullptr), PMIX_SUCCESS);
    wire::RegisterEventsRequest same;
    same.codes = {PMIX_EVENT_NODE_DOWN};
    other.request(1, same);
    const auto other_reply = other.reply<wire::RegisterEventsReply>();
    cr_assert_eq(other_reply.status, PMIX_SUCCESS);
    cr_expect_eq(g_registered.load(), 1, "a code goes up once");

    wire::DeregisterEventsRequest gone;
    gone.reference = reply.reference;
    client.request(2, gone);
    cr_assert_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
    cr_expect_eq(g_deregistered.load(), 0, "rank 1 still wants it");
    gone.reference = other_reply.reference;
    other.request(2, gone);
    cr_assert_eq(other.reply<wire::StatusReply>().status, PMIX_SUCCESS);
    cr_expect_eq(g_deregistered.load(), 1, "the last registration for the code went");
    cr_expect_eq(g_last_code.load(), PMIX_EVENT_NODE_DOWN);
}

namespace {

// Slurm 22.05's errhandler: counts, and never calls the completion back
// (the test does, at its end, so that nothing is left to LeakSanitizer).
struct SlurmLikeHandler {
    std::mutex mutex;
    std::vector<pmix_status_t> codes;
    std::vector<std::pair<pmix_event_notification_cbfunc_fn_t, void *>> completions;
    std::vector<pmix_proc_t> affected;  // PMIX_EVENT_AFFECTED_PROCS of the first event
    runtime::Latch<> first;
};
SlurmLikeHandler *g_slurm_like = nullptr;

void slurm_like_errhandler(size_t, pmix_status_t status, const pmix_proc_t *, pmix_info_t info[], size_t ninfo,
                           pmix_info_t *, size_t, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    std::lock_guard lock(g_slurm_like->mutex);
    g_slurm_like->codes.push_back(status);
    g_slurm_like->completions.emplace_back(cbfunc, cbdata);
    if (g_slurm_like->codes.size() != 1) return;
    for (size_t i = 0; i < ninfo; ++i) {
        if (std::strncmp(info[i].key, PMIX_EVENT_AFFECTED_PROCS, PMIX_MAX_KEYLEN) != 0) continue;
        if (info[i].value.type != PMIX_DATA_ARRAY || info[i].value.data.darray->type != PMIX_PROC) continue;
        const auto *procs = static_cast<const pmix_proc_t *>(info[i].value.data.darray->array);
        g_slurm_like->affected.assign(procs, procs + info[i].value.data.darray->size);
    }
    g_slurm_like->first.complete(PMIX_SUCCESS);
}

}  // namespace

// What srun once showed on pmixpp: each rank that ended without finalize was
// told to Slurm's catch-all handler twice (-200 and -61), and the handler
// prints an error line and cancels the step for each. Now as OpenPMIx does:
// the ranks lost within the caching window in one PMIX_ERR_LOST_CONNECTION
// event that names them all; and Slurm's PMIx_Deregister_event_handler(0)
// finds its handler.
Test(server_host_events, a_catch_all_handler_hears_the_lost_ranks_in_one_event)
{
    SlurmLikeHandler heard;
    g_slurm_like = &heard;
    const pmix_status_t reference =
        PMIx_Register_event_handler(nullptr, 0, nullptr, 0, slurm_like_errhandler, nullptr, nullptr);
    cr_assert_eq(reference, 0, "the first handler of a process is 0, as in OpenPMIx (Slurm deregisters 0)");
    for (pmix_rank_t rank : {0u, 1u}) {
        RawClient doomed;
        cr_assert_eq(doomed.hello(kJob, rank, nullptr), PMIX_SUCCESS);
    }  // both closed without PMIx_Finalize, well within the 1 s window
    cr_assert_eq(heard.first.wait_for(kWait), PMIX_SUCCESS, "the host heard nothing of 2 lost ranks");
    usleep(1500 * 1000);  // a second window: nothing more may come
    cr_assert_eq(PMIx_server_register_nspace("fence-post", 0, nullptr, 0, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    std::lock_guard lock(heard.mutex);
    cr_expect_eq(heard.codes.size(), 1u, "one event for the ranks lost together, got %zu", heard.codes.size());
    cr_expect_eq(heard.codes.front(), PMIX_ERR_LOST_CONNECTION, "got %d", heard.codes.front());
    cr_assert_eq(heard.affected.size(), 2u, "PMIX_EVENT_AFFECTED_PROCS names both ranks");
    cr_expect_eq(heard.affected[0].rank, 0u);
    cr_expect_eq(heard.affected[1].rank, 1u);
    cr_expect_eq(PMIx_Deregister_event_handler(0, nullptr, nullptr), PMIX_SUCCESS);
    for (const auto &[cbfunc, cbdata] : heard.completions)
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, nullptr, 0, nullptr, nullptr, cbdata);
}
