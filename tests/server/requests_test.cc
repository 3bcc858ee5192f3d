// Requests of connected raw clients: commit/get, fences (local and through
// a host fence_nb), events, query, abort/finalize, unknown and malformed
// requests.
#include "server/server_fixture.h"

#include <criterion/criterion.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>
#include <thread>
#include <mutex>
#include <chrono>

#include <unistd.h>

using namespace server_test;
using namespace pmixpp;

namespace {

constexpr pmix_status_t kCustomEvent = PMIX_EXTERNAL_ERR_BASE - 999;
std::atomic<int> g_host_fences{0};

pmix_status_t echo_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char *data, size_t ndata,
                         pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    ++g_host_fences;
    // As a one-node host would: everybody's data is our own contribution
    // (which we own and free once the library has read it).
    cbfunc(
        PMIX_SUCCESS, data, ndata, cbdata, [](void *owned) { std::free(owned); }, data);
    return PMIX_SUCCESS;
}

pmix_server_module_t g_fence_host{};

std::unique_ptr<RawClient> connect_rank(pmix_rank_t rank)
{
    auto client = std::make_unique<RawClient>();
    cr_assert_eq(client->hello(kJob, rank, nullptr), PMIX_SUCCESS);
    return client;
}

void commit_string(RawClient &client, const char *key, const char *value)
{
    wire::CommitRequest commit;
    commit.global = one_info(key, value, PMIX_STRING);
    client.request(1, commit);
    cr_assert_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
}

wire::GetRequest get_of(pmix_rank_t rank, const char *key)
{
    wire::GetRequest get;
    std::strcpy(get.proc.nspace, kJob);
    get.proc.rank = rank;
    get.key = key;
    return get;
}

void teardown()
{
    PMIx_server_finalize();
}

void two_rank_job()
{
    start_server(make_tmpdir());
    register_job(kJob, 2);
}

void two_rank_job_with_host_fence()
{
    g_fence_host.fence_nb = echo_fence;
    start_server(make_tmpdir(), &g_fence_host);
    register_job(kJob, 2);
}

// Ranks 0 and 1 here, rank 2 on another node: a fence of the whole job
// needs the host to carry it.
void job_with_a_remote_rank_and_host_fence()
{
    g_fence_host.fence_nb = echo_fence;
    start_server(make_tmpdir(), &g_fence_host);
    register_job_with_a_remote_rank(kJob, 2);
}

// As Slurm's collectives answer a fence: from a thread of the host's own,
// holding the collective's lock while it calls back, with a release
// function that takes that lock again. The library must release after its
// callback returned (an inline release deadlocked slurmstepd).
std::mutex g_collective_lock;
std::atomic<int> g_released{0};
std::atomic<int> g_released_under_lock{0};
std::vector<std::thread> g_host_threads;

// Waits for the lock at most 5 s (a loop of try_lock: TSan does not follow
// timed_mutex's clock waits).
void release_taking_the_lock(void *owned)
{
    bool locked = false;
    for (int waited = 0; !locked && waited < 5000; waited += 10) {
        locked = g_collective_lock.try_lock();
        if (!locked) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (locked) {
        g_collective_lock.unlock();
    } else {
        ++g_released_under_lock;
    }
    std::free(owned);
    ++g_released;
}

pmix_status_t slurm_like_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char *data, size_t ndata,
                               pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    ++g_host_fences;
    g_host_threads.emplace_back([=] {
        std::lock_guard lock(g_collective_lock);
        cbfunc(PMIX_SUCCESS, data, ndata, cbdata, release_taking_the_lock, data);
    });
    return PMIX_SUCCESS;
}

void job_with_a_remote_rank_and_slurm_like_fence()
{
    g_fence_host.fence_nb = slurm_like_fence;
    start_server(make_tmpdir(), &g_fence_host);
    register_job_with_a_remote_rank(kJob, 2);
}

