// pmixrun, the server of a job, killed with SIGKILL while its clients wait
// in calls it would have answered. Every pending call returns an
// error and every client hears PMIX_ERR_LOST_CONNECTION; the clients write
// what they saw to files, since their output went through pmixrun.
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

using namespace pmixrun_test;

namespace {

std::string g_tmp;
std::string g_work;

void setup()
{
    g_tmp = scratch_dir();
    g_work = scratch_dir();
}

void teardown()
{
    remove_tree(g_tmp);
    remove_tree(g_work);
}

// Waits (bounded) until <g_work>/<what>.<rank> exists; its text.
bool wait_for(const std::string &what, int rank, int seconds, std::string *text_p)
{
    const std::string path = g_work + "/" + what + "." + std::to_string(rank);
    for (int i = 0; i < seconds * 20; ++i) {
        struct stat info {};
        if (::stat(path.c_str(), &info) == 0) {
            *text_p = test_support::read_text(path);
            return true;
        }
        ::usleep(50000);
    }
    return false;
}

}  // namespace

TestSuite(pmixrun_faults, .init = setup, .fini = teardown, .timeout = 120);

Test(pmixrun_faults, server_killed_fails_every_pending_call_with_lost_connection)
{
    const pid_t server = start({"--tmpdir", g_tmp, "-n", "2", FAULTS_CLIENT, "server-killed", g_work});
    std::string pids[2];
    for (int rank = 0; rank < 2; ++rank) {
        cr_assert(wait_for("ready", rank, 30, &pids[rank]), "rank %d never became ready", rank);
    }
    ::usleep(200000);  // let both reach their blocking call
    cr_assert_eq(::kill(server, SIGKILL), 0);
    cr_expect_eq(finish(server, 10), 128 + SIGKILL);
    for (int rank = 0; rank < 2; ++rank) {
        std::string result;
        const bool answered = wait_for("result", rank, 30, &result);
        if (!answered) ::kill(std::atoi(pids[rank].c_str()), SIGKILL);  // a hung client: ours, end it
        cr_assert(answered, "rank %d's pending call never returned after the server died", rank);
        cr_expect(result.find("call SUCCESS") == std::string::npos && result.find("call ") != std::string::npos,
                  "rank %d: %s", rank, result.c_str());
        cr_expect(has_line(result, "event LOST_CONNECTION") || has_line(result, "event PMIX_ERR_LOST_CONNECTION"),
                  "rank %d heard no PMIX_ERR_LOST_CONNECTION: %s", rank, result.c_str());
    }
}
