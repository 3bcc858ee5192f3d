// The server's side of the fence arena, with raw wire clients
// that never map it: a job whose ranks all run here gets one, named in the
// Welcome and removed with the job; a job with a rank elsewhere gets none;
// clients fencing through the server meet in the arena, with their data
// collected from its slots, a timeout, a rank lost mid-fence, and a client
// that sends its next fence before the first was answered.
#include "server_fixture.h"

#include "common/fence_arena/arena.h"

#include <criterion/criterion.h>

#include <dirent.h>
#include <poll.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace server_test;
namespace wire = pmixpp::wire;

namespace {

std::string g_arenas;

void setup()
{
    g_arenas = make_tmpdir();
    ::setenv("PMIX_MCA_pmix_fence_arena_dir", g_arenas.c_str(), 1);
    start_server(make_tmpdir());
}

void teardown()
{
    PMIx_server_finalize();
}

int arenas_in_dir()
{
    DIR *dir = ::opendir(g_arenas.c_str());
    if (dir == nullptr) return -1;
    int count = 0;
    while (const dirent *entry = ::readdir(dir)) count += std::strncmp(entry->d_name, "pmixpp-fence.", 13) == 0;
    ::closedir(dir);
    return count;
}

std::string arena_named_in(const wire::Welcome &welcome)
{
    for (const pmix_info_t &item : welcome.info) {
        if (std::strcmp(item.key, pmixpp::arena::kWelcomeKey) == 0 && item.value.type == PMIX_STRING) {
            return item.value.data.string;
        }
    }
    return {};
}

std::unique_ptr<RawClient> connect_rank(const char *nspace, pmix_rank_t rank, wire::Welcome *welcome_p = nullptr)
{
    auto client = std::make_unique<RawClient>();
    wire::Welcome welcome;
    cr_assert_eq(client->hello(nspace, rank, &welcome), PMIX_SUCCESS);
    if (welcome_p != nullptr) *welcome_p = std::move(welcome);
    return client;
}

wire::FenceRequest collecting_fence(int timeout_s = 0)
{
    wire::FenceRequest fence;
    cr_assert_eq(fence.directives.allocate(timeout_s > 0 ? 2 : 1), PMIX_SUCCESS);
    const bool yes = true;
    PMIX_INFO_LOAD(&fence.directives[0], PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    if (timeout_s > 0) PMIX_INFO_LOAD(&fence.directives[1], PMIX_TIMEOUT, &timeout_s, PMIX_INT);
    return fence;
}

void commit_value(RawClient &client, const char *key, uint32_t value)
{
    wire::CommitRequest commit;
    commit.global = one_info(key, &value, PMIX_UINT32);
    client.request(1, commit);
    cr_assert_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
}

// True when a frame waits on the client's socket within `ms`.
bool answered_within(const RawClient &client, int ms)
{
    pollfd pfd{client.fd(), POLLIN, 0};
    return ::poll(&pfd, 1, ms) == 1;
}

// The tag of the next fence reply, which must be a success.
uint32_t next_fence_success(RawClient &client)
{
    wire::Frame frame;
    cr_assert_eq(client.receive(&frame), PMIX_SUCCESS);
    wire::FenceReply reply;
    cr_assert_eq(wire::decode_payload(frame.payload, &reply), PMIX_SUCCESS);
    cr_expect_eq(reply.status, PMIX_SUCCESS, "tag %u: %s", frame.header.tag, PMIx_Error_string(reply.status));
    return frame.header.tag;
}

}  // namespace

TestSuite(server_arena, .init = setup, .fini = teardown, .timeout = 60);

Test(server_arena, a_job_on_this_node_gets_an_arena_named_in_the_welcome_and_removed_with_it)
{
    register_job(kJob, 2);
    wire::Welcome welcome;
    auto client = connect_rank(kJob, 0, &welcome);
    const std::string path = arena_named_in(welcome);
    cr_assert(!path.empty(), "the Welcome names no fence arena");
    cr_expect_eq(path.rfind(g_arenas + "/", 0), 0u, "the arena %s is not in PMIX_MCA_pmix_fence_arena_dir",
                 path.c_str());
    cr_expect_eq(::access(path.c_str(), R_OK | W_OK), 0, "%s", path.c_str());
    client.reset();
    PMIx_server_deregister_nspace(kJob, nullptr, nullptr);
    for (int i = 0; i < 200 && ::access(path.c_str(), F_OK) == 0; ++i) ::usleep(10000);
    cr_expect_neq(::access(path.c_str(), F_OK), 0, "the arena outlived its job");
}

Test(server_arena, a_job_with_a_rank_elsewhere_gets_none)
{
    register_job_with_a_remote_rank("job2", 2);
    wire::Welcome welcome;
    auto client = connect_rank("job2", 0, &welcome);
    cr_expect(arena_named_in(welcome).empty(), "a job on two nodes was given an arena");
    cr_expect_eq(arenas_in_dir(), 0);
}

Test(server_arena, clients_fencing_through_the_server_get_everyones_data_from_the_slots)
{
    register_job(kJob, 3);
    std::vector<std::unique_ptr<RawClient>> ranks;
    for (pmix_rank_t rank = 0; rank < 3; ++rank) {
        ranks.push_back(connect_rank(kJob, rank));
        commit_value(*ranks.back(), "arena.value", 500 + rank);
    }
    for (auto &rank : ranks) rank->request(2, collecting_fence());
    for (pmix_rank_t rank = 0; rank < 3; ++rank) {
        const wire::FenceReply reply = ranks[rank]->reply<wire::FenceReply>();
        cr_assert_eq(reply.status, PMIX_SUCCESS, "rank %u: %s", rank, PMIx_Error_string(reply.status));
        std::vector<wire::ProcData> records;
        cr_assert_eq(wire::decode_modex(reply.data.data(), reply.data.size(), &records), PMIX_SUCCESS);
        cr_expect_eq(records.size(), 3u, "rank %u got %zu records", rank, records.size());
        for (const wire::ProcData &record : records) {
            cr_assert_eq(record.info.size(), 1u);
            cr_expect_eq(record.info[0].value.data.uint32, 500 + record.proc.rank);
        }
    }
}

Test(server_arena, a_timed_out_fence_is_taken_back_and_the_next_completes)
{
    register_job(kJob, 2);
    auto a = connect_rank(kJob, 0);
    auto b = connect_rank(kJob, 1);
    a->request(2, collecting_fence(1));
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_ERR_TIMEOUT);
    a->request(3, wire::FenceRequest{});
    b->request(3, wire::FenceRequest{});
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_SUCCESS);
    cr_expect_eq(b->reply<wire::FenceReply>().status, PMIX_SUCCESS);
}

