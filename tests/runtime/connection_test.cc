// Two Connections over a socketpair: many frames both ways, large payloads,
// and the ways a connection is closed locally.
#include <thread>

#include "runtime/runtime_support.h"

namespace {

void send_numbered(wire::Connection &conn, int count, unsigned seed)
{
    for (int i = 0; i < count; ++i) {
        // Sizes vary so that frames straddle reads.
        auto payload = pattern_bytes(static_cast<size_t>((i * 37) % 3000), seed + static_cast<unsigned>(i));
        cr_expect_eq(conn.send(wire::FrameKind::request, static_cast<uint32_t>(i + 1), payload), PMIX_SUCCESS);
    }
}

void check_numbered(Endpoint &ep, int count, unsigned seed)
{
    std::lock_guard lock(ep.mutex);
    cr_assert_eq(ep.frames.size(), static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        const wire::Frame &f = ep.frames[static_cast<size_t>(i)];
        cr_assert_eq(f.header.tag, static_cast<uint32_t>(i + 1), "frames out of order");
        cr_assert_eq(f.header.kind, wire::FrameKind::request);
        auto expected = pattern_bytes(static_cast<size_t>((i * 37) % 3000), seed + static_cast<unsigned>(i));
        cr_assert(f.payload == expected, "payload %d corrupted", i);
    }
}

}  // namespace

Test(connection, many_frames_both_ways)
{
    RunningEngine running;
    SocketPair sp;
    constexpr int kFrames = 3000;
    Endpoint a(running.engine, sp.fds[0], {}, kFrames);
    Endpoint b(running.engine, sp.fds[1], {}, kFrames);
    cr_assert_eq(a.conn->start(), PMIX_SUCCESS);
    cr_assert_eq(b.conn->start(), PMIX_SUCCESS);
    std::thread from_a([&] { send_numbered(*a.conn, kFrames, 1); });
    send_numbered(*b.conn, kFrames, 2);
    from_a.join();
    a.wait_frames();
    b.wait_frames();
    check_numbered(b, kFrames, 1);
    check_numbered(a, kFrames, 2);
}

Test(connection, large_payloads_survive_partial_writes)
{
    RunningEngine running;
    SocketPair sp;
    Endpoint a(running.engine, sp.fds[0], {}, 2);
    Endpoint b(running.engine, sp.fds[1], {}, 2);
    // Queued before start: sent once the connection is registered.
    auto big = pattern_bytes(8u << 20, 7);
    cr_assert_eq(a.conn->send(wire::FrameKind::reply, 1, big), PMIX_SUCCESS);
    cr_assert_eq(a.conn->send(wire::FrameKind::reply, 2, big), PMIX_SUCCESS);
    cr_assert_eq(b.conn->send(wire::FrameKind::notify, 3, big), PMIX_SUCCESS);
    cr_assert_eq(b.conn->send(wire::FrameKind::notify, 4, {}), PMIX_SUCCESS);
    cr_assert_eq(a.conn->start(), PMIX_SUCCESS);
    cr_assert_eq(b.conn->start(), PMIX_SUCCESS);
    a.wait_frames();
    b.wait_frames();
    std::lock_guard lock_b(b.mutex);
    cr_assert(b.frames[0].payload == big);
    cr_assert(b.frames[1].payload == big);
    cr_expect_eq(b.frames[1].header.tag, 2u);
    std::lock_guard lock_a(a.mutex);
    cr_assert(a.frames[0].payload == big);
    cr_expect(a.frames[1].payload.empty());
    cr_expect_eq(a.frames[1].header.kind, wire::FrameKind::notify);
}

