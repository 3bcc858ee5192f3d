// A broken peer closes only its own connection, with the right reason, while
// another connection on the same engine keeps working.
#include "runtime/runtime_support.h"

#include "framework/stderr_capture.h"

#include <string>
#include <vector>

namespace {

void write_raw(int fd, const void *data, size_t size)
{
    cr_assert_eq(::write(fd, data, size), static_cast<ssize_t>(size));
}

wire::HeaderBytes header_claiming(uint32_t payload_size)
{
    wire::FrameHeader h;
    h.kind = wire::FrameKind::request;
    h.tag = 1;
    h.payload_size = payload_size;
    return wire::encode_header(h);
}

// A healthy pair on the same engine: proves the engine still serves others.
struct HealthyPair {
    SocketPair sp;
    Endpoint a;
    Endpoint b;

    explicit HealthyPair(rt::ProgressEngine &engine) : a(engine, sp.fds[0]), b(engine, sp.fds[1], {}, 1)
    {
        cr_assert_eq(a.conn->start(), PMIX_SUCCESS);
        cr_assert_eq(b.conn->start(), PMIX_SUCCESS);
    }

    void exchange()
    {
        const uint8_t hello[] = {1, 2, 3};
        cr_assert_eq(a.conn->send(wire::FrameKind::request, 9, hello), PMIX_SUCCESS);
        b.wait_frames();
        cr_expect(b.conn->is_open());
    }
};

// The connection under attack, and the raw fd the test writes garbage to.
struct Victim {
    SocketPair sp;
    Endpoint ep;

    Victim(rt::ProgressEngine &engine, wire::FrameLimits limits = {}) : ep(engine, sp.fds[0], limits)
    {
        ep.conn->set_description("victim");
        cr_assert_eq(ep.conn->start(), PMIX_SUCCESS);
    }
    ~Victim() { ::close(sp.fds[1]); }
    int raw() const { return sp.fds[1]; }
};

}  // namespace

Test(connection_hostile, malformed_header)
{
    RunningEngine running;
    HealthyPair healthy(running.engine);
    Victim victim(running.engine);
    const char garbage[] = "GET / HTTP/1.1\r\n\r\n";
    write_raw(victim.raw(), garbage, sizeof garbage - 1);
    CloseInfo info = victim.ep.wait_closed();
    cr_expect_eq(info.status, PMIX_ERR_UNPACK_FAILURE);
    cr_expect(info.reason.find("magic") != std::string::npos, "reason: %s", info.reason.c_str());
    cr_expect_eq(victim.ep.frame_count(), 0u);
    healthy.exchange();
}

Test(connection_hostile, unknown_kind_after_a_good_frame)
{
    RunningEngine running;
    Victim victim(running.engine);
    wire::HeaderBytes good = header_claiming(0);
    write_raw(victim.raw(), good.data(), good.size());
    wire::HeaderBytes bad = header_claiming(0);
    bad[6] = 99;
    write_raw(victim.raw(), bad.data(), bad.size());
    CloseInfo info = victim.ep.wait_closed();
    cr_expect_eq(info.status, PMIX_ERR_UNPACK_FAILURE);
    cr_expect_eq(victim.ep.frame_count(), 1u, "the good frame was delivered");
}

Test(connection_hostile, oversized_length)
{
    RunningEngine running;
    HealthyPair healthy(running.engine);
    wire::FrameLimits small;
    small.max_payload = 4096;
    Victim victim(running.engine, small);
    wire::HeaderBytes h = header_claiming(4097);
    write_raw(victim.raw(), h.data(), h.size());
    CloseInfo info = victim.ep.wait_closed();
    cr_expect_eq(info.status, PMIX_ERR_BAD_PARAM);
    cr_expect(info.reason.find("4097") != std::string::npos, "reason: %s", info.reason.c_str());
    healthy.exchange();
}

Test(connection_hostile, sending_over_the_limit_is_refused_locally)
{
    RunningEngine running;
    wire::FrameLimits small;
    small.max_payload = 16;
    Victim victim(running.engine, small);
    std::vector<uint8_t> payload(17);
    cr_expect_eq(victim.ep.conn->send(wire::FrameKind::request, 1, payload), PMIX_ERR_BAD_PARAM);
    cr_expect(victim.ep.conn->is_open());
}