Test(server_arena, a_rank_lost_mid_fence_releases_the_others_with_lost_connection)
{
    register_job(kJob, 3);
    auto a = connect_rank(kJob, 0);
    auto b = connect_rank(kJob, 1);
    auto c = connect_rank(kJob, 2);
    a->request(2, wire::FenceRequest{});
    b->request(2, wire::FenceRequest{});
    c.reset();  // dies without finalizing while the others wait
    cr_expect_eq(a->reply<wire::FenceReply>().status, PMIX_ERR_LOST_CONNECTION);
    cr_expect_eq(b->reply<wire::FenceReply>().status, PMIX_ERR_LOST_CONNECTION);
}

Test(server_arena, a_second_fence_sent_before_the_first_was_answered_counts_in_the_next_generation)
{
    register_job(kJob, 3);
    auto a = connect_rank(kJob, 0);
    auto b = connect_rank(kJob, 1);
    auto c = connect_rank(kJob, 2);
    // a: two fences back to back (PMIx_Fence_nb twice); b: one. Counting
    // a twice would release the barrier before c arrived.
    a->request(2, wire::FenceRequest{});
    a->request(3, wire::FenceRequest{});
    b->request(2, wire::FenceRequest{});
    cr_expect_not(answered_within(*a, 300), "a fence was released before every rank arrived");
    cr_expect_not(answered_within(*b, 0), "a fence was released before every rank arrived");
    c->request(2, wire::FenceRequest{});
    cr_expect_eq(next_fence_success(*a), 2u);
    cr_expect_eq(next_fence_success(*b), 2u);
    cr_expect_eq(next_fence_success(*c), 2u);
    // a's second fence is the first arrival of the next generation.
    b->request(3, wire::FenceRequest{});
    cr_expect_not(answered_within(*a, 200), "the second generation was released with two of three ranks");
    c->request(3, wire::FenceRequest{});
    cr_expect_eq(next_fence_success(*a), 3u);
    cr_expect_eq(next_fence_success(*b), 3u);
    cr_expect_eq(next_fence_success(*c), 3u);
}
