#include "client/openpmix/handshake.h"

#include "client/openpmix/job_data.h"
#include <pmix.h>
#include "common/openpmix/commands.h"
#include "common/openpmix/connect.h"
#include "common/openpmix/frame.h"
#include "common/openpmix/version.h"
#include "common/runtime/log.h"
#include "common/wire/connection.h"

#include <arpa/inet.h>
#include <unistd.h>

#include <cstring>

namespace pmixpp::client {

namespace {

constexpr int kHandshakeTimeoutMs = 30000;
constexpr openpmix::Encoding kEncoding{openpmix::Bfrops::v41, openpmix::BufferType::non_desc};

uint32_t be32_of(const uint8_t *bytes)
{
    uint32_t raw = 0;
    std::memcpy(&raw, bytes, sizeof(raw));
    return ntohl(raw);
}

openpmix::ConnectFlag flag_of(const OpenPmixIdentity &identity)
{
    using openpmix::ConnectFlag;
    const bool named = identity.self.nspace[0] != '\0';
    switch (identity.role) {
    case OpenPmixRole::client: return ConnectFlag::simple_client;
    case OpenPmixRole::tool: return named ? ConnectFlag::tool_given_id : ConnectFlag::tool_needs_id;
    case OpenPmixRole::launcher: return named ? ConnectFlag::launcher_given_id : ConnectFlag::launcher_needs_id;
    }
    return ConnectFlag::simple_client;
}

bool needs_id(openpmix::ConnectFlag flag)
{
    return flag == openpmix::ConnectFlag::tool_needs_id || flag == openpmix::ConnectFlag::launcher_needs_id;
}

// What a tool tells the server's host about itself, as OpenPMIx's tools
// do: its pid, and that it is a launcher.
void add_tool_info(const OpenPmixIdentity &identity, openpmix::ConnectRequest &request)
{
    const bool launcher = identity.role == OpenPmixRole::launcher;
    const size_t n = launcher ? 2 : 1;
    pmix_info_t *info = nullptr;
    PMIX_INFO_CREATE(info, n);
    if (info == nullptr) return;
    const pid_t pid = ::getpid();
    PMIX_INFO_LOAD(&info[0], PMIX_PROC_PID, &pid, PMIX_PID);
    if (launcher) PMIX_INFO_LOAD(&info[1], PMIX_LAUNCHER, nullptr, PMIX_BOOL);
    request.info.adopt(info, n);
}

std::vector<uint8_t> connect_request(const OpenPmixIdentity &identity)
{
    openpmix::ConnectRequest request;
    request.psec = identity.psec;
    if (identity.psec == "native") {
        const uint32_t ids[2] = {static_cast<uint32_t>(getuid()), static_cast<uint32_t>(getgid())};
        const auto *first = reinterpret_cast<const uint8_t *>(ids);
        request.credential.assign(first, first + sizeof(ids));
    } else {
        request.credential = identity.credential;
        // OpenPMIx sends a munge credential with its terminating NUL, and its
        // server hands the bytes to munge_decode as a C string.
        if (identity.psec == "munge" && (request.credential.empty() || request.credential.back() != '\0')) {
            request.credential.push_back('\0');
        }
    }
    request.flag = flag_of(identity);
    if (identity.role == OpenPmixRole::client) {
        request.has_proc = true;
    } else {
        request.has_ids = true;  // what the kernel says of us; the server compares
        request.uid = static_cast<uint32_t>(::geteuid());
        request.gid = static_cast<uint32_t>(::getegid());
        request.has_proc = !needs_id(request.flag);
        add_tool_info(identity, request);
    }
    if (request.has_proc) {
        request.nspace = identity.self.nspace;
        request.rank = identity.self.rank;
    }
    request.version = openpmix::kAdvertisedVersion;
    request.bfrops = openpmix::bfrops_name(kEncoding.bfrops);
    request.buffer_type = kEncoding.type;
    request.gds = "hash";
    return openpmix::encode_connect_request(request);
}

pmix_status_t send_connect_request(int fd, const OpenPmixIdentity &identity, std::string *reason_p)
{
    const std::vector<uint8_t> body = connect_request(identity);
    const wire::HeaderBytes head = openpmix::encode_connect_header(static_cast<uint32_t>(body.size()));
    pmix_status_t rc = wire::send_bytes_blocking(fd, head, kHandshakeTimeoutMs, reason_p);
    if (rc == PMIX_SUCCESS) rc = wire::send_bytes_blocking(fd, body, kHandshakeTimeoutMs, reason_p);
    return rc;
}

pmix_status_t read_word(int fd, uint32_t *word_p, std::string *reason_p)
{
    uint8_t word[4];
    pmix_status_t rc = wire::recv_bytes_blocking(fd, word, kHandshakeTimeoutMs, reason_p);
    if (rc == PMIX_SUCCESS) *word_p = be32_of(word);
    return rc;
}

pmix_status_t read_status(int fd, std::string *reason_p)
{
    uint32_t word = 0;
    pmix_status_t rc = read_word(fd, &word, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    const auto status = static_cast<pmix_status_t>(word);
    if (status != PMIX_SUCCESS) *reason_p = std::string("it refused us: ") + PMIx_Error_string(status);
    return status;
}

// A name as a tool's answer carries it: the nspace in a fixed 256 bytes
// (NUL-terminated there), then the rank.
pmix_status_t read_fixed_proc(int fd, pmix_proc_t *proc_p, std::string *reason_p)
{
    std::vector<uint8_t> nspace(PMIX_MAX_NSLEN + 1);
    pmix_status_t rc = wire::recv_bytes_blocking(fd, nspace, kHandshakeTimeoutMs, reason_p);
    uint32_t rank = 0;
    if (rc == PMIX_SUCCESS) rc = read_word(fd, &rank, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    nspace.back() = '\0';
    PMIX_LOAD_PROCID(proc_p, reinterpret_cast<const char *>(nspace.data()), rank);
    return PMIX_SUCCESS;
}

// A client's answer: [status], then on success [index]. A tool's: [status],
// its name when it asked for one, the server's name, the psec status. All
// raw big-endian words.
pmix_status_t read_connect_answer(int fd, openpmix::ConnectFlag flag, OpenPmixGreeting *greeting_p,
                                  std::string *reason_p)
{
    pmix_status_t rc = read_status(fd, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    if (flag == openpmix::ConnectFlag::simple_client) return read_word(fd, &greeting_p->index, reason_p);
    if (needs_id(flag)) rc = read_fixed_proc(fd, &greeting_p->self, reason_p);
    if (rc == PMIX_SUCCESS) rc = read_fixed_proc(fd, &greeting_p->server, reason_p);
    if (rc == PMIX_SUCCESS) rc = read_status(fd, reason_p);
    if (rc == PMIX_SUCCESS && greeting_p->self.nspace[0] == '\0') {
        *reason_p = "it gave us no name";
        rc = PMIX_ERR_BAD_PARAM;
    }
    return rc;
}

// The header of the answer on `tag`. An event the server sends before it
// (on tag 0: one a peer raised as we connected) is read and dropped, as
// OpenPMIx's own client, with no handler registered yet, would drop it.
pmix_status_t read_answer_head(int fd, uint32_t tag, wire::HeaderBytes *head_p, std::string *reason_p)
{
    constexpr int kMaxSkipped = 64;
    for (int skipped = 0; skipped < kMaxSkipped; ++skipped) {
        pmix_status_t rc = wire::recv_bytes_blocking(fd, *head_p, kHandshakeTimeoutMs, reason_p);
        if (rc != PMIX_SUCCESS) return rc;
        const uint32_t got = be32_of(head_p->data() + 4);
        if (got == tag) return PMIX_SUCCESS;
        const uint32_t length = be32_of(head_p->data() + 8);
        if ((got != openpmix::kTagEvent && got != openpmix::kTagIof) || length > openpmix::kMaxConnectBody) {
            return PMIX_SUCCESS;  // not ours and not skippable: the caller says what it is
        }
        std::vector<uint8_t> dropped(length);
        rc = wire::recv_bytes_blocking(fd, dropped, kHandshakeTimeoutMs, reason_p);
        if (rc != PMIX_SUCCESS) return rc;
        runtime::log_trace("PMIX_MCA_pmix_client_verbose", "client",
                           "a message on tag " + std::to_string(got) + " before our job data, dropped");
    }
    *reason_p = "the server sent only events, not our job data";
    return PMIX_ERR_UNPACK_FAILURE;
}

// One request on `tag` and the server's answer to it, before the link's
// event loop runs. A tool sends the index -1: it has none.
pmix_status_t exchange(int fd, int32_t index, uint32_t tag, const openpmix::Writer &request,
                       std::vector<uint8_t> *answer_p, std::string *reason_p)
{
    const wire::HeaderBytes head = openpmix::encode_header(index, tag, static_cast<uint32_t>(request.bytes().size()));
    pmix_status_t rc = wire::send_bytes_blocking(fd, head, kHandshakeTimeoutMs, reason_p);
    if (rc == PMIX_SUCCESS) rc = wire::send_bytes_blocking(fd, request.bytes(), kHandshakeTimeoutMs, reason_p);
    wire::HeaderBytes answer_head{};
    if (rc == PMIX_SUCCESS) rc = read_answer_head(fd, tag, &answer_head, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    const uint32_t length = be32_of(answer_head.data() + 8);
    const wire::FrameLimits limits = wire::FrameLimits::from_environment();
    if (be32_of(answer_head.data() + 4) != tag || length == 0 || length > limits.max_payload) {
        *reason_p = "its answer to our request is " +
                    (length == 0 ? std::string("empty")
                                 : "not one (tag " + std::to_string(be32_of(answer_head.data() + 4)) + ", " +
                                       std::to_string(length) + " bytes)");
        return PMIX_ERR_UNPACK_FAILURE;
    }
    answer_p->resize(length);
    return wire::recv_bytes_blocking(fd, *answer_p, kHandshakeTimeoutMs, reason_p);
}

pmix_status_t request_job_data(int fd, int32_t index, std::vector<uint8_t> *answer_p, std::string *reason_p)
{
    openpmix::Writer writer(kEncoding);
    pmix_status_t rc = writer.pack_command(static_cast<uint8_t>(openpmix::Command::req));
    return rc == PMIX_SUCCESS ? exchange(fd, index, openpmix::kFirstRequestTag, writer, answer_p, reason_p) : rc;
}

// gds/ds21 keeps a namespace's job-level and per-rank data in shared
// memory we do not read, and its answer to REQ carries only the arrays.
// The server's own copy answers a get of the job (rank WILDCARD, no key)
// with all of it, each rank's in a PMIX_PROC_DATA. This happens in a job
// of both libraries, to whichever client asks while the namespace is ds21's.
pmix_status_t fetch_job_data_by_get(int fd, int32_t index, const char *nspace, const store::Store &store,
                                    std::string *reason_p)
{
    openpmix::Writer writer(kEncoding);
    pmix_status_t rc = writer.pack_command(static_cast<uint8_t>(openpmix::Command::get));
    if (rc == PMIX_SUCCESS) rc = writer.pack_string(nspace);
    if (rc == PMIX_SUCCESS) rc = writer.pack_rank(PMIX_RANK_WILDCARD);
    if (rc == PMIX_SUCCESS) rc = writer.pack_size(0);  // no directives, and no key: all of them
    std::vector<uint8_t> answer;
    if (rc == PMIX_SUCCESS) rc = exchange(fd, index, openpmix::kFirstRequestTag + 1, writer, &answer, reason_p);
    return rc == PMIX_SUCCESS ? import_openpmix_get_answer(kEncoding, answer, nspace, store, reason_p) : rc;
}

// Our job data came, but a peer's PMIX_LOCAL data stays in that shared
// memory, and OpenPMIx's clients of the job may find theirs missing.
void warn_of_ds21(const char *nspace)
{
    runtime::log_warning("client", std::string("the OpenPMIx server keeps namespace ") + nspace +
                                       " in gds/ds21's shared memory, which pmixpp does not read; our job data came "
                                       "by get, but in a job of both libraries the server must use gds/hash: set "
                                       "PMIX_MCA_gds=hash in its environment (docs/compat.md)");
}

}  // namespace

pmix_status_t greet_openpmix_server(int fd, const OpenPmixIdentity &identity, const store::Store &store,
                                    OpenPmixGreeting *greeting_p)
{
    std::string reason;
    OpenPmixGreeting greeting;
    greeting.self = identity.self;
    const openpmix::ConnectFlag flag = flag_of(identity);
    const bool client = flag == openpmix::ConnectFlag::simple_client;
    std::vector<uint8_t> answer;
    const char *stage = "sending our connect request";
    pmix_status_t rc = send_connect_request(fd, identity, &reason);
    if (rc == PMIX_SUCCESS) {
        stage = "reading its answer to our connect request";
        rc = read_connect_answer(fd, flag, &greeting, &reason);
    }
    if (rc == PMIX_SUCCESS) {
        stage = "asking for our job data";
        rc = request_job_data(fd, client ? static_cast<int32_t>(greeting.index) : -1, &answer, &reason);
    }
    if (rc == PMIX_SUCCESS) {
        stage = "reading our job data";
        // A tool's namespace is usually not a job the server knows: it
        // sends what it has, under whatever name, as OpenPMIx's tools accept.
        bool carried_job_level = false;
        rc = import_openpmix_job_data(kEncoding, answer, client ? greeting.self.nspace : nullptr, store, &reason,
                                      &carried_job_level);
        if (rc == PMIX_SUCCESS && client && !carried_job_level) {
            stage = "reading our job data by get (the server keeps it in gds/ds21's shared memory)";
            rc = fetch_job_data_by_get(fd, static_cast<int32_t>(greeting.index), greeting.self.nspace, store, &reason);
            if (rc == PMIX_SUCCESS) warn_of_ds21(greeting.self.nspace);
        }
    }
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("client", std::string("the OpenPMIx server did not take us in, ") + stage + ": " + reason +
                                           " (" + PMIx_Error_string(rc) + ")");
        return rc;
    }
    greeting.dialect = std::make_shared<OpenPmixServerDialect>(kEncoding, greeting.self);
    *greeting_p = std::move(greeting);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::client
