// Our client under a scripted stand-in for an OpenPMIx server
// (src/client/openpmix/, openpmix_fake_server.h): a whole life, IOF. The
// groups, invitations and credentials are in openpmix_groups_test.cc. The
// real thing (pmixrun on Debian's libpmix, Open MPI's
// mpirun) is in compat_interop; here the server misbehaves on purpose too:
// garbage job data, a connection closed after the handshake, a malformed
// answer to a get. Each ends in an error status, never a crash.
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <pmix.h>
#include <pmix_tool.h>

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/frame.h"
#include "common/wire/connection.h"
#include "openpmix_fake_server.h"

namespace {

using namespace pmixpp;
using namespace pmixpp::testing;
using openpmix::Encoding;
using openpmix::Reader;
using openpmix::Writer;

pmix_status_t get_u32(pmix_rank_t rank, const char *key, uint32_t *v_p)
{
    pmix_proc_t proc{};
    PMIX_LOAD_PROCID(&proc, kJob, rank);
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = PMIx_Get(&proc, key, nullptr, 0, &value);
    if (rc != PMIX_SUCCESS) return rc;
    if (value->type == PMIX_UINT32) *v_p = value->data.uint32;
    if (value->type == PMIX_UINT16) *v_p = value->data.uint16;
    PMIX_VALUE_RELEASE(value);
    return PMIX_SUCCESS;
}

// Whether a line of the test's redirected stderr has `part` (and `other`).
bool stderr_has_line_with(const char *part, const char *other = "")
{
    std::fflush(stderr);
    FILE *err = cr_get_redirected_stderr();
    char line[1024];
    while (std::fgets(line, sizeof(line), err) != nullptr) {
        if (std::strstr(line, part) != nullptr && std::strstr(line, other) != nullptr) return true;
    }
    return false;
}

}  // namespace

// Init through OpenPMIx's handshake and job data, a put and commit in its
// buckets, a fence, a peer's key through its get, finalize.
Test(openpmix_server, a_client_lives_a_whole_life, .timeout = 60)
{
    FakeOpenPmixServer server;
    server.run([](FakeOpenPmixServer &s, int fd) {
        if (!greet(s, fd)) return;
        s.serve(fd, [](const Message &m) {
            return static_cast<openpmix::Command>(m.command) == openpmix::Command::get
                       ? peer_key_answer()
                       : FakeOpenPmixServer::status(PMIX_SUCCESS);
        });
    });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    cr_expect_str_eq(me.nspace, kJob);
    uint32_t v = 0;
    cr_expect_eq(get_u32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &v), PMIX_SUCCESS);
    cr_expect_eq(v, 2u);
    cr_expect_eq(get_u32(0, PMIX_LOCAL_RANK, &v), PMIX_SUCCESS);
    cr_expect_eq(v, 0u);
    pmix_value_t mine = u32_value(5);
    cr_expect_eq(PMIx_Put(PMIX_GLOBAL, "my.key", &mine), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Commit(), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Fence(nullptr, 0, nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(get_u32(1, "peer.key", &v), PMIX_SUCCESS);
    cr_expect_eq(v, 42u);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();

    // The connect request named OpenPMIx's simple client of version 4.2.2 in v41.
    const std::string body(server.connect_body.begin(), server.connect_body.end());
    cr_expect(body.find("native") == 0, "psec first");
    cr_expect(body.find(kJob) != std::string::npos);
    cr_expect(body.find("4.2.2") != std::string::npos && body.find("v41") != std::string::npos);
    // A GLOBAL put went in both buckets: [scope LOCAL][BUFFER][scope REMOTE][BUFFER].
    cr_assert_eq(server.commits.size(), 1u);
    Reader commit(kV41, server.commits[0]);
    int32_t n = 1;
    uint8_t command = 0;
    cr_assert_eq(commit.unpack(PMIX_UINT8, &command, &n), PMIX_SUCCESS);
    for (pmix_scope_t expected : {PMIX_LOCAL, PMIX_REMOTE}) {
        pmix_scope_t scope = PMIX_SCOPE_UNDEF;
        pmix_data_buffer_t kvals{};
        n = 1;
        cr_assert_eq(commit.unpack(PMIX_SCOPE, &scope, &n), PMIX_SUCCESS);
        cr_expect_eq(scope, expected);
        n = 1;
        cr_assert_eq(commit.unpack(PMIX_BUFFER, &kvals, &n), PMIX_SUCCESS);
        Reader inner(kV41,
                     std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(kvals.base_ptr), kvals.bytes_used));
        std::string key;
        pmix_value_t value{};
        cr_expect_eq(inner.unpack_kval(&key, &value), PMIX_SUCCESS);
        cr_expect_str_eq(key.c_str(), "my.key");
        PMIX_DATA_BUFFER_DESTRUCT(&kvals);
    }
    const std::vector<uint8_t> sent = server.seen;
    const auto has = [&](openpmix::Command c) {
        for (uint8_t s : sent) {
            if (s == static_cast<uint8_t>(c)) return true;
        }
        return false;
    };
    cr_expect(has(openpmix::Command::req) && has(openpmix::Command::fence) && has(openpmix::Command::get) &&
              has(openpmix::Command::finalize));
}

