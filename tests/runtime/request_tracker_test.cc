// Request/reply correlation: replies, timeouts, fail_all, and a dropped
// connection completing every pending call.
#include "common/wire/request_tracker.h"
#include "runtime/runtime_support.h"

namespace {

struct Outcome {
    pmix_status_t status = PMIX_ERR_INIT;
    bool had_reply = false;
    std::vector<uint8_t> payload;
};

wire::RequestTracker::ReplyCallback record_into(std::shared_ptr<rt::Latch<Outcome>> latch)
{
    return [latch](pmix_status_t st, const wire::Frame *reply) {
        Outcome out{st, reply != nullptr, reply ? reply->payload : std::vector<uint8_t>{}};
        latch->complete(st, std::move(out));
    };
}

}  // namespace

Test(request_tracker, reply_completes_the_matching_request)
{
    RunningEngine running;
    auto first = std::make_shared<rt::Latch<Outcome>>();
    auto second = std::make_shared<rt::Latch<Outcome>>();
    cr_assert_eq(running.engine.run_and_wait([&] {
        wire::RequestTracker tracker(running.engine);
        uint32_t t1 = tracker.add(record_into(first));
        uint32_t t2 = tracker.add(record_into(second), 1h);
        cr_expect_neq(t1, wire::kNoTag);
        cr_expect_neq(t1, t2);
        cr_expect_eq(tracker.pending(), 2u);
        wire::Frame reply;
        reply.header.kind = wire::FrameKind::reply;
        reply.header.tag = t2;
        reply.payload = {4, 2};
        cr_expect(tracker.complete(reply));
        cr_expect_not(tracker.complete(reply), "a second reply for a tag is ignored");
        reply.header.tag = 12345;
        cr_expect_not(tracker.complete(reply), "unknown tag");
        cr_expect_eq(tracker.pending(), 1u);
    }),
                 PMIX_SUCCESS);
    // The destructor failed what was left.
    cr_expect_eq(first->wait_for(kGenerous), PMIX_ERR_LOST_CONNECTION);
    cr_expect_not(first->payload().had_reply);
    cr_expect_eq(second->wait_for(kGenerous), PMIX_SUCCESS);
    cr_expect(second->payload().had_reply);
    cr_expect_eq(second->payload().payload.size(), 2u);
}

Test(request_tracker, timeout_fails_the_request_and_ignores_the_late_reply)
{
    RunningEngine running;
    auto latch = std::make_shared<rt::Latch<Outcome>>();
    wire::RequestTracker *tracker = nullptr;
    uint32_t tag = 0;
    cr_assert_eq(running.engine.run_and_wait([&] {
        tracker = new wire::RequestTracker(running.engine);
        tag = tracker->add(record_into(latch), 5ms);
    }),
                 PMIX_SUCCESS);
    cr_assert_eq(latch->wait_for(kGenerous), PMIX_ERR_TIMEOUT);
    cr_assert_eq(running.engine.run_and_wait([&] {
        wire::Frame late;
        late.header.tag = tag;
        cr_expect_not(tracker->complete(late));
        cr_expect_eq(tracker->pending(), 0u);
        delete tracker;
    }),
                 PMIX_SUCCESS);
}

Test(request_tracker, fail_all_completes_everything_once)
{
    RunningEngine running;
    std::vector<pmix_status_t> results;  // progress thread only
    int added_from_callback = 0;
    cr_assert_eq(running.engine.run_and_wait([&] {
        wire::RequestTracker tracker(running.engine);
        for (int i = 0; i < 5; ++i) {
            tracker.add(
                [&](pmix_status_t st, const wire::Frame *reply) {
                    cr_expect_null(reply);
                    results.push_back(st);
                    if (added_from_callback == 0) {
                        // A callback may issue a new request; fail_all leaves it.
                        tracker.add([&](pmix_status_t, const wire::Frame *) { ++added_from_callback; });
                        ++added_from_callback;
                    }
                },
                1h);
        }
        tracker.fail_all(PMIX_ERR_LOST_CONNECTION);
        cr_expect_eq(tracker.pending(), 1u);
        tracker.fail_all(PMIX_ERR_LOST_CONNECTION);
        cr_expect_eq(tracker.pending(), 0u);
    }),
                 PMIX_SUCCESS);
    cr_assert_eq(results.size(), 5u);
    for (pmix_status_t st : results) {
        cr_expect_eq(st, PMIX_ERR_LOST_CONNECTION);
    }
    cr_expect_eq(added_from_callback, 2);
}

Test(request_tracker, dropped_connection_fails_pending_requests)
{
    RunningEngine running;
    SocketPair sp;
    wire::RequestTracker tracker(running.engine);  // touched on the progress thread only
    auto answered = std::make_shared<rt::Latch<Outcome>>();
    auto orphaned = std::make_shared<rt::Latch<Outcome>>();
    auto conn = wire::Connection::create(running.engine, sp.fds[0]);
    conn->set_message_handler([&](const wire::Frame &f) { tracker.complete(f); });
    conn->set_close_handler([&](pmix_status_t, const std::string &) { tracker.fail_all(PMIX_ERR_LOST_CONNECTION); });
    cr_assert_eq(conn->start(), PMIX_SUCCESS);
    cr_assert_eq(running.engine.run_and_wait([&] {
        for (auto &latch : {answered, orphaned}) {
            uint32_t tag = tracker.add(record_into(latch));
            cr_expect_eq(conn->send(wire::FrameKind::request, tag, {}), PMIX_SUCCESS);
        }
    }),
                 PMIX_SUCCESS);
    // The "server" answers the first request and then goes away.
    wire::Frame request;
    cr_assert_eq(wire::recv_frame_blocking(sp.fds[1], {}, -1, &request), PMIX_SUCCESS);
    const uint8_t body[] = {1};
    cr_assert_eq(wire::send_frame_blocking(sp.fds[1], wire::FrameKind::reply, request.header.tag, body, -1),
                 PMIX_SUCCESS);
    cr_assert_eq(answered->wait_for(kGenerous), PMIX_SUCCESS);
    ::close(sp.fds[1]);
    cr_assert_eq(orphaned->wait_for(kGenerous), PMIX_ERR_LOST_CONNECTION);
    cr_assert_eq(running.engine.run_and_wait([&] { cr_expect_eq(tracker.pending(), 0u); }), PMIX_SUCCESS);
}
