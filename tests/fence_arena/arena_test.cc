// The fence arena's barrier and slots, threads standing in for ranks, and
// the reaping of orphaned arena files (only in this test's own directory).
#include "common/fence_arena/arena.h"
#include "support/child_process.h"

#include <criterion/criterion.h>

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace pmixpp;

namespace {

std::string g_dir;

void setup()
{
    g_dir = test_support::scratch_dir("fence-arena");
}
void teardown()
{
    test_support::remove_tree(g_dir);
}

std::unique_ptr<arena::Arena> make(uint32_t nprocs, uint32_t capacity = 256, const char *name = "a")
{
    std::unique_ptr<arena::Arena> made;
    std::string why;
    const pmix_status_t rc =
        arena::Arena::create(g_dir + "/" + name, "arena.job", nprocs, capacity, std::nullopt, &made, &why);
    cr_assert_eq(rc, PMIX_SUCCESS, "create: %s", why.c_str());
    return made;
}

int queued(int fd)
{
    int bytes = -1;
    cr_assert_eq(::ioctl(fd, FIONREAD, &bytes), 0);
    return bytes;
}

bool exists(const std::string &path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

void touch(const std::string &path)
{
    std::ofstream(path) << "x";
}

}  // namespace

TestSuite(fence_arena, .init = setup, .fini = teardown, .timeout = 60);

Test(fence_arena, every_rank_leaves_each_generation_together)
{
    constexpr uint32_t kRanks = 4;
    constexpr int kFences = 300;
    auto shared = make(kRanks);
    std::atomic<int> entered[kFences] = {};
    std::atomic<int> failures{0};
    std::vector<std::thread> ranks;
    for (uint32_t rank = 0; rank < kRanks; ++rank) {
        ranks.emplace_back([&] {
            for (int fence = 0; fence < kFences; ++fence) {
                entered[fence].fetch_add(1);
                const arena::Ticket ticket = shared->arrive();
                if (shared->wait(ticket, std::nullopt) != PMIX_SUCCESS) failures.fetch_add(1);
                // Nobody leaves a fence before everybody entered it.
                if (entered[fence].load() != static_cast<int>(kRanks)) failures.fetch_add(1);
            }
        });
    }
    for (auto &rank : ranks) rank.join();
    cr_expect_eq(failures.load(), 0);
}

Test(fence_arena, a_client_maps_the_same_arena_and_meets_the_server_there)
{
    auto made = make(2);
    std::unique_ptr<arena::Arena> opened;
    std::string why;
    cr_assert_eq(arena::Arena::open(made->path(), "arena.job", &opened, &why), PMIX_SUCCESS, "%s", why.c_str());
    cr_expect_eq(opened->nprocs(), 2u);
    std::thread other([&] {
        const arena::Ticket ticket = opened->arrive();
        cr_expect_eq(opened->wait(ticket, std::nullopt), PMIX_SUCCESS);
    });
    const arena::Ticket ticket = made->arrive();
    cr_expect_eq(made->wait(ticket, std::nullopt), PMIX_SUCCESS);
    other.join();
}

Test(fence_arena, open_refuses_another_jobs_arena_and_a_foreign_file)
{
    auto made = make(2);
    std::unique_ptr<arena::Arena> opened;
    std::string why;
    cr_expect_eq(arena::Arena::open(made->path(), "other.job", &opened, &why), PMIX_ERR_BAD_PARAM);
    cr_expect(why.find("other.job") != std::string::npos, "%s", why.c_str());
    touch(g_dir + "/garbage");
    cr_expect_neq(arena::Arena::open(g_dir + "/garbage", "arena.job", &opened, &why), PMIX_SUCCESS);
    cr_expect_eq(arena::Arena::open(g_dir + "/absent", "arena.job", &opened, &why), PMIX_ERR_NOT_AVAILABLE);
    cr_expect(why.find(g_dir + "/absent") != std::string::npos, "%s", why.c_str());
}

Test(fence_arena, slots_carry_data_versions_and_overflow)
{
    auto shared = make(3, 8);
    std::vector<uint8_t> data;
    uint32_t version = 0;
    cr_expect(shared->read_slot(1, &data, &version) == arena::SlotState::empty);
    const uint8_t bytes[] = {1, 2, 3, 4, 5};
    shared->write_slot(1, bytes, sizeof bytes);
    cr_assert(shared->read_slot(1, &data, &version) == arena::SlotState::data);
    cr_expect_eq(data.size(), sizeof bytes);
    cr_expect_eq(data[4], 5);
    cr_expect_eq(version, shared->slot_version(1));
    const uint8_t big[9] = {};
    shared->write_slot(1, big, sizeof big);
    uint32_t later = 0;
    cr_expect(shared->read_slot(1, &data, &later) == arena::SlotState::overflow);
    cr_expect_neq(later, version, "a rewrite must change the slot's version");
    cr_expect(shared->read_slot(7, &data, &later) == arena::SlotState::empty, "a rank past the job");
}

Test(fence_arena, a_timed_out_arrival_is_taken_back)
{
    auto shared = make(2);
    const arena::Ticket early = shared->arrive();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    cr_expect_eq(shared->wait(early, deadline), PMIX_ERR_TIMEOUT);
    // The next fence needs both ranks again: the timed-out arrival does not count.
    const arena::Ticket first = shared->arrive();
    cr_expect_not(first.completed_it);
    const arena::Ticket second = shared->arrive();
    cr_expect(second.completed_it);
    cr_expect_eq(shared->wait(first, std::nullopt), PMIX_SUCCESS);
}

Test(fence_arena, disable_releases_the_waiters_with_its_status)
{
    auto shared = make(3);
    std::atomic<int> lost{0};
    std::vector<std::thread> waiters;
    for (int i = 0; i < 2; ++i) {
        waiters.emplace_back([&] {
            const arena::Ticket ticket = shared->arrive();
            if (shared->wait(ticket, std::nullopt) == PMIX_ERR_LOST_CONNECTION) lost.fetch_add(1);
        });
    }
    // Both must have arrived before the third rank "dies".
    for (int i = 0; i < 5000 && shared->arrivals() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    cr_assert_eq(shared->arrivals(), 2u);
    shared->disable(PMIX_ERR_LOST_CONNECTION);
    for (auto &waiter : waiters) waiter.join();
    cr_expect_eq(lost.load(), 2);
    cr_expect(shared->disabled());
}

Test(fence_arena, an_abandoned_wait_returns_lost_connection)
{
    auto shared = make(2);
    std::atomic<bool> abandon{false};
    pmix_status_t status = PMIX_SUCCESS;
    std::thread waiter([&] {
        const arena::Ticket ticket = shared->arrive();
        status = shared->wait(ticket, std::nullopt, &abandon);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    abandon.store(true);
    shared->wake_all();
    waiter.join();
    cr_expect_eq(status, PMIX_ERR_LOST_CONNECTION);
}

Test(fence_arena, orphans_of_dead_servers_are_reaped_and_nothing_else)
{
    const std::string uid = std::to_string(::getuid());
    const std::string orphan = g_dir + "/pmixpp-fence." + uid + "." + std::to_string(test_support::dead_pid()) + ".1";
    const std::string ours = arena::arena_path(g_dir, 9);
    const std::string live = g_dir + "/pmixpp-fence." + uid + "." + std::to_string(::getppid()) + ".1";
    const std::string other_user = g_dir + "/pmixpp-fence." + std::to_string(::getuid() + 4242) + "." +
                                   std::to_string(test_support::dead_pid()) + ".1";
    const std::string unrelated = g_dir + "/notes.txt";
    for (const auto &path : {orphan, ours, live, other_user, unrelated}) touch(path);
    cr_expect_eq(arena::reap_orphans(g_dir), 1);
    cr_expect_not(exists(orphan), "the dead server's arena stays");
    cr_expect(exists(ours) && exists(live) && exists(other_user) && exists(unrelated),
              "reaping removed a file that was not an orphan");
}

Test(fence_arena, the_directory_can_be_chosen)
{
    ::setenv("PMIX_MCA_pmix_fence_arena_dir", g_dir.c_str(), 1);
    cr_expect_eq(arena::arena_directory("/nonexistent"), g_dir);
    ::unsetenv("PMIX_MCA_pmix_fence_arena_dir");
    cr_expect_neq(arena::arena_directory(g_dir), std::string(), "a session directory on disk has a fallback");
}

// A waiter whose spin ran out sleeps on the word and counts itself; the
// last arrival sees it and wakes it (it skips the system call otherwise).
Test(fence_arena, a_waiter_that_fell_asleep_is_woken)
{
    auto shared = make(2);
    std::atomic<pmix_status_t> status{PMIX_ERR_TIMEOUT};
    std::thread waiter([&] {
        const arena::Ticket ticket = shared->arrive();
        status = shared->wait(ticket, std::chrono::steady_clock::now() + std::chrono::seconds(20));
    });
    // Well past any spin budget (200 us at most).
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const arena::Ticket ticket = shared->arrive();
    cr_expect(ticket.completed_it);
    waiter.join();
    cr_expect_eq(status.load(), PMIX_SUCCESS);
}

// The spin budget follows the recent waits (wait_policy.h).
Test(fence_arena, the_spin_budget_follows_the_recent_waits)
{
    using std::chrono::microseconds;
    using std::chrono::nanoseconds;
    arena::WaitPolicy fresh;
    cr_expect_eq(fresh.spin_budget(false).count(), 0, "a waiter that may not spin: no spin at all");
    cr_expect_eq(fresh.spin_budget(true).count(), (4 * arena::WaitPolicy::kMinSpin).count(), "no history yet");

    arena::WaitPolicy quick;
    for (int i = 0; i < 16; ++i) quick.record(microseconds(1));
    cr_expect_eq(quick.spin_budget(true).count(), arena::WaitPolicy::kMinSpin.count(),
                 "short waits: the shortest spin");
    quick.record(microseconds(100));  // one missed wake-up
    cr_expect_eq(quick.spin_budget(true).count(), nanoseconds(microseconds(150)).count(),
                 "one wait a spin could have caught: cover it, with half again");

    arena::WaitPolicy computing;
    for (int i = 0; i < 13; ++i) computing.record(std::chrono::milliseconds(3));
    for (int i = 0; i < 3; ++i) computing.record(microseconds(50));
    cr_expect_eq(computing.spin_budget(true).count(), arena::WaitPolicy::kMinSpin.count(),
                 "mostly long waits: sleep early");

    arena::WaitPolicy capped;
    for (int i = 0; i < 16; ++i) capped.record(microseconds(190));
    cr_expect_eq(capped.spin_budget(true).count(), arena::WaitPolicy::kMaxSpin.count());
}

// A job with more ranks than this process may use cores spins only where
// every rank claimed a core of its own: bound ranks on distinct cores take
// nothing from each other by spinning; a shared, unbound or unknown core
// keeps the waiter asleep (Arena::may_spin).
Test(fence_arena, ranks_bound_to_cores_of_their_own_may_spin)
{
    const uint32_t nprocs = arena::usable_cores() + 1;  // too many for the old rule
    auto made = make(nprocs);
    std::vector<std::unique_ptr<arena::Arena>> ranks;
    for (uint32_t rank = 0; rank < nprocs; ++rank) {
        std::unique_ptr<arena::Arena> opened;
        std::string why;
        cr_assert_eq(arena::Arena::open(made->path(), "arena.job", &opened, &why), PMIX_SUCCESS, "%s", why.c_str());
        ranks.push_back(std::move(opened));
    }
    cr_expect_not(made->may_spin(), "the server claims no core");
    // Core c is claimed as c + 1. Rank 0 claims first: the others unknown.
    ranks[0]->claim_core(0, 1);
    cr_expect_not(ranks[0]->may_spin(), "spinning before every rank claimed");
    for (uint32_t rank = 1; rank < nprocs; ++rank) ranks[rank]->claim_core(rank, rank + 1);
    for (uint32_t rank = 0; rank < nprocs; ++rank) {
        cr_expect(ranks[rank]->may_spin(), "rank %u, on a core of its own, may not spin", rank);
    }
    // Rank 1 moves onto rank 0's core: both must sleep now; a later claim
    // is read again (the verdict is kept only for the claim it was made on).
    ranks[1]->claim_core(1, 1);
    ranks[0]->claim_core(0, 1);
    cr_expect_not(ranks[0]->may_spin(), "two ranks bound to one core both spin");
    cr_expect_not(ranks[1]->may_spin(), "two ranks bound to one core both spin");
    // An unbound rank may run on any core.
    ranks[1]->claim_core(1, arena::kNotBoundToOneCore);
    ranks[0]->claim_core(0, 1);
    cr_expect_not(ranks[0]->may_spin(), "spinning beside a rank that may need this core");
    cr_expect_not(ranks[1]->may_spin(), "an unbound rank spins in an oversubscribed job");
}

// With no more ranks than cores the old rule holds: everyone may spin.
Test(fence_arena, a_job_that_fits_the_cores_may_spin_unbound)
{
    auto made = make(1);
    std::unique_ptr<arena::Arena> opened;
    std::string why;
    cr_assert_eq(arena::Arena::open(made->path(), "arena.job", &opened, &why), PMIX_SUCCESS, "%s", why.c_str());
    opened->claim_core(0, arena::kNotBoundToOneCore);
    cr_expect(opened->may_spin());
}

// Waits that end only after a yield mean the rank waited for runs on this
// core: no pure spin, and one wait in kYieldsBeforeSleep sleeps so that its
// wake-up can place it on an idle core (wait_policy.h).
Test(fence_arena, waits_caught_after_a_yield_skip_the_spin_then_sleep_once)
{
    using arena::Caught;
    using std::chrono::microseconds;
    arena::WaitPolicy policy;
    cr_expect_eq(policy.pure_spin().count(), arena::WaitPolicy::kPureSpin.count(), "no history: spin first");
    cr_expect_not(policy.sleep_to_move());

    policy.record(microseconds(5), Caught::after_yield);
    cr_expect_eq(policy.pure_spin().count(), arena::WaitPolicy::kPureSpin.count(), "one yield proves nothing");
    policy.record(microseconds(5), Caught::after_yield);
    cr_expect_eq(policy.pure_spin().count(), 0, "two in a row: yield at once");
    policy.record(microseconds(1), Caught::spinning);
    cr_expect_eq(policy.pure_spin().count(), arena::WaitPolicy::kPureSpin.count(), "a wait caught spinning resets");

    for (uint32_t i = 0; i + 1 < arena::WaitPolicy::kYieldsBeforeSleep; ++i) {
        policy.record(microseconds(5), Caught::after_yield);
    }
    cr_expect_not(policy.sleep_to_move(), "one short of the run");
    policy.record(microseconds(5), Caught::after_yield);
    cr_expect(policy.sleep_to_move(), "a full run of yields: sleep once");
    cr_expect_not(policy.sleep_to_move(), "then a new run starts");
    cr_expect_eq(policy.pure_spin().count(), arena::WaitPolicy::kPureSpin.count());
}

// The doorbell: a FIFO beside the arena, mode 0600, that a release rings
// only while a process listens, and that never empties (each ring must be
// an edge for every watcher) nor fills (a ring must never fail).
Test(fence_arena, the_doorbell_rings_for_listeners_only_and_never_empties_or_fills)
{
    auto shared = make(2);
    struct stat st {};
    cr_assert_eq(::stat(arena::bell_path(shared->path()).c_str(), &st), 0);
    cr_expect(S_ISFIFO(st.st_mode));
    cr_expect_eq(st.st_mode & 07777, 0600u);
    const int bell = shared->bell_fd();
    cr_assert_geq(bell, 0);
    for (int i = 0; i < 2; ++i) (void)shared->arrive();
    cr_expect_eq(queued(bell), 0, "a release with nobody listening rang");
    shared->listen();
    for (int fence = 0; fence < 3000; ++fence) {
        for (int i = 0; i < 2; ++i) (void)shared->arrive();
        const int bytes = queued(bell);
        cr_assert(bytes >= 1 && bytes <= 32 * 1024 + 1, "after %d rings: %d bytes", fence + 1, bytes);
    }
    cr_expect_eq(queued(bell), 3000);
    for (int fence = 0; fence < 40000; ++fence) {
        for (int i = 0; i < 2; ++i) (void)shared->arrive();
        cr_assert_leq(queued(bell), 32 * 1024 + 1);
    }
    cr_expect_geq(queued(bell), 16 * 1024, "drained below half");
    shared->unlisten();
    const int before = queued(bell);
    for (int i = 0; i < 2; ++i) (void)shared->arrive();
    cr_expect_eq(queued(bell), before, "rang after the last listener left");
}

// A doorbell name squatted before the server made the arena (another user's
// FIFO in a shared directory, which its owner could empty or fill) is not
// used: the arena works, Fence_nb goes through the server.
Test(fence_arena, a_squatted_doorbell_is_not_used)
{
    if (::geteuid() != 0) cr_skip_test("needs root to give the FIFO to another user");
    const std::string path = g_dir + "/squatted";
    cr_assert_eq(::mkfifo(arena::bell_path(path).c_str(), 0600), 0);
    cr_assert_eq(::chown(arena::bell_path(path).c_str(), 65534, 65534), 0);
    auto shared = make(2, 256, "squatted");
    cr_expect_eq(shared->bell_fd(), -1, "the squatter's FIFO was opened");
    for (int i = 0; i < 2; ++i) (void)shared->arrive();
    cr_expect(shared->released(arena::Ticket{0, false}), "the arena does not work without its doorbell");
}
