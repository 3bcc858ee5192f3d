#include "server/server_fixture.h"

#include "common/values/value_ops.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>
#include <sstream>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace server_test {

using namespace pmixpp;

namespace {

std::vector<std::string> &tmpdirs_to_remove()
{
    static std::vector<std::string> dirs;
    return dirs;
}

// Each Criterion test is its own process: what it made goes when it exits.
void remove_tmpdirs()
{
    for (const std::string &dir : tmpdirs_to_remove()) {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
}

}  // namespace

std::string make_tmpdir()
{
    char pattern[] = "/tmp/pmixpp-srv-XXXXXX";
    const char *dir = mkdtemp(pattern);
    cr_assert(dir != nullptr, "mkdtemp failed");
    if (tmpdirs_to_remove().empty()) std::atexit(remove_tmpdirs);
    tmpdirs_to_remove().push_back(dir);
    return dir;
}

void start_server(const std::string &tmpdir, pmix_server_module_t *module)
{
    pmix_info_t info[4];
    const pmix_rank_t rank = 7;
    values::info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
    values::info_load(&info[1], PMIX_HOSTNAME, kHost, PMIX_STRING);
    values::info_load(&info[2], PMIX_SERVER_NSPACE, "srv", PMIX_STRING);
    values::info_load(&info[3], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    const pmix_status_t rc = PMIx_server_init(module, info, 4);
    for (auto &item : info) values::info_destruct(&item);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIx_server_init: %s", PMIx_Error_string(rc));
}

// Ranks 0..count-1 of `nspace` as this user's clients.
void register_clients(const char *nspace, uint32_t count)
{
    for (uint32_t rank = 0; rank < count; ++rank) {
        pmix_proc_t proc{};
        std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
        proc.rank = rank;
        const pmix_status_t rc = PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, nullptr, nullptr);
        cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register_client: %s", PMIx_Error_string(rc));
    }
}

void register_job(const char *nspace, uint32_t size)
{
    std::string procs;
    for (uint32_t rank = 0; rank < size; ++rank) procs += (rank ? "," : "") + std::to_string(rank);
    pmix_info_t info[3];
    values::info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    values::info_load(&info[1], PMIX_NODE_MAP, kHost, PMIX_STRING);
    values::info_load(&info[2], PMIX_PROC_MAP, procs.c_str(), PMIX_STRING);
    pmix_status_t rc = PMIx_server_register_nspace(nspace, static_cast<int>(size), info, 3, nullptr, nullptr);
    for (auto &item : info) values::info_destruct(&item);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register_nspace: %s", PMIx_Error_string(rc));
    register_clients(nspace, size);
}

void register_job_with_a_remote_rank(const char *nspace, uint32_t local_ranks)
{
    const uint32_t size = local_ranks + 1;
    std::string local;
    for (uint32_t rank = 0; rank < local_ranks; ++rank) local += (rank ? "," : "") + std::to_string(rank);
    const std::string node_map = std::string(kHost) + ",farhost";
    const std::string proc_map = local + ";" + std::to_string(local_ranks);
    pmix_info_t info[3];
    values::info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    values::info_load(&info[1], PMIX_NODE_MAP, node_map.c_str(), PMIX_STRING);
    values::info_load(&info[2], PMIX_PROC_MAP, proc_map.c_str(), PMIX_STRING);
    const pmix_status_t rc =
        PMIx_server_register_nspace(nspace, static_cast<int>(local_ranks), info, 3, nullptr, nullptr);
    for (auto &item : info) values::info_destruct(&item);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register_nspace: %s", PMIx_Error_string(rc));
    register_clients(nspace, local_ranks);
}

std::map<std::string, std::string> fork_env(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
    proc.rank = rank;
    char **env = nullptr;
    const pmix_status_t rc = PMIx_server_setup_fork(&proc, &env);
    cr_assert_eq(rc, PMIX_SUCCESS, "setup_fork: %s", PMIx_Error_string(rc));
    std::map<std::string, std::string> vars;
    for (char **entry = env; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string text = *entry;
        const auto eq = text.find('=');
        vars[text.substr(0, eq)] = text.substr(eq + 1);
        std::free(*entry);
    }
    std::free(env);
    return vars;
}

RawClient::RawClient()
{
    const std::string uris = fork_env(kJob, 0)["PMIXPP_SERVER_URIS"];
    const std::string uri = uris.substr(0, uris.find(';'));
    cr_assert(uri.rfind("usock:/", 0) == 0, "unexpected URI '%s'", uri.c_str());
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, uri.c_str() + 6, sizeof(address.sun_path) - 1);
    fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    cr_assert(fd_ >= 0);
    cr_assert_eq(connect(fd_, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0, "cannot connect to %s",
                 uri.c_str());
}

RawClient::~RawClient()
{
    if (fd_ >= 0) close(fd_);
}

wire::Hello RawClient::default_hello(const char *nspace, pmix_rank_t rank)
{
    wire::Hello hello;
    hello.nspace = nspace;
    hello.rank = rank;
    hello.pid = getpid();
    hello.psec_module = "native";
    hello.gds_modules = {"hash"};
    hello.ptl_module = "usock";
    hello.library_version = "test";
    return hello;
}

pmix_status_t RawClient::hello(const char *nspace, pmix_rank_t rank, wire::Welcome *welcome_p, wire::Refuse *refuse_p)
{
    return hello_with(default_hello(nspace, rank), welcome_p, refuse_p);
}

pmix_status_t RawClient::hello_with(const wire::Hello &hello, wire::Welcome *welcome_p, wire::Refuse *refuse_p)
{
    send_hello(hello);
    return receive_hello_answer(welcome_p, refuse_p);
}

void RawClient::send_hello(const wire::Hello &hello)
{
    wire::Bytes bytes;
    cr_assert_eq(wire::encode_to_bytes(hello, &bytes), PMIX_SUCCESS);
    cr_assert_eq(wire::send_frame_blocking(fd_, wire::FrameKind::handshake, 0, bytes, kTimeoutMs), PMIX_SUCCESS);
}

pmix_status_t RawClient::receive_hello_answer(wire::Welcome *welcome_p, wire::Refuse *refuse_p)
{
    wire::Frame frame;
    receive_checked(&frame);
    cr_assert_eq(frame.header.kind, wire::FrameKind::handshake);
    wire::HandshakeMessage type{};
    cr_assert_eq(wire::peek_handshake(frame.payload, &type), PMIX_SUCCESS);
    if (type == wire::HandshakeMessage::Welcome) {
        wire::Welcome welcome;
        decode_checked(wire::decode_payload(frame.payload, &welcome));
        if (welcome_p != nullptr) *welcome_p = std::move(welcome);
        return PMIX_SUCCESS;
    }
    wire::Refuse refuse;
    decode_checked(wire::decode_payload(frame.payload, &refuse));
    const pmix_status_t status = refuse.status;
    if (refuse_p != nullptr) *refuse_p = std::move(refuse);
    return status;
}

void RawClient::send_raw(const void *bytes, size_t size)
{
    cr_assert_eq(write(fd_, bytes, size), static_cast<ssize_t>(size));
}

pmix_status_t RawClient::receive(wire::Frame *frame_p)
{
    return wire::recv_frame_blocking(fd_, wire::FrameLimits{}, kTimeoutMs, frame_p);
}

void RawClient::send_checked(pmix_status_t encoded, uint32_t tag, const wire::Bytes &bytes)
{
    cr_assert_eq(encoded, PMIX_SUCCESS);
    cr_assert_eq(wire::send_frame_blocking(fd_, wire::FrameKind::request, tag, bytes, kTimeoutMs), PMIX_SUCCESS);
}

void RawClient::receive_checked(wire::Frame *frame_p)
{
    const pmix_status_t rc = receive(frame_p);
    cr_assert_eq(rc, PMIX_SUCCESS, "no frame from the server: %s", PMIx_Error_string(rc));
}

void RawClient::decode_checked(pmix_status_t rc)
{
    cr_assert_eq(rc, PMIX_SUCCESS, "undecodable message: %s", PMIx_Error_string(rc));
}

wire::InfoArray one_info(const char *key, const void *data, pmix_data_type_t type)
{
    wire::InfoArray array;
    cr_assert_eq(array.allocate(1), PMIX_SUCCESS);
    values::info_load(&array[0], key, data, type);
    return array;
}

}  // namespace server_test
