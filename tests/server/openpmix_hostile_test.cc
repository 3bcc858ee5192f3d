// Bad input from peers that speak OpenPMIx's protocol to the server's tcp
// listener (docs/wire-protocol.md, "The OpenPMIx dialect"): raw sockets
// send truncated, oversized, garbage and lying connect requests, unknown
// and malformed requests, and a half-sent header that goes silent. Each is
// refused or dropped alone; a valid OpenPMIx client connecting afterwards
// is still served.
#include "server/server_fixture.h"

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/connect.h"
#include "common/openpmix/frame.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace server_test;
using namespace pmixpp;

namespace {

constexpr int kWaitMs = 10000;  // bound on every wait for the server
constexpr uint32_t kFirstTag = 101;

void setup()
{
    start_server(make_tmpdir());
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

void logged_setup()
{
    cr_redirect_stderr();
    setup();
}

std::string tcp_uri()
{
    std::string uris = fork_env(kJob, 0)["PMIXPP_SERVER_URIS"] + ";";
    for (size_t start = 0, end; (end = uris.find(';', start)) != std::string::npos; start = end + 1) {
        const std::string uri = uris.substr(start, end - start);
        if (uri.rfind("tcp4://", 0) == 0) return uri;
    }
    cr_assert_fail("the server offers no tcp4 URI (it offers %s)", uris.c_str());
    return {};
}

// A raw socket to the server's tcp listener, on loopback.
class Socket {
public:
    Socket()
    {
        const std::string rest = tcp_uri().substr(std::strlen("tcp4://"));
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<uint16_t>(std::stoi(rest.substr(rest.rfind(':') + 1))));
        cr_assert_eq(inet_pton(AF_INET, rest.substr(0, rest.rfind(':')).c_str(), &address.sin_addr), 1);
        cr_assert(address.sin_addr.s_addr == htonl(INADDR_LOOPBACK), "the listener is not on loopback: %s",
                  rest.c_str());
        fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        cr_assert(fd_ >= 0);
        cr_assert_eq(connect(fd_, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
    }
    ~Socket() { close_now(); }
    Socket(const Socket &) = delete;
    Socket &operator=(const Socket &) = delete;

    void close_now()
    {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

    void send(const void *bytes, size_t size)
    {
        const auto *p = static_cast<const uint8_t *>(bytes);
        while (size > 0) {
            const ssize_t n = ::send(fd_, p, size, MSG_NOSIGNAL);
            cr_assert_gt(n, 0, "send: %s", std::strerror(errno));
            p += n;
            size -= static_cast<size_t>(n);
        }
    }
    void send(const std::vector<uint8_t> &bytes) { send(bytes.data(), bytes.size()); }

    // Exactly n bytes, or false when the server closed first (or kWaitMs
    // passed).
    bool read_exactly(size_t n, std::vector<uint8_t> *bytes_p)
    {
        bytes_p->assign(n, 0);
        size_t got = 0;
        while (got < n) {
            pollfd entry{fd_, POLLIN, 0};
            if (poll(&entry, 1, kWaitMs) != 1) return false;
            const ssize_t r = ::recv(fd_, bytes_p->data() + got, n - got, 0);
            if (r <= 0) return false;
            got += static_cast<size_t>(r);
        }
        return true;
    }

    // True when the server closes the connection within kWaitMs (whatever
    // it sent before is read and dropped).
    bool closed_by_server()
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWaitMs);
        uint8_t scratch[4096];
        while (std::chrono::steady_clock::now() < deadline) {
            pollfd entry{fd_, POLLIN, 0};
            if (poll(&entry, 1, 100) != 1) continue;
            const ssize_t r = ::recv(fd_, scratch, sizeof(scratch), 0);
            if (r == 0 || (r < 0 && errno == ECONNRESET)) return true;
        }
        return false;
    }

    // Nothing to read and not closed, for `ms`.
    bool quiet_for(int ms)
    {
        pollfd entry{fd_, POLLIN, 0};
        return poll(&entry, 1, ms) == 0;
    }

private:
    int fd_ = -1;
};

struct ConnectFields {
    uint32_t uid = getuid();
    uint32_t gid = getgid();
    std::string version = "4.2.2";
    std::string bfrops = "v41";
    pmix_rank_t rank = 0;
    std::string nspace = kJob;
};

std::vector<uint8_t> connect_body(const ConnectFields &fields)
{
    openpmix::ConnectRequest request;
    request.psec = "native";
    const uint32_t ids[2] = {fields.uid, fields.gid};  // psec/native over tcp: host order
    request.credential.assign(reinterpret_cast<const uint8_t *>(ids), reinterpret_cast<const uint8_t *>(ids) + 8);
    request.flag = openpmix::ConnectFlag::simple_client;
    request.has_proc = true;
    request.nspace = fields.nspace;
    request.rank = fields.rank;
    request.version = fields.version;
    request.bfrops = fields.bfrops;
    request.buffer_type = openpmix::BufferType::non_desc;
    request.gds = "hash";
    return openpmix::encode_connect_request(request);
}

std::vector<uint8_t> with_connect_header(const std::vector<uint8_t> &body)
{
    const wire::HeaderBytes head = openpmix::encode_connect_header(static_cast<uint32_t>(body.size()));
    std::vector<uint8_t> bytes(head.size() + body.size());
    std::memcpy(bytes.data(), head.data(), head.size());
    if (!body.empty()) std::memcpy(bytes.data() + head.size(), body.data(), body.size());
    return bytes;
}

uint32_t be32_at(const std::vector<uint8_t> &bytes, size_t at)
{
    uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, sizeof(v));
    return ntohl(v);
}

// Sends a connect request, returns the status of the 8-byte answer (and
// its index).
pmix_status_t connect_with(Socket &socket, const ConnectFields &fields, uint32_t *index_p = nullptr)
{
    socket.send(with_connect_header(connect_body(fields)));
    std::vector<uint8_t> answer;
    cr_assert(socket.read_exactly(8, &answer), "no answer to the connect request");
    if (index_p != nullptr) *index_p = be32_at(answer, 4);
    return static_cast<pmix_status_t>(be32_at(answer, 0));
}

void send_request(Socket &socket, uint32_t tag, const std::vector<uint8_t> &payload)
{
    const wire::HeaderBytes head = openpmix::encode_header(0, tag, static_cast<uint32_t>(payload.size()));
    socket.send(head.data(), head.size());
    if (!payload.empty()) socket.send(payload);
}

// The next reply: its tag and body.
bool read_reply(Socket &socket, uint32_t *tag_p, std::vector<uint8_t> *body_p)
{
    std::vector<uint8_t> head;
    if (!socket.read_exactly(wire::kFrameHeaderSize, &head)) return false;
    *tag_p = be32_at(head, 4);
    const uint32_t length = be32_at(head, 8);
    cr_assert_lt(length, 64u << 20, "a reply of %u bytes", length);
    return length == 0 ? (body_p->clear(), true) : socket.read_exactly(length, body_p);
}

std::vector<uint8_t> command_only(uint8_t command)
{
    openpmix::Writer writer(openpmix::Encoding{});
    cr_assert_eq(writer.pack_command(command), PMIX_SUCCESS);
    return writer.take();
}

// REQ on `tag`: the answer starts with our namespace.
void expect_job_data(Socket &socket, uint32_t tag)
{
    const std::vector<uint8_t> req = command_only(static_cast<uint8_t>(openpmix::Command::req));
    cr_assert(req == std::vector<uint8_t>({0x02, 0x00}), "REQ is not the bytes 02 00");
    send_request(socket, tag, req);
    uint32_t got_tag = 0;
    std::vector<uint8_t> body;
    cr_assert(read_reply(socket, &got_tag, &body), "no answer to REQ");
    cr_assert_eq(got_tag, tag);
    openpmix::Reader reader(openpmix::Encoding{}, body);
    std::string nspace;
    cr_assert_eq(reader.unpack_string(&nspace), PMIX_SUCCESS, "REQ's answer: %s", reader.reason().c_str());
    cr_assert_str_eq(nspace.c_str(), kJob);
    cr_assert(!reader.at_end(), "REQ's answer carries no job data");
}

// A valid OpenPMIx client: status 0 and an index, then its job data.
void expect_served()
{
    Socket client;
    uint32_t index = 0xFFFFFFFFu;
    const pmix_status_t status = connect_with(client, ConnectFields{}, &index);
    cr_assert_eq(status, PMIX_SUCCESS, "a valid client was refused: %s", PMIx_Error_string(status));
    cr_assert_neq(index, 0xFFFFFFFFu);
    expect_job_data(client, kFirstTag);
}

int count_lines_with(FILE *stream, const char *text)
{
    int lines = 0;
    char line[4096];
    while (std::fgets(line, sizeof(line), stream) != nullptr) {
        if (std::strstr(line, text) != nullptr) ++lines;
    }
    return lines;
}

}  // namespace