// A host name service that records the requester's user id it was given.
std::atomic<long long> g_publish_uid{-1};
std::atomic<long long> g_lookup_uid{-1};

long long user_id_in(const pmix_info_t info[], size_t ninfo)
{
    for (size_t i = 0; i < ninfo; ++i) {
        if (std::strncmp(info[i].key, PMIX_USERID, PMIX_MAX_KEYLEN) == 0 && info[i].value.type == PMIX_UINT32) {
            return info[i].value.data.uint32;
        }
    }
    return -1;
}

pmix_status_t recording_publish(const pmix_proc_t *, const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t, void *)
{
    g_publish_uid = user_id_in(info, ninfo);
    return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t recording_lookup(const pmix_proc_t *, char **, const pmix_info_t info[], size_t ninfo,
                               pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    g_lookup_uid = user_id_in(info, ninfo);
    cbfunc(PMIX_ERR_NOT_FOUND, nullptr, 0, cbdata);
    return PMIX_SUCCESS;
}

pmix_server_module_t g_name_host{};

void two_rank_job_with_name_service()
{
    g_name_host.publish = recording_publish;
    g_name_host.lookup = recording_lookup;
    start_server(make_tmpdir(), &g_name_host);
    register_job(kJob, 2);
}

// Both ranks fence with PMIX_COLLECT_DATA and get a blob holding both.
void fence_both(RawClient &a, RawClient &b)
{
    const bool collect = true;
    for (RawClient *client : {&a, &b}) {
        wire::FenceRequest fence;
        fence.directives = one_info(PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
        client->request(9, fence);
    }
    for (RawClient *client : {&a, &b}) {
        auto reply = client->reply<wire::FenceReply>();
        cr_assert_eq(reply.status, PMIX_SUCCESS, "fence: %s", PMIx_Error_string(reply.status));
        std::vector<wire::ProcData> procs;
        cr_assert_eq(wire::decode_modex(reply.data.data(), reply.data.size(), &procs), PMIX_SUCCESS);
        cr_expect_eq(procs.size(), 2u, "both ranks' data is collected");
    }
}

}  // namespace

TestSuite(server_requests, .fini = teardown);

Test(server_requests, get_returns_committed_data, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    commit_string(*a, "app.key", "hello");
    b->request(2, get_of(0, "app.key"));
    auto reply = b->reply<wire::GetReply>();
    cr_assert_eq(reply.status, PMIX_SUCCESS);
    cr_assert_eq(reply.data.size(), 1u);
    cr_expect_str_eq(reply.data[0].value.data.string, "hello");
}

Test(server_requests, get_waits_for_the_commit, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    b->request(2, get_of(0, "late.key"));
    commit_string(*a, "late.key", "now");
    auto reply = b->reply<wire::GetReply>();
    cr_assert_eq(reply.status, PMIX_SUCCESS);
    cr_expect_str_eq(reply.data[0].value.data.string, "now");
}

Test(server_requests, get_after_commit_of_missing_key_is_not_found, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    commit_string(*a, "some.key", "x");
    b->request(2, get_of(0, "other.key"));
    cr_expect_eq(b->reply<wire::GetReply>().status, PMIX_ERR_NOT_FOUND);
}

// Only the host provides reserved "pmix" keys, and it registered them
// already: a peer's missing one is not waited for (OpenPMIx's nodeinfo
// example asks for a peer's pmix.fab.coord before that peer committed).
Test(server_requests, get_of_a_missing_reserved_key_is_not_found_at_once, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    b->request(2, get_of(0, PMIX_FABRIC_COORDINATES));
    cr_expect_eq(b->reply<wire::GetReply>().status, PMIX_ERR_NOT_FOUND);
    b->request(3, get_of(0, "late.key"));
    commit_string(*a, "late.key", "still waited for");
    cr_expect_eq(b->reply<wire::GetReply>().status, PMIX_SUCCESS);
}

Test(server_requests, get_of_job_data, .init = two_rank_job)
{
    auto a = connect_rank(0);
    a->request(2, get_of(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE));
    auto reply = a->reply<wire::GetReply>();
    cr_assert_eq(reply.status, PMIX_SUCCESS);
    cr_expect_eq(reply.data[0].value.data.uint32, 2u);
}

Test(server_requests, local_fence_without_host_collects_data, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    commit_string(*a, "k", "a");
    commit_string(*b, "k", "b");
    fence_both(*a, *b);
}

Test(server_requests, host_fence_is_called_once, .init = job_with_a_remote_rank_and_host_fence)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    commit_string(*a, "k", "a");
    commit_string(*b, "k", "b");
    fence_both(*a, *b);
    cr_expect_eq(g_host_fences.load(), 1);
}

