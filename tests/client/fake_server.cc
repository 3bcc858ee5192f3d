#include "client/fake_server.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include <pmix.h>
#include <pmixpp/gds.h>

#include "client/core/singleton.h"
#include "common/store/store.h"
#include "framework/src/selected_modules.h"
#include "server/jobdata/registration.h"

namespace client_test {

using namespace pmixpp;

namespace {

// The exported job data of kJobNspace: 2 procs, both on this host.
bool job_blob(wire::Bytes *blob_p)
{
    std::vector<framework::SelectedModule> modules;
    if (framework::select("gds", &modules) != PMIX_SUCCESS || modules.empty()) {
        return false;
    }
    std::unique_ptr<store::Store> st;
    if (store::Store::create(static_cast<const pmixpp_gds_module_t *>(modules[0].module), &st) != PMIX_SUCCESS) {
        return false;
    }
    std::string host = pmixpp::client::local_hostname();
    uint32_t two = 2;
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_NODE_MAP, host.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_PROC_MAP, "0,1", PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_JOB_SIZE, &two, PMIX_UINT32);
    jobdata::Options options;
    options.local_hostname = host;
    pmix_status_t rc = jobdata::register_nspace(kJobNspace, 2, info, 3, options, *st, nullptr);
    for (auto &i : info) {
        PMIX_INFO_DESTRUCT(&i);
    }
    if (rc != PMIX_OPERATION_SUCCEEDED) {
        return false;
    }
    pmix_byte_object_t bo{};
    if (st->export_nspace(kJobNspace, &bo) != PMIX_SUCCESS) {
        return false;
    }
    const auto *first = reinterpret_cast<const uint8_t *>(bo.bytes);
    blob_p->assign(first, first + bo.size);
    free(bo.bytes);
    return true;
}

}  // namespace

FakeServer::FakeServer(pmix_rank_t rank)
{
    char tmpl[] = "/tmp/pmixpp-client-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
        std::abort();
    }
    dir_ = tmpl;
    path_ = dir_ + "/server.sock";
    listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof addr.sun_path - 1);
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
        ::listen(listen_fd_, 4) != 0) {
        std::abort();
    }
    std::string uri = "usock:" + path_;
    setenv("PMIXPP_SERVER_URIS", uri.c_str(), 1);
    std::string legacy = std::string(kServerNspace) + ".0;" + uri;
    setenv("PMIX_SERVER_URI41", legacy.c_str(), 1);
    setenv("PMIX_NAMESPACE", kJobNspace, 1);
    setenv("PMIX_RANK", std::to_string(rank).c_str(), 1);
    setenv("PMIX_SECURITY_MODE", "native", 1);
    setenv("PMIX_GDS_MODULE", "hash", 1);
}

FakeServer::~FakeServer()
{
    join();
    if (listen_fd_ >= 0) {
        ::close(listen_fd_);
    }
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
}

void FakeServer::run(Script script)
{
    thread_ = std::thread([this, script = std::move(script)] {
        int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            return;
        }
        script(*this, fd);
        ::close(fd);
    });
}

void FakeServer::join()
{
    if (thread_.joinable()) {
        thread_.join();
    }
}

bool FakeServer::read_hello(int fd)
{
    wire::Frame frame;
    if (wire::recv_frame_blocking(fd, wire::FrameLimits{}, kIoTimeoutMs, &frame) != PMIX_SUCCESS ||
        frame.header.kind != wire::FrameKind::handshake) {
        return false;
    }
    wire::Hello decoded;
    if (wire::decode_payload(frame.payload, &decoded) != PMIX_SUCCESS) {
        return false;
    }
    std::lock_guard lock(mutex);
    hello = std::move(decoded);
    got_hello = true;
    return true;
}

bool FakeServer::send_welcome(int fd, pmix_rank_t rank)
{
    wire::Welcome welcome;
    welcome.gds_module = "hash";
    welcome.server_nspace = kServerNspace;
    welcome.server_rank = 0;
    welcome.peer_nspace = kJobNspace;
    welcome.peer_rank = rank;
    welcome.library_version = "fake";
    if (!job_blob(&welcome.job_data)) {
        return false;
    }
    return send(fd, wire::FrameKind::handshake, wire::kNoTag, welcome);
}

bool FakeServer::send_refuse(int fd, pmix_status_t status, const char *reason)
{
    wire::Refuse refuse;
    refuse.status = status;
    refuse.reason = reason;
    return send(fd, wire::FrameKind::handshake, wire::kNoTag, refuse);
}

bool FakeServer::read_request(int fd, wire::Frame *frame_p, wire::Command *cmd_p)
{
    if (wire::recv_frame_blocking(fd, wire::FrameLimits{}, kIoTimeoutMs, frame_p) != PMIX_SUCCESS ||
        frame_p->header.kind != wire::FrameKind::request ||
        wire::peek_command(frame_p->payload, cmd_p) != PMIX_SUCCESS) {
        return false;
    }
    std::lock_guard lock(mutex);
    commands.push_back(*cmd_p);
    return true;
}

std::string string_of(const pmix_value_t *value)
{
    if (value == nullptr || value->type != PMIX_STRING || value->data.string == nullptr) {
        return "";
    }
    return value->data.string;
}

}  // namespace client_test
