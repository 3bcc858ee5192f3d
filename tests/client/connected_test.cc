// The client against a scripted fake server over a real Unix socket:
// handshake (welcome and refuse), get round trip and caching, commit, fence
// with collected data, events from the server, finalize, and a server that
// goes away in the middle of a request.
#include <criterion/criterion.h>

#include <pmix.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "client/fake_server.h"

using namespace client_test;
using namespace pmixpp;

namespace {

// A flag a callback on the progress thread sets and the test waits for.
struct Signal {
    std::mutex mutex;
    std::condition_variable cond;
    int count = 0;
    pmix_status_t status = PMIX_ERROR;

    void raise(pmix_status_t st)
    {
        std::lock_guard lock(mutex);
        status = st;
        ++count;
        cond.notify_all();
    }
    // Bounded so a broken client fails the test instead of hanging it.
    bool wait(int n = 1)
    {
        std::unique_lock lock(mutex);
        return cond.wait_for(lock, std::chrono::seconds(30), [&] { return count >= n; });
    }
};

Signal g_event;
pmix_status_t g_event_code = PMIX_SUCCESS;

void record_event(size_t, pmix_status_t status, const pmix_proc_t *, pmix_info_t[], size_t, pmix_info_t *, size_t,
                  pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    g_event_code = status;
    if (cbfunc != nullptr) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, nullptr, 0, nullptr, nullptr, cbdata);
    }
    g_event.raise(status);
}

// Serves one client: every request the tests use, until Finalize or EOF.
void serve(FakeServer &server, int fd)
{
    if (!server.read_hello(fd) || !server.send_welcome(fd, 0)) {
        return;
    }
    wire::Frame frame;
    wire::Command cmd{};
    while (server.read_request(fd, &frame, &cmd)) {
        uint32_t tag = frame.header.tag;
        switch (cmd) {
        case wire::Command::Get: {
            wire::GetRequest get;
            (void)wire::decode_payload(frame.payload, &get);
            {
                std::lock_guard lock(server.mutex);
                server.get_keys.push_back(get.key);
            }
            wire::GetReply reply;
            (void)reply.data.allocate(1);
            PMIX_INFO_LOAD(&reply.data[0], "peer.key", "from-server", PMIX_STRING);
            server.reply(fd, tag, reply);
            break;
        }
        case wire::Command::Commit: {
            wire::CommitRequest commit;
            (void)wire::decode_payload(frame.payload, &commit);
            {
                std::lock_guard lock(server.mutex);
                for (const auto *scope : {&commit.local, &commit.remote, &commit.global}) {
                    for (const auto &info : *scope) {
                        server.committed_keys.emplace_back(info.key);
                    }
                }
            }
            server.reply(fd, tag, wire::StatusReply{});
            break;
        }
        case wire::Command::Fence: {
            std::vector<wire::ProcData> procs(1);
            PMIX_LOAD_PROCID(&procs[0].proc, kJobNspace, 1);
            uint32_t answer = 42;
            (void)procs[0].info.allocate(1);
            PMIX_INFO_LOAD(&procs[0].info[0], "fence.key", &answer, PMIX_UINT32);
            wire::FenceReply reply;
            (void)wire::encode_modex(procs, &reply.data);
            server.reply(fd, tag, reply);
            break;
        }
        case wire::Command::RegisterEvents: {
            wire::RegisterEventsReply reply;
            reply.reference = 7;
            server.reply(fd, tag, reply);
            wire::Event event;
            event.status = PMIX_ERR_PROC_ABORTED;
            PMIX_LOAD_PROCID(&event.source, kServerNspace, 0);
            event.range = PMIX_RANGE_NAMESPACE;
            server.notify(fd, event);
            break;
        }
        case wire::Command::Finalize: server.reply(fd, tag, wire::StatusReply{}); return;
        default: {
            wire::StatusReply unsupported;
            unsupported.status = PMIX_ERR_NOT_SUPPORTED;
            server.reply(fd, tag, unsupported);
            break;
        }
        }
    }
}

size_t count_of(FakeServer &server, wire::Command cmd)
{
    std::lock_guard lock(server.mutex);
    return static_cast<size_t>(std::count(server.commands.begin(), server.commands.end(), cmd));
}

}  // namespace