TestSuite(openpmix_hostile, .init = setup, .fini = teardown, .timeout = 60);

Test(openpmix_hostile, a_valid_client_gets_its_job_data)
{
    expect_served();
}

// OpenPMIx 3.2's v3 has no PMIX_REGEX: a host's regex node and proc maps
// reach a 3.2 client as strings, and every other key as v3 carries it,
// rather than no job data at all (which failed its PMIx_Init).
Test(openpmix_hostile, a_v3_client_gets_its_job_data_with_the_regex_maps_as_strings)
{
    char *node_regex = nullptr;
    char *proc_regex = nullptr;
    cr_assert_eq(PMIx_generate_regex(kHost, &node_regex), PMIX_SUCCESS);
    cr_assert_eq(PMIx_generate_ppn("0,1", &proc_regex), PMIX_SUCCESS);
    const uint32_t size = 2;
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    // As in OpenPMIx, a PMIX_REGEX is loaded from the regex text itself.
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, node_regex, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, proc_regex, PMIX_REGEX);
    const pmix_status_t registered = PMIx_server_register_nspace("job32", 2, info, 3, nullptr, nullptr);
    cr_assert_eq(registered, PMIX_OPERATION_SUCCEEDED, "register_nspace: %s", PMIx_Error_string(registered));
    for (auto &item : info) PMIX_INFO_DESTRUCT(&item);
    std::free(node_regex);
    std::free(proc_regex);
    pmix_proc_t proc{};
    PMIX_LOAD_PROCID(&proc, "job32", 0);
    cr_assert_eq(PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, nullptr, nullptr),
                 PMIX_OPERATION_SUCCEEDED);

    ConnectFields fields;
    fields.version = "3.2.5";
    fields.bfrops = "v3";
    fields.nspace = "job32";
    Socket client;
    cr_assert_eq(connect_with(client, fields), PMIX_SUCCESS);
    const openpmix::Encoding v3{openpmix::Bfrops::v3, openpmix::BufferType::non_desc};
    openpmix::Writer req(v3);
    cr_assert_eq(req.pack_command(static_cast<uint8_t>(openpmix::Command::req)), PMIX_SUCCESS);
    send_request(client, kFirstTag, req.bytes());
    uint32_t tag = 0;
    std::vector<uint8_t> body;
    cr_assert(read_reply(client, &tag, &body), "no answer to a v3 client's REQ");
    openpmix::Reader reader(v3, body);
    std::string nspace;
    cr_assert_eq(reader.unpack_string(&nspace), PMIX_SUCCESS, "%s", reader.reason().c_str());
    cr_assert_str_eq(nspace.c_str(), "job32");
    std::map<std::string, pmix_data_type_t> types;
    while (!reader.at_end()) {
        std::string key;
        pmix_value_t value{};
        cr_assert_eq(reader.unpack_kval(&key, &value), PMIX_SUCCESS, "after %zu keys: %s", types.size(),
                     reader.reason().c_str());
        types[key] = value.type;
        PMIX_VALUE_DESTRUCT(&value);
    }
    cr_expect_eq(types[PMIX_NODE_MAP], PMIX_STRING, "PMIX_NODE_MAP arrived as type %u", types[PMIX_NODE_MAP]);
    cr_expect_eq(types[PMIX_PROC_MAP], PMIX_STRING, "PMIX_PROC_MAP arrived as type %u", types[PMIX_PROC_MAP]);
    cr_expect(types.count(PMIX_PROC_BLOB) == 1, "no per-rank blob");
}