namespace {

// What an OpenPMIx 4.2 server answers REQ with when the namespace is
// gds/ds21's: the namespace and the arrays, the rest in its shared memory.
std::vector<uint8_t> ds21_job_data()
{
    pmix_info_t session[1];
    PMIX_INFO_LOAD(&session[0], PMIX_SESSION_ID, nullptr, PMIX_UINT32);
    session[0].value.data.uint32 = 7;
    pmix_data_array_t array{};
    array.type = PMIX_INFO;
    array.size = 1;
    array.array = session;
    pmix_value_t value{};
    value.type = PMIX_DATA_ARRAY;
    value.data.darray = &array;
    Writer writer(kV41);
    (void)writer.pack_string(kJob);
    (void)writer.pack_kval(PMIX_SESSION_INFO_ARRAY, value);
    return writer.take();
}

// Its answer to a get of the job (rank WILDCARD, no key): job keys and one
// PMIX_PROC_DATA per rank, the rank first.
std::vector<uint8_t> whole_job_answer()
{
    Writer object(kV41);
    pmix_proc_t job{};
    PMIX_LOAD_PROCID(&job, kJob, PMIX_RANK_WILDCARD);
    (void)object.pack_proc(job);
    (void)object.pack_kval(PMIX_JOB_SIZE, u32_value(2));
    for (pmix_rank_t rank = 0; rank < 2; ++rank) {
        pmix_info_t items[2];
        PMIX_INFO_LOAD(&items[0], PMIX_RANK, &rank, PMIX_PROC_RANK);
        const uint16_t local = static_cast<uint16_t>(rank);
        PMIX_INFO_LOAD(&items[1], PMIX_LOCAL_RANK, &local, PMIX_UINT16);
        pmix_data_array_t array{};
        array.type = PMIX_INFO;
        array.size = 2;
        array.array = items;
        pmix_value_t value{};
        value.type = PMIX_DATA_ARRAY;
        value.data.darray = &array;
        (void)object.pack_kval(PMIX_PROC_DATA, value);
    }
    Writer writer(kV41);
    (void)writer.pack_status(PMIX_SUCCESS);
    (void)writer.pack_byte_object(object.bytes().data(), object.bytes().size());
    return writer.take();
}

// The get it expects: [cmd][nspace][rank WILDCARD][ninfo 0] and no key.
bool is_whole_job_get(const Message &m)
{
    Reader reader(kV41, m.body);
    uint8_t command = 0;
    int32_t n = 1;
    std::string nspace;
    pmix_rank_t rank = 0;
    size_t ninfo = 1;
    return reader.unpack(PMIX_UINT8, &command, &n) == PMIX_SUCCESS && reader.unpack_string(&nspace) == PMIX_SUCCESS &&
           reader.unpack_rank(&rank) == PMIX_SUCCESS && reader.unpack_size(&ninfo) == PMIX_SUCCESS &&
           m.as_command() == openpmix::Command::get && nspace == kJob && rank == PMIX_RANK_WILDCARD && ninfo == 0 &&
           reader.at_end();
}

}  // namespace

