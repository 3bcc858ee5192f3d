// One server socket, two protocols: a Connection set to Framing::detect
// reads OpenPMIx's connect request (host-order header, eight 0xFF bytes)
// and its later network-order frames, or our own frames, whichever the peer
// sends first; and it writes each protocol's headers back.
#include "common/openpmix/frame.h"
#include "runtime/runtime_support.h"

#include <arpa/inet.h>

#include <cstring>

namespace {

std::vector<uint8_t> openpmix_frame(uint32_t tag, const std::vector<uint8_t> &body, bool connect)
{
    const wire::HeaderBytes head = connect
                                       ? pmixpp::openpmix::encode_connect_header(static_cast<uint32_t>(body.size()))
                                       : pmixpp::openpmix::encode_header(5, tag, static_cast<uint32_t>(body.size()));
    std::vector<uint8_t> bytes(head.size() + body.size());
    std::memcpy(bytes.data(), head.data(), head.size());
    if (!body.empty()) std::memcpy(bytes.data() + head.size(), body.data(), body.size());
    return bytes;
}

void write_all(int fd, const std::vector<uint8_t> &bytes)
{
    cr_assert_eq(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
}

std::vector<uint8_t> read_exactly(int fd, std::size_t n)
{
    std::vector<uint8_t> bytes(n);
    std::size_t got = 0;
    while (got < n) {
        const ssize_t r = ::read(fd, bytes.data() + got, n - got);
        cr_assert_gt(r, 0, "the connection wrote %zu of %zu bytes", got, n);
        got += static_cast<std::size_t>(r);
    }
    return bytes;
}

uint32_t be32_at(const std::vector<uint8_t> &bytes, std::size_t at)
{
    uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, sizeof(v));
    return ntohl(v);
}

}  // namespace

Test(openpmix_framing, connect_request_then_requests)
{
    RunningEngine running;
    SocketPair sp;
    Endpoint server(running.engine, sp.fds[0], {}, 2);
    server.conn->set_framing(wire::Framing::detect);
    cr_assert_eq(server.conn->start(), PMIX_SUCCESS);
    write_all(sp.fds[1], openpmix_frame(0, {'n', 'a', 't', 'i', 'v', 'e', 0}, true));
    write_all(sp.fds[1], openpmix_frame(101, {2, 0}, false));
    server.wait_frames();
    cr_assert_eq(server.conn->framing(), wire::Framing::openpmix_from_client);
    {
        std::lock_guard lock(server.mutex);
        cr_expect_eq(server.frames[0].header.kind, wire::FrameKind::handshake);
        cr_expect_eq(server.frames[0].payload.size(), 7u);
        cr_expect_eq(server.frames[1].header.kind, wire::FrameKind::request);
        cr_expect_eq(server.frames[1].header.tag, 101u);
        cr_expect(server.frames[1].payload == std::vector<uint8_t>({2, 0}));
    }
    // The answer to a connect request goes without a header; a reply has
    // OpenPMIx's, in network order, with the request's tag.
    cr_assert_eq(server.conn->send(wire::FrameKind::handshake, 0, std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 9}),
                 PMIX_SUCCESS);
    cr_assert_eq(server.conn->send(wire::FrameKind::reply, 101, std::vector<uint8_t>{7, 7, 7}), PMIX_SUCCESS);
    const std::vector<uint8_t> answer = read_exactly(sp.fds[1], 8 + 16 + 3);
    cr_expect_eq(be32_at(answer, 4), 9u, "the index of the connect answer");
    cr_expect_eq(be32_at(answer, 8 + 4), 101u, "the reply's tag");
    cr_expect_eq(be32_at(answer, 8 + 8), 3u, "the reply's length");
}

Test(openpmix_framing, our_frames_still_pass_a_detecting_connection)
{
    RunningEngine running;
    SocketPair sp;
    Endpoint server(running.engine, sp.fds[0], {}, 1);
    Endpoint client(running.engine, sp.fds[1]);
    server.conn->set_framing(wire::Framing::detect);
    cr_assert_eq(server.conn->start(), PMIX_SUCCESS);
    cr_assert_eq(client.conn->start(), PMIX_SUCCESS);
    cr_assert_eq(client.conn->send(wire::FrameKind::handshake, 0, std::vector<uint8_t>{1, 2, 3}), PMIX_SUCCESS);
    server.wait_frames();
    cr_expect_eq(server.conn->framing(), wire::Framing::pmixpp);
    std::lock_guard lock(server.mutex);
    cr_expect_eq(server.frames[0].header.kind, wire::FrameKind::handshake);
}

Test(openpmix_framing, oversized_connect_request_is_refused)
{
    RunningEngine running;
    SocketPair sp;
    Endpoint server(running.engine, sp.fds[0]);
    server.conn->set_framing(wire::Framing::detect);
    cr_assert_eq(server.conn->start(), PMIX_SUCCESS);
    const wire::HeaderBytes head = pmixpp::openpmix::encode_connect_header(pmixpp::openpmix::kMaxConnectBody + 1);
    std::vector<uint8_t> bytes(head.size());
    std::memcpy(bytes.data(), head.data(), head.size());
    write_all(sp.fds[1], bytes);
    const CloseInfo closed = server.wait_closed();
    cr_expect_eq(closed.status, PMIX_ERR_BAD_PARAM);
    cr_expect(closed.reason.find("connect request") != std::string::npos, "reason: %s", closed.reason.c_str());
}