Test(openpmix_hostile, a_truncated_connect_request_is_dropped_and_the_server_serves_on)
{
    {
        Socket liar;
        const wire::HeaderBytes head = openpmix::encode_connect_header(100);
        liar.send(head.data(), head.size());
        const std::vector<uint8_t> body = connect_body(ConnectFields{});
        liar.send(body.data(), 10);
        liar.close_now();
    }
    expect_served();
}

Test(openpmix_hostile, an_oversized_connect_header_is_refused)
{
    Socket liar;
    const wire::HeaderBytes head = openpmix::encode_connect_header(openpmix::kMaxConnectBody + 1);
    liar.send(head.data(), head.size());
    cr_assert(liar.closed_by_server(), "a connect request of 128 KiB + 1 was not refused");
    expect_served();
}

// Its own suite: no .fini, the test finalizes before it reads the log.
Test(openpmix_hostile_logged, garbage_after_the_connect_marker_is_refused_with_a_log_line, .init = logged_setup,
     .timeout = 60)
{
    Socket liar;
    const std::vector<uint8_t> garbage(20, 0xAB);  // no NUL: not even a psec name
    liar.send(with_connect_header(garbage));
    std::vector<uint8_t> answer;
    cr_assert(liar.read_exactly(8, &answer), "no refusal");
    cr_assert_neq(static_cast<pmix_status_t>(be32_at(answer, 0)), PMIX_SUCCESS);
    cr_assert(liar.closed_by_server());
    expect_served();
    PMIx_server_finalize();
    std::fflush(stderr);
    cr_assert_eq(count_lines_with(cr_get_redirected_stderr(), "refused OpenPMIx"), 1,
                 "the refusal was not logged once");
}