Test(client_connected, welcome_get_commit_fence_events_finalize)
{
    FakeServer server;
    server.run(serve);

    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    cr_assert_str_eq(me.nspace, kJobNspace);
    cr_assert_eq(me.rank, 0u);

    // Job data came with the welcome: answered locally.
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, kJobNspace, PMIX_RANK_WILDCARD);
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&job, PMIX_JOB_SIZE, nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->data.uint32, 2u);
    PMIX_VALUE_RELEASE(val);
    cr_assert_eq(count_of(server, wire::Command::Get), 0u);

    pmix_value_t mine;
    PMIX_VALUE_LOAD(&mine, "mine", PMIX_STRING);
    cr_assert_eq(PMIx_Put(PMIX_GLOBAL, "my.key", &mine), PMIX_SUCCESS);
    PMIX_VALUE_DESTRUCT(&mine);
    cr_assert_eq(PMIx_Commit(), PMIX_SUCCESS);

    // A peer's key goes to the server once, then comes from the cache.
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, kJobNspace, 1);
    for (int i = 0; i < 2; ++i) {
        cr_assert_eq(PMIx_Get(&peer, "peer.key", nullptr, 0, &val), PMIX_SUCCESS);
        const std::string got = string_of(val);  // named: Criterion compares after the full expression
        cr_assert_str_eq(got.c_str(), "from-server");
        PMIX_VALUE_RELEASE(val);
    }
    cr_assert_eq(count_of(server, wire::Command::Get), 1u);

    // An optional key that is missing never reaches the server.
    pmix_info_t optional;
    bool yes = true;
    PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    cr_assert_eq(PMIx_Get(&peer, "absent.key", &optional, 1, &val), PMIX_ERR_NOT_FOUND);
    PMIX_INFO_DESTRUCT(&optional);
    cr_assert_eq(count_of(server, wire::Command::Get), 1u);

    // Fence with collected data: the peer's data is local afterwards.
    pmix_info_t collect;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    cr_assert_eq(PMIx_Fence(nullptr, 0, &collect, 1), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&collect);
    cr_assert_eq(PMIx_Get(&peer, "fence.key", nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->type, PMIX_UINT32);
    cr_assert_eq(val->data.uint32, 42u);
    PMIX_VALUE_RELEASE(val);
    cr_assert_eq(count_of(server, wire::Command::Get), 1u);

    // The server forwards an event after the registration.
    pmix_status_t code = PMIX_ERR_PROC_ABORTED;
    pmix_status_t ref = PMIx_Register_event_handler(&code, 1, nullptr, 0, record_event, nullptr, nullptr);
    cr_assert_geq(ref, 0);
    cr_assert(g_event.wait(), "the server's event never reached the handler");
    cr_assert_eq(g_event_code, PMIX_ERR_PROC_ABORTED);

    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Initialized(), 0);
    server.join();

    cr_assert(server.got_hello);
    cr_assert_str_eq(server.hello.nspace.c_str(), kJobNspace);
    cr_assert_eq(server.hello.rank, 0u);
    cr_assert_str_eq(server.hello.psec_module.c_str(), "native");
    cr_assert_str_eq(server.hello.ptl_module.c_str(), "usock");
    cr_assert_eq(server.committed_keys.size(), 1u);
    cr_assert_str_eq(server.committed_keys[0].c_str(), "my.key");
    cr_assert_str_eq(server.get_keys[0].c_str(), "peer.key");
    cr_assert_eq(count_of(server, wire::Command::Finalize), 1u);
}

Test(client_connected, refuse_returns_its_status)
{
    FakeServer server;
    server.run([](FakeServer &s, int fd) {
        if (s.read_hello(fd)) {
            s.send_refuse(fd, PMIX_ERR_INVALID_CRED, "uid 4242 does not match the registered uid");
        }
    });
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_ERR_INVALID_CRED);
    cr_assert_eq(PMIx_Initialized(), 0);
    server.join();
    cr_assert(server.got_hello);
}

Test(client_connected, unreachable_server_fails_init)
{
    FakeServer server;  // listens, but we point the client elsewhere
    setenv("PMIXPP_SERVER_URIS", "usock:/nonexistent/pmixpp/server.sock", 1);
    setenv("PMIX_SERVER_URI41", "fake.server.0;usock:/nonexistent/pmixpp/server.sock", 1);
    pmix_proc_t me;
    cr_assert_neq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Initialized(), 0);
}

Test(client_connected, lost_connection_fails_pending_call_and_raises_event)
{
    FakeServer server;
    server.run([](FakeServer &s, int fd) {
        if (!s.read_hello(fd) || !s.send_welcome(fd, 0)) {
            return;
        }
        wire::Frame frame;
        wire::Command cmd{};
        while (s.read_request(fd, &frame, &cmd)) {
            if (cmd == wire::Command::Get) {
                return;  // closes the socket with the Get unanswered
            }
            wire::RegisterEventsReply reply;
            s.reply(fd, frame.header.tag, reply);
        }
    });
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_status_t code = PMIX_ERR_LOST_CONNECTION;
    cr_assert_geq(PMIx_Register_event_handler(&code, 1, nullptr, 0, record_event, nullptr, nullptr), 0);

    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, kJobNspace, 1);
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(&peer, "never.answered", nullptr, 0, &val), PMIX_ERR_LOST_CONNECTION);
    cr_assert(g_event.wait(), "no LOST_CONNECTION event");
    cr_assert_eq(g_event_code, PMIX_ERR_LOST_CONNECTION);

    // Later requests fail at once; finalize still cleans up.
    cr_assert_eq(PMIx_Fence(nullptr, 0, nullptr, 0), PMIX_ERR_LOST_CONNECTION);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
}

namespace {

Signal g_got;
std::string g_value;
pmix_status_t g_fence_in_callback = PMIX_SUCCESS;

void value_arrived(pmix_status_t status, pmix_value_t *kv, void *)
{
    g_value = string_of(kv);
    // We are on the progress thread: blocking here would deadlock.
    g_fence_in_callback = PMIx_Fence(nullptr, 0, nullptr, 0);
    g_got.raise(status);
}

}  // namespace

Test(client_connected, get_nb_answers_on_the_progress_thread)
{
    FakeServer server;
    server.run(serve);
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, kJobNspace, 1);
    cr_assert_eq(PMIx_Get_nb(&peer, "peer.key", nullptr, 0, value_arrived, nullptr), PMIX_SUCCESS);
    cr_assert(g_got.wait(), "the Get_nb callback never ran");
    cr_assert_eq(g_got.status, PMIX_SUCCESS);
    cr_assert_str_eq(g_value.c_str(), "from-server");
    cr_assert_eq(g_fence_in_callback, PMIX_ERR_WOULD_BLOCK);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    server.join();
    cr_assert_eq(count_of(server, wire::Command::Get), 1u);
    cr_assert_eq(count_of(server, wire::Command::Fence), 0u);
}