Test(server_requests, host_release_runs_after_its_callback_returned,
     .init = job_with_a_remote_rank_and_slurm_like_fence)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    commit_string(*a, "k", "a");
    commit_string(*b, "k", "b");
    fence_both(*a, *b);
    for (auto &thread : g_host_threads) thread.join();
    for (int waited = 0; g_released.load() == 0 && waited < 5000; waited += 10) usleep(10000);
    cr_expect_eq(g_host_fences.load(), 1);
    cr_expect_eq(g_released.load(), 1, "the host's release function ran once");
    cr_expect_eq(g_released_under_lock.load(), 0, "the release ran while the host still held its lock");
}

// As OpenPMIx 4.2: a fence among procs that all live here completes without
// the host's fence_nb (python3-pmix's host cannot answer that upcall).
Test(server_requests, host_fence_is_not_called_when_every_participant_is_local, .init = two_rank_job_with_host_fence)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    commit_string(*a, "k", "a");
    commit_string(*b, "k", "b");
    fence_both(*a, *b);
    cr_expect_eq(g_host_fences.load(), 0);
}

Test(server_requests, lost_participant_fails_the_fence, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    a->request(3, wire::FenceRequest{});
    b.reset();  // rank 1 dies before fencing
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_ERR_LOST_CONNECTION);
}

