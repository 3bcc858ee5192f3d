#include "openpmix_fake_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "common/openpmix/frame.h"
#include "common/wire/connection.h"

namespace pmixpp::testing {

using openpmix::Reader;
using openpmix::Writer;

namespace {

uint32_t be32(const uint8_t *p)
{
    uint32_t v = 0;
    std::memcpy(&v, p, 4);
    return ntohl(v);
}

}  // namespace

FakeOpenPmixServer::FakeOpenPmixServer()
{
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(address);
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0 ||
        ::listen(listen_fd_, 4) != 0 || ::getsockname(listen_fd_, reinterpret_cast<sockaddr *>(&address), &size) != 0) {
        std::abort();
    }
    const std::string uri = "opx.server.0;tcp4://127.0.0.1:" + std::to_string(ntohs(address.sin_port));
    unsetenv("PMIXPP_SERVER_URIS");  // what makes the server OpenPMIx's
    setenv("PMIX_SERVER_URI41", uri.c_str(), 1);
    setenv("PMIX_NAMESPACE", kJob, 1);
    setenv("PMIX_RANK", "0", 1);
    setenv("PMIX_SECURITY_MODE", "native", 1);
    setenv("PMIX_MCA_ptl", "tcp", 1);
}

FakeOpenPmixServer::~FakeOpenPmixServer()
{
    join();
    ::close(listen_fd_);
}

void FakeOpenPmixServer::run(Script script)
{
    thread_ = std::thread([this, script] {
        const int fd = ::accept(listen_fd_, nullptr, nullptr);
        if (fd < 0) return;
        script(*this, fd);
        ::close(fd);
    });
}

void FakeOpenPmixServer::join()
{
    if (thread_.joinable()) thread_.join();
}

bool FakeOpenPmixServer::take_connect_request(int fd)
{
    wire::HeaderBytes head{};
    if (wire::recv_bytes_blocking(fd, head, kIoMs) != PMIX_SUCCESS) return false;
    std::vector<uint8_t> body(head[8] | head[9] << 8 | head[10] << 16 | head[11] << 24);  // host order
    if (wire::recv_bytes_blocking(fd, body, kIoMs) != PMIX_SUCCESS) return false;
    connect_body = body;
    return send_words(fd, {PMIX_SUCCESS, 7});
}

bool FakeOpenPmixServer::send_words(int fd, std::vector<int32_t> words)
{
    std::vector<uint8_t> bytes;
    for (int32_t word : words) {
        const uint32_t be = htonl(static_cast<uint32_t>(word));
        const auto *p = reinterpret_cast<const uint8_t *>(&be);
        bytes.insert(bytes.end(), p, p + 4);
    }
    return wire::send_bytes_blocking(fd, bytes, kIoMs) == PMIX_SUCCESS;
}

bool FakeOpenPmixServer::next(int fd, Message *message_p)
{
    wire::HeaderBytes head{};
    if (wire::recv_bytes_blocking(fd, head, kIoMs) != PMIX_SUCCESS) return false;
    message_p->tag = be32(head.data() + 4);
    message_p->body.resize(be32(head.data() + 8));
    if (!message_p->body.empty() && wire::recv_bytes_blocking(fd, message_p->body, kIoMs) != PMIX_SUCCESS) {
        return false;
    }
    Reader reader(kV41, message_p->body);
    int32_t n = 1;
    (void)reader.unpack(PMIX_UINT8, &message_p->command, &n);
    seen.push_back(message_p->command);
    return true;
}

bool FakeOpenPmixServer::answer(int fd, uint32_t tag, const std::vector<uint8_t> &body)
{
    const wire::HeaderBytes head = openpmix::encode_header(0, tag, static_cast<uint32_t>(body.size()));
    return wire::send_bytes_blocking(fd, head, kIoMs) == PMIX_SUCCESS &&
           (body.empty() || wire::send_bytes_blocking(fd, body, kIoMs) == PMIX_SUCCESS);
}

void FakeOpenPmixServer::serve(int fd, const std::function<std::vector<uint8_t>(const Message &)> &answer_of)
{
    Message message;
    while (next(fd, &message)) {
        const auto command = static_cast<openpmix::Command>(message.command);
        if (command == openpmix::Command::commit) commits.push_back(message.body);
        std::vector<uint8_t> body = command == openpmix::Command::finalize ? status(PMIX_SUCCESS) : answer_of(message);
        if (!answer(fd, message.tag, body) || command == openpmix::Command::finalize) return;
    }
}

std::vector<uint8_t> FakeOpenPmixServer::status(pmix_status_t st)
{
    Writer writer(kV41);
    (void)writer.pack_status(st);
    return writer.take();
}

pmix_value_t u32_value(uint32_t v)
{
    pmix_value_t value{};
    value.type = PMIX_UINT32;
    value.data.uint32 = v;
    return value;
}

// A 2-rank job as an OpenPMIx server lays it out: job keys, then one
// pmix.pblob per rank.
std::vector<uint8_t> peer_key_answer()
{
    Writer object(kV41);
    pmix_proc_t peer{};
    PMIX_LOAD_PROCID(&peer, kJob, 1);
    (void)object.pack_proc(peer);
    (void)object.pack_kval("peer.key", u32_value(42));
    Writer writer(kV41);
    (void)writer.pack_status(PMIX_SUCCESS);
    (void)writer.pack_byte_object(object.bytes().data(), object.bytes().size());
    return writer.take();
}

std::vector<uint8_t> job_data()
{
    Writer writer(kV41);
    (void)writer.pack_string(kJob);
    (void)writer.pack_kval(PMIX_JOB_SIZE, u32_value(2));
    for (pmix_rank_t rank = 0; rank < 2; ++rank) {
        Writer blob(kV41);
        (void)blob.pack_rank(rank);
        pmix_value_t local{};
        local.type = PMIX_UINT16;
        local.data.uint16 = static_cast<uint16_t>(rank);
        (void)blob.pack_kval(PMIX_LOCAL_RANK, local);
        pmix_value_t bo{};
        bo.type = PMIX_BYTE_OBJECT;
        bo.data.bo.bytes = reinterpret_cast<char *>(const_cast<uint8_t *>(blob.bytes().data()));
        bo.data.bo.size = blob.bytes().size();
        (void)writer.pack_kval(PMIX_PROC_BLOB, bo);
    }
    return writer.take();
}

// Connect, then job data: what every script but the broken ones starts with.
bool greet(FakeOpenPmixServer &server, int fd)
{
    Message req;
    return server.take_connect_request(fd) && server.next(fd, &req) && server.answer(fd, req.tag, job_data());
}

}  // namespace pmixpp::testing