Test(openpmix_hostile, an_unknown_version_is_refused)
{
    ConnectFields fields;
    fields.version = "1.2.5";
    Socket old;
    cr_assert_eq(connect_with(old, fields), PMIX_ERR_NOT_SUPPORTED);
    cr_assert(old.closed_by_server());
    expect_served();
}

Test(openpmix_hostile, an_unknown_encoding_is_refused)
{
    ConnectFields fields;
    fields.bfrops = "v12";
    Socket odd;
    cr_assert_eq(connect_with(odd, fields), PMIX_ERR_NOT_SUPPORTED);
    cr_assert(odd.closed_by_server());
    expect_served();
}

Test(openpmix_hostile, a_client_claiming_another_uid_is_refused)
{
    ConnectFields fields;
    fields.uid = static_cast<uint32_t>(getuid()) + 1;
    Socket liar;
    cr_assert_eq(connect_with(liar, fields), PMIX_ERR_INVALID_CRED);
    cr_assert(liar.closed_by_server());
    expect_served();
}

Test(openpmix_hostile, an_unknown_command_gets_not_supported_and_the_connection_stays)
{
    Socket client;
    cr_assert_eq(connect_with(client, ConnectFields{}), PMIX_SUCCESS);
    send_request(client, kFirstTag, command_only(99));
    uint32_t tag = 0;
    std::vector<uint8_t> body;
    cr_assert(read_reply(client, &tag, &body), "no answer to command 99");
    cr_assert_eq(tag, kFirstTag);
    openpmix::Reader reader(openpmix::Encoding{}, body);
    pmix_status_t status = PMIX_SUCCESS;
    cr_assert_eq(reader.unpack_status(&status), PMIX_SUCCESS);
    cr_assert_eq(status, PMIX_ERR_NOT_SUPPORTED, "command 99 answered %s", PMIx_Error_string(status));
    cr_assert(reader.at_end(), "a status-only answer has more");
    expect_job_data(client, kFirstTag + 1);  // still open and served
}

Test(openpmix_hostile, a_malformed_get_drops_that_connection_only)
{
    ConnectFields rank1;
    rank1.rank = 1;
    Socket other;  // rank 1, connected beside it, must stay
    cr_assert_eq(connect_with(other, rank1), PMIX_SUCCESS);
    Socket bad;
    cr_assert_eq(connect_with(bad, ConnectFields{}), PMIX_SUCCESS);
    std::vector<uint8_t> get = command_only(static_cast<uint8_t>(openpmix::Command::get));
    get.push_back(0xFF);  // a varint that never ends: no namespace
    send_request(bad, kFirstTag, get);
    cr_assert(bad.closed_by_server(), "a malformed GET left its connection open");
    expect_job_data(other, kFirstTag);
    expect_served();
}

// docs/reliability.md: the handshake timeout holds for OpenPMIx's peers.
// PMIX_MCA_ptl_base_handshake_timeout is 1.5 s for this suite (CMake).
Test(openpmix_hostile, a_silent_half_connect_header_times_out)
{
    Socket silent;
    const wire::HeaderBytes head = openpmix::encode_connect_header(40);
    const auto start = std::chrono::steady_clock::now();
    silent.send(head.data(), 11);  // the marker and part of the length
    cr_assert(silent.quiet_for(500), "dropped before its handshake timeout");
    cr_assert(silent.closed_by_server(), "a silent OpenPMIx peer was never dropped");
    const auto waited = std::chrono::steady_clock::now() - start;
    cr_assert_geq(waited, std::chrono::milliseconds(1400), "closed after %lld ms, before the timeout",
                  static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()));
    expect_served();
}
