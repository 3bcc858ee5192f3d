// Requests that involve a local process whose connection already ended
// (finalized, died): fences, Gets of its data and dmodex requests must be
// answered, not wait forever. A process that connects again is a
// participant again.
#include "server/server_fixture.h"

#include <criterion/criterion.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

using namespace server_test;
using namespace pmixpp;

namespace {

std::unique_ptr<RawClient> connect_rank(pmix_rank_t rank)
{
    auto client = std::make_unique<RawClient>();
    cr_assert_eq(client->hello(kJob, rank, nullptr), PMIX_SUCCESS);
    return client;
}

wire::GetRequest get_of(pmix_rank_t rank, const char *key)
{
    wire::GetRequest get;
    std::strcpy(get.proc.nspace, kJob);
    get.proc.rank = rank;
    get.key = key;
    return get;
}

pmix_proc_t proc_of(pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, kJob);
    proc.rank = rank;
    return proc;
}

// Waits until the server has handled b's abnormal exit: a, registered for
// events, hears of it.
void wait_for_termination_event(RawClient &a, pmix_rank_t who)
{
    wire::Frame frame;
    cr_assert_eq(a.receive(&frame), PMIX_SUCCESS, "no termination event");
    cr_assert_eq(frame.header.kind, wire::FrameKind::notify);
    wire::Event event;
    cr_assert_eq(wire::decode_payload(frame.payload, &event), PMIX_SUCCESS);
    cr_assert_eq(event.status, PMIX_ERR_PROC_TERM_WO_SYNC);
    cr_assert_eq(event.source.rank, who);
}

// By name: a catch-all handler does not get a peer's termination (only a
// handler that asked for PMIX_ERR_PROC_TERM_WO_SYNC does).
void register_for_events(RawClient &client)
{
    wire::RegisterEventsRequest request;
    request.codes = {PMIX_ERR_PROC_TERM_WO_SYNC};
    client.request(4, request);
    cr_assert_eq(client.reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
}

void finalize(RawClient &client)
{
    client.request(7, wire::FinalizeRequest{});
    cr_assert_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
}

struct DmodexAnswer {
    std::mutex mutex;
    std::condition_variable changed;
    int calls = 0;
    pmix_status_t status = PMIX_ERROR;

    bool wait_called()
    {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, std::chrono::milliseconds(kTimeoutMs), [this] { return calls > 0; });
    }
};

void dmodex_answer(pmix_status_t status, char *, size_t, void *cbdata)
{
    auto *answer = static_cast<DmodexAnswer *>(cbdata);
    std::lock_guard lock(answer->mutex);
    answer->calls++;
    answer->status = status;
    answer->changed.notify_all();
}

void two_rank_job()
{
    start_server(make_tmpdir());
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

}  // namespace

TestSuite(server_peer_gone, .init = two_rank_job, .fini = teardown);

Test(server_peer_gone, fence_after_a_participant_died_fails_at_once)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    register_for_events(*a);
    b.reset();  // dies without finalizing
    wait_for_termination_event(*a, 1);
    a->request(9, wire::FenceRequest{});
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_ERR_LOST_CONNECTION);
}

Test(server_peer_gone, fence_after_a_participant_finalized_fails_at_once)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    // a's Get of b's data waits until b is gone: then the server knows.
    a->request(2, get_of(1, "never.put"));
    finalize(*b);
    b.reset();
    cr_assert_eq(a->reply<wire::GetReply>().status, PMIX_ERR_NOT_FOUND);
    a->request(9, wire::FenceRequest{});
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_ERR_LOST_CONNECTION);
    // Only the fences that include b fail.
    wire::FenceRequest alone;
    alone.procs.push_back(proc_of(0));
    a->request(10, alone);
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_SUCCESS);
}

Test(server_peer_gone, get_of_a_dead_peer_is_not_found)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    register_for_events(*a);
    a->request(2, get_of(1, "never.put"));  // waits for b's commit
    b.reset();
    // The termination event and the Get's answer, in either order.
    bool event_seen = false;
    bool get_answered = false;
    while (!event_seen || !get_answered) {
        wire::Frame frame;
        cr_assert_eq(a->receive(&frame), PMIX_SUCCESS, "the Get was never answered");
        if (frame.header.kind == wire::FrameKind::notify) {
            event_seen = true;
            continue;
        }
        wire::GetReply reply;
        cr_assert_eq(wire::decode_payload(frame.payload, &reply), PMIX_SUCCESS);
        cr_expect_eq(reply.status, PMIX_ERR_NOT_FOUND);
        get_answered = true;
    }
    // A later Get is answered at once.
    a->request(3, get_of(1, "other.key"));
    cr_expect_eq(a->reply<wire::GetReply>().status, PMIX_ERR_NOT_FOUND);
}

Test(server_peer_gone, dmodex_request_for_a_gone_peer_is_answered)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    const pmix_proc_t target = proc_of(1);
    DmodexAnswer waiting;
    cr_assert_eq(PMIx_server_dmodex_request(&target, dmodex_answer, &waiting), PMIX_SUCCESS);
    finalize(*b);
    b.reset();
    cr_assert(waiting.wait_called(), "the host's dmodex callback was never called");
    cr_expect_eq(waiting.status, PMIX_ERR_NOT_FOUND);
    DmodexAnswer later;
    cr_assert_eq(PMIx_server_dmodex_request(&target, dmodex_answer, &later), PMIX_SUCCESS);
    cr_assert(later.wait_called(), "a request after the peer left was never answered");
    cr_expect_eq(later.status, PMIX_ERR_NOT_FOUND);
}

Test(server_peer_gone, a_peer_that_connects_again_takes_part_again)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    a->request(2, get_of(1, "never.put"));
    finalize(*b);
    b.reset();
    cr_assert_eq(a->reply<wire::GetReply>().status, PMIX_ERR_NOT_FOUND);
    // Its slot frees once the server has handled the close (already done:
    // the Get was answered after it).
    b = connect_rank(1);
    a->request(9, wire::FenceRequest{});
    b->request(9, wire::FenceRequest{});
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_SUCCESS);
    cr_expect_eq(b->reply<wire::FenceReply>().status, PMIX_SUCCESS);
}

// As OpenPMIx 4.2: a catch-all handler (how MPI libraries field errors, and
// Open MPI aborts the rank on any error event) is not told of a peer's
// termination; the host decides what the job does.
Test(server_peer_gone, a_catch_all_handler_is_not_told_of_a_termination)
{
    auto a = std::make_unique<RawClient>();
    auto b = std::make_unique<RawClient>();
    cr_assert_eq(a->hello(kJob, 0, nullptr), PMIX_SUCCESS);
    cr_assert_eq(b->hello(kJob, 1, nullptr), PMIX_SUCCESS);
    a->request(4, wire::RegisterEventsRequest{});
    cr_assert_eq(a->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    b.reset();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the server has seen rank 1 go
    a->request(5, wire::CommitRequest{});  // the next frame must be this reply, no notify before it
    wire::Frame frame;
    cr_assert_eq(a->receive(&frame), PMIX_SUCCESS);
    cr_expect_neq(frame.header.kind, wire::FrameKind::notify, "a catch-all handler was told of rank 1's end");
}