// In a job of both libraries under OpenPMIx's server, the namespace can be
// gds/ds21's when our REQ comes (its OpenPMIx client connected last): the
// answer has only the arrays, and the client reads the rest with one get
// of the whole job, saying why in one line.
Test(openpmix_server, job_data_left_in_ds21_comes_by_get, .init = cr_redirect_stderr, .timeout = 60)
{
    FakeOpenPmixServer server;
    static bool asked_well = false;
    server.run([](FakeOpenPmixServer &s, int fd) {
        Message req;
        Message get;
        if (!s.take_connect_request(fd) || !s.next(fd, &req) || !s.answer(fd, req.tag, ds21_job_data())) return;
        if (!s.next(fd, &get)) return;
        asked_well = is_whole_job_get(get);
        if (!s.answer(fd, get.tag, whole_job_answer())) return;
        s.serve(fd, [](const Message &) { return FakeOpenPmixServer::status(PMIX_SUCCESS); });
    });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    uint32_t v = 0;
    cr_expect_eq(get_u32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &v), PMIX_SUCCESS);
    cr_expect_eq(v, 2u);
    cr_expect_eq(get_u32(1, PMIX_LOCAL_RANK, &v), PMIX_SUCCESS);
    cr_expect_eq(v, 1u);
    cr_expect_eq(get_u32(PMIX_RANK_WILDCARD, PMIX_SESSION_ID, &v), PMIX_SUCCESS);
    cr_expect_eq(v, 7u);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
    cr_expect(asked_well, "the get was not [get][nspace][WILDCARD][0 infos]");
    cr_expect(stderr_has_line_with("gds/ds21", "PMIX_MCA_gds=hash"), "no line named gds/ds21 and the fix");
}

// Job data that does not read: init fails with a status and a line that
// says so.
Test(openpmix_server, garbage_job_data_fails_init, .init = cr_redirect_stderr, .timeout = 60)
{
    FakeOpenPmixServer server;
    server.run([](FakeOpenPmixServer &s, int fd) {
        Message req;
        if (s.take_connect_request(fd) && s.next(fd, &req)) s.answer(fd, req.tag, std::vector<uint8_t>(40, 0xEE));
    });
    pmix_proc_t me{};
    const pmix_status_t rc = PMIx_Init(&me, nullptr, 0);
    server.join();
    cr_expect_neq(rc, PMIX_SUCCESS);
    cr_expect(stderr_has_line_with("did not take us in, reading our job data"), "no line said why init failed");
}

// The server goes away right after accepting us.
Test(openpmix_server, a_server_that_closes_after_the_handshake_fails_init, .init = cr_redirect_stderr, .timeout = 60)
{
    FakeOpenPmixServer server;
    server.run([](FakeOpenPmixServer &s, int fd) { (void)s.take_connect_request(fd); });
    pmix_proc_t me{};
    cr_expect_neq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
}

// A refusal: the status alone, then the end.
Test(openpmix_server, a_refusal_is_init_s_status, .init = cr_redirect_stderr, .timeout = 60)
{
    FakeOpenPmixServer server;
    server.run([](FakeOpenPmixServer &s, int fd) {
        wire::HeaderBytes head{};
        (void)wire::recv_bytes_blocking(fd, head, kIoMs);
        std::vector<uint8_t> body(head[8] | head[9] << 8 | head[10] << 16 | head[11] << 24);
        (void)wire::recv_bytes_blocking(fd, body, kIoMs);
        (void)s.send_words(fd, {PMIX_ERR_INVALID_CRED});
    });
    pmix_proc_t me{};
    cr_expect_eq(PMIx_Init(&me, nullptr, 0), PMIX_ERR_INVALID_CRED);
}

