// The blocking helpers of the handshake phase.
#include <thread>

#include "runtime/runtime_support.h"

Test(blocking_io, frame_round_trip)
{
    SocketPair sp;
    auto payload = pattern_bytes(100000, 5);  // more than one socket buffer's worth
    std::thread writer([&] {
        cr_expect_eq(wire::send_frame_blocking(sp.fds[0], wire::FrameKind::handshake, 0, payload, -1), PMIX_SUCCESS);
    });
    wire::Frame frame;
    cr_assert_eq(wire::recv_frame_blocking(sp.fds[1], {}, -1, &frame), PMIX_SUCCESS);
    writer.join();
    cr_expect_eq(frame.header.kind, wire::FrameKind::handshake);
    cr_expect(frame.payload == payload);
    ::close(sp.fds[0]);
    ::close(sp.fds[1]);
}

Test(blocking_io, timeout_eof_and_bad_header)
{
    SocketPair sp;
    wire::Frame frame;
    std::string why;
    cr_expect_eq(wire::recv_frame_blocking(sp.fds[1], {}, 10, &frame, &why), PMIX_ERR_TIMEOUT);

    cr_assert_eq(::write(sp.fds[0], "NOTAPMIXPPHEADER", 16), 16);
    cr_expect_eq(wire::recv_frame_blocking(sp.fds[1], {}, -1, &frame, &why), PMIX_ERR_UNPACK_FAILURE);
    cr_expect(why.find("magic") != std::string::npos, "reason: %s", why.c_str());

    wire::FrameHeader h;
    h.payload_size = 50;
    wire::HeaderBytes head = wire::encode_header(h);
    cr_assert_eq(::write(sp.fds[0], head.data(), head.size()), 16);
    cr_assert_eq(::write(sp.fds[0], "abc", 3), 3);
    ::close(sp.fds[0]);
    cr_expect_eq(wire::recv_frame_blocking(sp.fds[1], {}, -1, &frame, &why), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    cr_expect_eq(wire::recv_frame_blocking(sp.fds[1], {}, -1, &frame, &why), PMIX_ERR_LOST_CONNECTION);
    ::close(sp.fds[1]);
}

Test(blocking_io, send_to_a_closed_peer_fails_without_sigpipe)
{
    SocketPair sp;
    ::close(sp.fds[1]);
    std::string why;
    cr_expect_eq(wire::send_frame_blocking(sp.fds[0], wire::FrameKind::request, 1, {}, 1000, &why),
                 PMIX_ERR_LOST_CONNECTION);
    ::close(sp.fds[0]);
}