Test(connection, local_close_calls_handler_once_and_peer_sees_lost_connection)
{
    RunningEngine running;
    SocketPair sp;
    Endpoint a(running.engine, sp.fds[0]);
    Endpoint b(running.engine, sp.fds[1]);
    cr_assert_eq(a.conn->start(), PMIX_SUCCESS);
    cr_assert_eq(b.conn->start(), PMIX_SUCCESS);
    a.conn->close(PMIX_ERR_INVALID_CRED, "refused");
    a.conn->close(PMIX_ERR_TIMEOUT, "second close is ignored");
    CloseInfo mine = a.wait_closed();
    cr_expect_eq(mine.status, PMIX_ERR_INVALID_CRED);
    cr_expect_str_eq(mine.reason.c_str(), "refused");
    CloseInfo theirs = b.wait_closed();
    cr_expect_eq(theirs.status, PMIX_ERR_LOST_CONNECTION);
    cr_expect_not(a.conn->is_open());
    cr_expect_eq(a.conn->send(wire::FrameKind::request, 1, {}), PMIX_ERR_LOST_CONNECTION);
    cr_assert_eq(running.engine.run_and_wait([] {}), PMIX_SUCCESS);
    cr_expect_eq(a.close_calls, 1);
    cr_expect_eq(b.close_calls, 1);
}

Test(connection, close_when_sent_delivers_the_queued_frames_first)
{
    RunningEngine running;
    SocketPair sp;
    Endpoint a(running.engine, sp.fds[0]);
    Endpoint b(running.engine, sp.fds[1], {}, 2);
    cr_assert_eq(a.conn->start(), PMIX_SUCCESS);
    cr_assert_eq(b.conn->start(), PMIX_SUCCESS);
    auto big = pattern_bytes(4u << 20, 3);
    cr_assert_eq(a.conn->send(wire::FrameKind::handshake, 0, big), PMIX_SUCCESS);
    cr_assert_eq(a.conn->send(wire::FrameKind::handshake, 0, big), PMIX_SUCCESS);
    a.conn->close_when_sent(PMIX_ERR_INVALID_CRED, "refused after reply");
    CloseInfo theirs = b.wait_closed();
    cr_expect_eq(theirs.status, PMIX_ERR_LOST_CONNECTION);
    cr_assert_eq(b.frame_count(), 2u);
    CloseInfo mine = a.wait_closed();
    cr_expect_eq(mine.status, PMIX_ERR_INVALID_CRED);
}

Test(connection, handler_may_close_its_own_connection_and_the_owner_may_let_go)
{
    RunningEngine running;
    SocketPair sp;
    rt::Latch<CloseInfo> closed;
    int frames = 0;
    {
        auto conn = wire::Connection::create(running.engine, sp.fds[0]);
        std::weak_ptr<wire::Connection> weak = conn;
        conn->set_message_handler([weak, &frames](const wire::Frame &) {
            ++frames;
            if (auto c = weak.lock()) {
                c->close(PMIX_ERR_NOT_SUPPORTED, "handler closed it");
            }
        });
        conn->set_close_handler([&closed](pmix_status_t st, const std::string &why) {
            closed.complete(st, CloseInfo{st, why});
        });
        cr_assert_eq(conn->start(), PMIX_SUCCESS);
    }  // our reference is gone; the open connection keeps itself alive
    // Three frames in one write: they are all in the socket before the
    // handler closes on the first (frame by frame, the second write could
    // already meet the closed connection).
    std::vector<uint8_t> three;
    for (int i = 0; i < 3; ++i) {
        std::vector<uint8_t> frame;
        cr_assert_eq(wire::encode_frame(wire::FrameKind::request, 1, {}, &frame), PMIX_SUCCESS);
        three.insert(three.end(), frame.begin(), frame.end());
    }
    cr_assert_eq(::write(sp.fds[1], three.data(), three.size()), static_cast<ssize_t>(three.size()));
    cr_assert_eq(closed.wait_for(kGenerous), PMIX_ERR_NOT_SUPPORTED);
    cr_assert_eq(running.engine.run_and_wait([] {}), PMIX_SUCCESS);
    cr_expect_eq(frames, 1, "no frame is delivered after the close");
    ::close(sp.fds[1]);
}