// A get answered with bytes that do not read fails that get only; the next
// one is served.
Test(openpmix_server, a_malformed_answer_fails_one_get, .init = cr_redirect_stderr, .timeout = 60)
{
    FakeOpenPmixServer server;
    server.run([](FakeOpenPmixServer &s, int fd) {
        if (!greet(s, fd)) return;
        int gets = 0;
        s.serve(fd, [&gets](const Message &m) {
            if (static_cast<openpmix::Command>(m.command) != openpmix::Command::get) {
                return FakeOpenPmixServer::status(PMIX_SUCCESS);
            }
            std::vector<uint8_t> broken = FakeOpenPmixServer::status(PMIX_SUCCESS);
            broken.insert(broken.end(), {0x7f, 0xff, 0xff});
            return ++gets == 1 ? broken : peer_key_answer();
        });
    });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    uint32_t v = 0;
    cr_expect_neq(get_u32(1, "peer.key", &v), PMIX_SUCCESS);
    cr_expect_eq(get_u32(1, "peer.key", &v), PMIX_SUCCESS);
    cr_expect_eq(v, 42u);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

namespace {

// What the fake server read of an IOF pull and its deregistration.
struct PullSeen {
    size_t nprocs = 0;
    pmix_proc_t proc{};
    uint16_t channel = 0;
    size_t local_id = SIZE_MAX;
    size_t deregistered = SIZE_MAX;  // the server id the deregistration named
    std::string pushed;              // the data of a push
    size_t push_targets = 0;
};

// [cmd][ntargets][targets][ndirs][dirs][data]
void read_push(const Message &m, PullSeen *seen_p)
{
    Reader reader(kV41, m.body);
    int32_t n = 1;
    uint8_t command = 0;
    pmix_proc_t *targets = nullptr;
    pmix_info_t *dirs = nullptr;
    size_t ndirs = 0;
    pmix_byte_object_t data{};
    if (reader.unpack(PMIX_UINT8, &command, &n) != PMIX_SUCCESS ||
        reader.unpack_counted(PMIX_PROC, reinterpret_cast<void **>(&targets), &seen_p->push_targets) != PMIX_SUCCESS ||
        reader.unpack_counted(PMIX_INFO, reinterpret_cast<void **>(&dirs), &ndirs) != PMIX_SUCCESS) {
        return;
    }
    n = 1;
    if (reader.unpack(PMIX_BYTE_OBJECT, &data, &n) == PMIX_SUCCESS && data.bytes != nullptr) {
        seen_p->pushed.assign(data.bytes, data.size);
    }
    PMIX_BYTE_OBJECT_DESTRUCT(&data);
    if (targets != nullptr) PMIX_PROC_FREE(targets, seen_p->push_targets);
    if (dirs != nullptr) PMIX_INFO_FREE(dirs, ndirs);
}

constexpr size_t kServerPullId = 55;

// [cmd][nprocs][procs][ndirs][dirs][channel][local id]
bool read_pull(const Message &m, PullSeen *seen_p)
{
    Reader reader(kV41, m.body);
    int32_t n = 1;
    uint8_t command = 0;
    pmix_proc_t *procs = nullptr;
    pmix_info_t *dirs = nullptr;
    size_t ndirs = 0;
    bool ok = reader.unpack(PMIX_UINT8, &command, &n) == PMIX_SUCCESS &&
              reader.unpack_counted(PMIX_PROC, reinterpret_cast<void **>(&procs), &seen_p->nprocs) == PMIX_SUCCESS &&
              reader.unpack_counted(PMIX_INFO, reinterpret_cast<void **>(&dirs), &ndirs) == PMIX_SUCCESS;
    if (ok && seen_p->nprocs > 0) seen_p->proc = procs[0];
    n = 1;
    ok = ok && reader.unpack(PMIX_IOF_CHANNEL, &seen_p->channel, &n) == PMIX_SUCCESS &&
         reader.unpack_size(&seen_p->local_id) == PMIX_SUCCESS;
    if (procs != nullptr) PMIX_PROC_FREE(procs, seen_p->nprocs);
    if (dirs != nullptr) PMIX_INFO_FREE(dirs, ndirs);
    return ok;
}

// Tag 2: [source][channel][the puller's id][ninfo][infos][data]
std::vector<uint8_t> output_message(size_t local_id, const char *text)
{
    Writer writer(kV41);
    pmix_proc_t source{};
    PMIX_LOAD_PROCID(&source, kJob, 1);
    const pmix_iof_channel_t channel = PMIX_FWD_STDOUT_CHANNEL;
    (void)writer.pack_proc(source);
    (void)writer.pack(PMIX_IOF_CHANNEL, &channel, 1);
    (void)writer.pack_size(local_id);
    (void)writer.pack_size(0);
    (void)writer.pack_byte_object(text, std::strlen(text));
    return writer.take();
}

std::mutex g_output_lock;
std::string g_output;

void on_output(size_t, pmix_iof_channel_t, pmix_proc_t *, pmix_byte_object_t *payload, pmix_info_t[], size_t)
{
    std::lock_guard lock(g_output_lock);
    if (payload != nullptr && payload->bytes != nullptr) g_output.append(payload->bytes, payload->size);
}

std::string output_so_far()
{
    std::lock_guard lock(g_output_lock);
    return g_output;
}

}  // namespace

// A pull goes as OpenPMIx's IOF_PULL with an id of ours, the output the
// server sends on tag 2 under that id reaches the handler, a push carries
// its bytes, and the deregistration names the server's id of the pull.
Test(openpmix_server, an_iof_pull_gets_its_output, .timeout = 60)
{
    FakeOpenPmixServer server;
    PullSeen seen;
    server.run([&seen](FakeOpenPmixServer &s, int fd) {
        if (!greet(s, fd)) return;
        Message m;
        while (s.next(fd, &m)) {
            const auto command = static_cast<openpmix::Command>(m.command);
            if (command == openpmix::Command::iof_pull) {
                if (!read_pull(m, &seen)) return;
                Writer answer(kV41);
                (void)answer.pack_status(PMIX_SUCCESS);
                (void)answer.pack_size(kServerPullId);
                if (!s.answer(fd, m.tag, answer.take())) return;
                if (!s.answer(fd, openpmix::kTagIof, output_message(seen.local_id, "hello from rank 1\n"))) return;
                continue;
            }
            if (command == openpmix::Command::iof_push) read_push(m, &seen);
            if (command == openpmix::Command::iof_deregister) {
                Reader reader(kV41, m.body);
                int32_t n = 1;
                uint8_t cmd = 0;
                size_t ndirs = 0;
                (void)reader.unpack(PMIX_UINT8, &cmd, &n);
                (void)reader.unpack_size(&ndirs);
                (void)reader.unpack_size(&seen.deregistered);
            }
            const bool last = command == openpmix::Command::finalize;
            if (!s.answer(fd, m.tag, FakeOpenPmixServer::status(PMIX_SUCCESS)) || last) return;
        }
    });
    pmix_proc_t me{};
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_proc_t rank1{};
    PMIX_LOAD_PROCID(&rank1, kJob, 1);
    const pmix_status_t id = PMIx_IOF_pull(&rank1, 1, nullptr, 0, PMIX_FWD_STDOUT_CHANNEL, on_output, nullptr, nullptr);
    cr_assert_geq(id, 0, "PMIx_IOF_pull: %s", PMIx_Error_string(id));
    for (int i = 0; i < 500 && output_so_far().empty(); ++i) ::usleep(10000);
    const std::string output = output_so_far();
    cr_expect_str_eq(output.c_str(), "hello from rank 1\n");
    char input[] = "input\n";
    pmix_byte_object_t bo{input, sizeof input - 1};
    cr_expect_eq(PMIx_IOF_push(&rank1, 1, &bo, nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
    cr_expect_eq(PMIx_IOF_deregister(static_cast<size_t>(id), nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
    cr_expect_eq(seen.nprocs, 1u);
    cr_expect_str_eq(seen.proc.nspace, kJob);
    cr_expect_eq(seen.proc.rank, 1u);
    cr_expect_eq(seen.channel, PMIX_FWD_STDOUT_CHANNEL);
    cr_expect_neq(seen.local_id, SIZE_MAX);
    cr_expect_eq(seen.deregistered, kServerPullId, "the deregistration named %zu, not the server's id",
                 seen.deregistered);
    cr_expect_eq(seen.push_targets, 1u);
    cr_expect_str_eq(seen.pushed.c_str(), "input\n");
}