Test(connection_hostile, truncated_at_eof)
{
    RunningEngine running;
    HealthyPair healthy(running.engine);
    Victim victim(running.engine);
    wire::HeaderBytes h = header_claiming(100);
    write_raw(victim.raw(), h.data(), h.size());
    write_raw(victim.raw(), "0123456789", 10);
    ::shutdown(victim.raw(), SHUT_WR);
    CloseInfo info = victim.ep.wait_closed();
    cr_expect_eq(info.status, PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    cr_expect(info.reason.find("10 of 100") != std::string::npos, "reason: %s", info.reason.c_str());
    healthy.exchange();
}

Test(connection_hostile, half_header_then_silence_blocks_nobody)
{
    RunningEngine running;
    HealthyPair healthy(running.engine);
    Victim victim(running.engine);
    wire::HeaderBytes h = header_claiming(0);
    write_raw(victim.raw(), h.data(), 7);
    // The stalled peer holds nothing up.
    healthy.exchange();
    cr_expect(victim.ep.conn->is_open());
    ::shutdown(victim.raw(), SHUT_WR);
    CloseInfo info = victim.ep.wait_closed();
    cr_expect_eq(info.status, PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    cr_expect(info.reason.find("header (7 of 16") != std::string::npos, "reason: %s", info.reason.c_str());
}

Test(connection_hostile, idle_timeout_closes_a_silent_peer)
{
    RunningEngine running;
    HealthyPair healthy(running.engine);
    SocketPair sp;
    Endpoint ep(running.engine, sp.fds[0]);
    ep.conn->set_idle_timeout(20ms);
    cr_assert_eq(ep.conn->start(), PMIX_SUCCESS);
    wire::HeaderBytes h = header_claiming(0);
    write_raw(sp.fds[1], h.data(), 5);
    CloseInfo info = ep.wait_closed();
    cr_expect_eq(info.status, PMIX_ERR_TIMEOUT);
    healthy.exchange();
    ::close(sp.fds[1]);
}

Test(connection_hostile, peer_reset_is_a_lost_connection)
{
    RunningEngine running;
    Victim victim(running.engine);
    ::close(victim.sp.fds[1]);
    victim.sp.fds[1] = -1;
    CloseInfo info = victim.ep.wait_closed();
    cr_expect_eq(info.status, PMIX_ERR_LOST_CONNECTION);
    cr_expect_eq(victim.ep.conn->send(wire::FrameKind::reply, 1, {}), PMIX_ERR_LOST_CONNECTION);
}

// A peer dropped while our replies to it wait to be written: its events are
// freed before its socket is closed, so libevent has no
// closed descriptor to complain about ("Epoll MOD(4) on fd N failed ... Bad
// file descriptor" on the server's stderr before).
Test(connection_hostile, a_dropped_peer_leaves_libevent_nothing_to_complain_about)
{
    pmixpp::tests::StderrCapture capture;
    {
        RunningEngine running;
        Victim victim(running.engine);
        // Fill the socket: the peer never reads, so the write event stays armed.
        const std::vector<uint8_t> chunk(64 * 1024, 0x5a);
        for (int i = 0; i < 32 && victim.ep.conn->is_open(); ++i) {
            (void)victim.ep.conn->send(wire::FrameKind::reply, 1, chunk);
        }
        const char garbage[] = "not a pmixpp frame at all";
        write_raw(victim.raw(), garbage, sizeof garbage - 1);
        const CloseInfo info = victim.ep.wait_closed();
        cr_expect_eq(info.status, PMIX_ERR_UNPACK_FAILURE);
        HealthyPair healthy(running.engine);  // more turns of the loop after the close
        healthy.exchange();
    }
    const std::string text = capture.stop();
    cr_expect(text.find("Bad file descriptor") == std::string::npos, "libevent complained:\n%s", text.c_str());
    cr_expect(text.find("Epoll") == std::string::npos, "libevent complained:\n%s", text.c_str());
}