Test(server_requests, abnormal_exit_is_an_event, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    wire::RegisterEventsRequest termination;  // by name: see peer_gone_test.cc
    termination.codes = {PMIX_ERR_PROC_TERM_WO_SYNC};
    a->request(4, termination);
    cr_assert_eq(a->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    b.reset();
    wire::Frame frame;
    cr_assert_eq(a->receive(&frame), PMIX_SUCCESS);
    cr_assert_eq(frame.header.kind, wire::FrameKind::notify);
    wire::Event event;
    cr_assert_eq(wire::decode_payload(frame.payload, &event), PMIX_SUCCESS);
    cr_expect_eq(event.status, PMIX_ERR_PROC_TERM_WO_SYNC);
    cr_expect_eq(event.source.rank, 1u);
}

Test(server_requests, notify_reaches_registered_peer, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    wire::RegisterEventsRequest registration;
    registration.codes = {kCustomEvent};
    b->request(1, registration);
    cr_assert_eq(b->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    wire::NotifyEventRequest notify;
    notify.event.status = kCustomEvent;
    notify.event.range = PMIX_RANGE_NAMESPACE;
    a->request(2, notify);
    cr_assert_eq(a->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    wire::Frame frame;
    cr_assert_eq(b->receive(&frame), PMIX_SUCCESS);
    wire::Event event;
    cr_assert_eq(wire::decode_payload(frame.payload, &event), PMIX_SUCCESS);
    cr_expect_eq(event.status, kCustomEvent);
    cr_expect_eq(event.source.rank, 0u, "the server names the raiser");
}

// An event its raiser kept from default handlers (PMIX_EVENT_NON_DEFAULT)
// is not sent to a peer whose only handler is a catch-all, now or when it
// registers late; a peer that named the code gets it. (A rank's exit in an
// Open MPI job is such an event, and every rank has a catch-all.)
Test(server_requests, an_event_for_named_handlers_skips_catch_all_peers, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    b->request(1, wire::RegisterEventsRequest{});  // no codes: every event
    cr_assert_eq(b->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    wire::NotifyEventRequest notify;
    notify.event.status = kCustomEvent;
    notify.event.range = PMIX_RANGE_NAMESPACE;
    cr_assert_eq(notify.event.info.allocate(1), PMIX_SUCCESS);
    const bool yes = true;
    PMIX_INFO_LOAD(&notify.event.info[0], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
    a->request(2, notify);
    cr_assert_eq(a->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    // Nothing was queued for b: the next frames it reads answer its next
    // requests, a second catch-all registration (no replay) included.
    wire::Frame frame;
    b->request(3, wire::RegisterEventsRequest{});
    cr_assert_eq(b->receive(&frame), PMIX_SUCCESS);
    cr_assert_eq(frame.header.kind, wire::FrameKind::reply, "a catch-all peer was sent the event");
    cr_assert_eq(frame.header.tag, 3u);
    // Naming the code replays it, after the registration's answer.
    wire::RegisterEventsRequest named;
    named.codes = {kCustomEvent};
    b->request(4, named);
    cr_assert_eq(b->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    cr_assert_eq(b->receive(&frame), PMIX_SUCCESS);
    cr_assert_eq(frame.header.kind, wire::FrameKind::notify, "a handler for the code hears it");
    wire::Event event;
    cr_assert_eq(wire::decode_payload(frame.payload, &event), PMIX_SUCCESS);
    cr_expect_eq(event.status, kCustomEvent);
}

// An event raised before a peer registered for it reaches the peer when it
// registers, once; one it had no part in (another code) does not.
Test(server_requests, a_late_registration_hears_an_event_raised_before_it, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    wire::NotifyEventRequest notify;
    notify.event.status = kCustomEvent;
    notify.event.range = PMIX_RANGE_NAMESPACE;
    a->request(2, notify);
    cr_assert_eq(a->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    wire::RegisterEventsRequest registration;
    registration.codes = {kCustomEvent};
    b->request(1, registration);
    cr_assert_eq(b->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    wire::Frame frame;
    cr_assert_eq(b->receive(&frame), PMIX_SUCCESS);
    wire::Event event;
    cr_assert_eq(wire::decode_payload(frame.payload, &event), PMIX_SUCCESS);
    cr_expect_eq(event.status, kCustomEvent);
    cr_expect_eq(event.source.rank, 0u);
    // Registering again replays nothing: the peer has heard it. The next
    // frame is the answer to the next request.
    b->request(3, registration);
    cr_assert_eq(b->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    a->request(4, registration);  // the raiser itself is never sent its own
    cr_assert_eq(a->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
}

Test(server_requests, query_namespaces, .init = two_rank_job)
{
    auto a = connect_rank(0);
    wire::QueryRequest query;
    cr_assert_eq(query.queries.allocate(1), PMIX_SUCCESS);
    query.queries[0].keys = static_cast<char **>(calloc(2, sizeof(char *)));
    query.queries[0].keys[0] = strdup(PMIX_QUERY_NAMESPACES);
    a->request(5, query);
    auto reply = a->reply<wire::QueryReply>();
    cr_assert_eq(reply.status, PMIX_SUCCESS);
    cr_assert_eq(reply.results.size(), 1u);
    cr_expect_str_eq(reply.results[0].value.data.string, kJob);
}

Test(server_requests, abort_without_host_is_not_supported, .init = two_rank_job)
{
    auto a = connect_rank(0);
    a->request(6, wire::AbortRequest{});
    cr_expect_eq(a->reply<wire::StatusReply>().status, PMIX_ERR_NOT_SUPPORTED);
}

Test(server_requests, finalize_then_reconnect, .init = two_rank_job)
{
    auto a = connect_rank(0);
    a->request(7, wire::FinalizeRequest{});
    cr_expect_eq(a->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    a.reset();
    // The rank's slot is free again once its connection is gone.
    for (int attempt = 0; attempt < 1000; ++attempt) {
        RawClient again;
        if (again.hello(kJob, 0, nullptr) == PMIX_SUCCESS) return;
    }
    cr_assert_fail("rank 0 could not reconnect after finalizing");
}

Test(server_requests, unknown_command_is_not_supported, .init = two_rank_job)
{
    auto a = connect_rank(0);
    const uint8_t unknown_command[] = {999 & 0xff, 999 >> 8};  // no command has code 999
    cr_assert_eq(wire::send_frame_blocking(a->fd(), wire::FrameKind::request, 8, unknown_command, kTimeoutMs),
                 PMIX_SUCCESS);
    cr_expect_eq(a->reply<wire::StatusReply>().status, PMIX_ERR_NOT_SUPPORTED);
}

// A host without spawn, allocate or session-control handlers: each request
// hears PMIX_ERR_NOT_SUPPORTED in its own reply type, and the connection goes on.
Test(server_requests, spawn_allocate_and_session_control_without_the_host_are_not_supported, .init = two_rank_job)
{
    auto a = connect_rank(0);
    wire::SpawnRequest spawn;
    cr_assert_eq(spawn.apps.allocate(1), PMIX_SUCCESS);
    spawn.apps[0].cmd = strdup("/bin/true");
    spawn.apps[0].maxprocs = 1;
    a->request(20, spawn);
    const wire::SpawnReply spawned = a->reply<wire::SpawnReply>();
    cr_expect_eq(spawned.status, PMIX_ERR_NOT_SUPPORTED);
    cr_expect(spawned.nspace.empty());
    wire::AllocateRequest allocate;
    a->request(21, allocate);
    cr_expect_eq(a->reply<wire::InfoReply>().status, PMIX_ERR_NOT_SUPPORTED);
    wire::SessionControlRequest control;
    control.session_id = 3;
    a->request(22, control);
    cr_expect_eq(a->reply<wire::InfoReply>().status, PMIX_ERR_NOT_SUPPORTED);
    wire::LogRequest log;
    a->request(23, log);
    cr_expect_eq(a->reply<wire::StatusReply>().status, PMIX_ERR_NOT_SUPPORTED);
}

// A host without get_credential / validate_credential: the server makes and
// checks no credential for a client (as OpenPMIx 4.2); the reply says so in
// its own type, and the client's library then asks its own psec.
Test(server_requests, credentials_without_the_host_upcalls_are_not_supported, .init = two_rank_job)
{
    auto a = connect_rank(0);
    wire::GetCredentialRequest get;
    a->request(30, get);
    const wire::GetCredentialReply made = a->reply<wire::GetCredentialReply>();
    cr_expect_eq(made.status, PMIX_ERR_NOT_SUPPORTED);
    cr_expect(made.credential.empty());
    wire::ValidateCredentialRequest check;
    check.credential = {'x'};
    a->request(31, check);
    cr_expect_eq(a->reply<wire::InfoReply>().status, PMIX_ERR_NOT_SUPPORTED);
}

// A host without a name service (no publish / lookup upcall): a clear
// PMIX_ERR_NOT_SUPPORTED, and the connection goes on.
Test(server_requests, publish_and_lookup_without_the_host_upcalls_are_not_supported, .init = two_rank_job)
{
    auto a = connect_rank(0);
    wire::PublishRequest publish;
    cr_assert_eq(publish.info.allocate(1), PMIX_SUCCESS);
    PMIX_INFO_LOAD(&publish.info[0], "svc", "port", PMIX_STRING);
    wire::Bytes bytes;
    cr_assert_eq(wire::encode_to_bytes(publish, &bytes), PMIX_SUCCESS);
    cr_assert_eq(wire::send_frame_blocking(a->fd(), wire::FrameKind::request, 8, bytes, kTimeoutMs), PMIX_SUCCESS);
    cr_expect_eq(a->reply<wire::StatusReply>().status, PMIX_ERR_NOT_SUPPORTED);
    wire::LookupRequest lookup;
    lookup.keys = {"svc"};
    cr_assert_eq(wire::encode_to_bytes(lookup, &bytes), PMIX_SUCCESS);
    cr_assert_eq(wire::send_frame_blocking(a->fd(), wire::FrameKind::request, 9, bytes, kTimeoutMs), PMIX_SUCCESS);
    cr_expect_eq(a->reply<wire::LookupReply>().status, PMIX_ERR_NOT_SUPPORTED);
}

Test(server_requests, malformed_request_closes_only_that_client, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    const uint8_t broken_get[] = {3, 0, 0xff};
    cr_assert_eq(wire::send_frame_blocking(a->fd(), wire::FrameKind::request, 8, broken_get, kTimeoutMs), PMIX_SUCCESS);
    wire::Frame frame;
    cr_expect_neq(a->receive(&frame), PMIX_SUCCESS);
    commit_string(*b, "still", "here");
}

// The host hears who asks: PMIX_USERID (and PMIX_GRPID) of the requester
// come with every publish and lookup, as OpenPMIx passes them (Open MPI's
// data server refuses a lookup without them).
Test(server_requests, publish_and_lookup_carry_the_requesters_user_id, .init = two_rank_job_with_name_service)
{
    auto a = connect_rank(0);
    wire::PublishRequest publish;
    cr_assert_eq(publish.info.allocate(1), PMIX_SUCCESS);
    PMIX_INFO_LOAD(&publish.info[0], "svc", "port", PMIX_STRING);
    a->request(8, publish);
    cr_assert_eq(a->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    wire::LookupRequest lookup;
    lookup.keys = {"svc"};
    a->request(9, lookup);
    cr_expect_eq(a->reply<wire::LookupReply>().status, PMIX_ERR_NOT_FOUND);
    cr_expect_eq(g_publish_uid.load(), static_cast<long long>(getuid()));
    cr_expect_eq(g_lookup_uid.load(), static_cast<long long>(getuid()));
}

// Fabric requests with no pnet component that knows a fabric and no fabric
// upcall: PMIX_ERR_NOT_AVAILABLE in a FabricReply, an index nobody
// registered is not found; a malformed fabric request closes only the
// connection that sent it.
Test(server_requests, fabric_requests_without_an_answerer_and_malformed_ones, .init = two_rank_job)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    a->request(40, wire::FabricRegisterRequest{});
    const wire::FabricReply registered = a->reply<wire::FabricReply>();
    cr_expect_eq(registered.status, PMIX_ERR_NOT_AVAILABLE);
    cr_expect_eq(registered.index, 0u);
    cr_expect(registered.info.empty());
    a->request(41, wire::FabricUpdateRequest{5});
    cr_expect_eq(a->reply<wire::FabricReply>().status, PMIX_ERR_NOT_FOUND);
    a->request(42, wire::FabricDeregisterRequest{5});
    cr_expect_eq(a->reply<wire::StatusReply>().status, PMIX_ERR_NOT_FOUND);

    const uint8_t cut_update[] = {71, 0, 1, 2};  // half an index
    cr_assert_eq(wire::send_frame_blocking(a->fd(), wire::FrameKind::request, 43, cut_update, kTimeoutMs),
                 PMIX_SUCCESS);
    wire::Frame frame;
    cr_expect_neq(a->receive(&frame), PMIX_SUCCESS);
    // Directives claiming four billion entries.
    const uint8_t huge_register[] = {70, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f};
    cr_assert_eq(wire::send_frame_blocking(b->fd(), wire::FrameKind::request, 44, huge_register, kTimeoutMs),
                 PMIX_SUCCESS);
    cr_expect_neq(b->receive(&frame), PMIX_SUCCESS);
    auto again = connect_rank(0);
    commit_string(*again, "still", "here");
}
