// The job's data is written where its clients read it (gds/shmem's segment)
// as soon as every local client is registered, so that no client's hello
// waits for the write: not before (a segment per registration would be
// rewritten each time), whatever the order of register_nspace and
// register_client, and never twice for one job.
#include "server_fixture.h"

#include <criterion/criterion.h>

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace server_test;

namespace {

std::string g_memory;   // PMIX_MCA_gds_shmem_memory_dir
std::string g_session;  // the server's PMIX_SERVER_TMPDIR

void setup()
{
    g_memory = make_tmpdir();
    g_session = make_tmpdir();
    ::setenv("PMIX_MCA_gds", "shmem", 1);
    ::setenv("PMIX_MCA_gds_shmem_memory_dir", g_memory.c_str(), 1);
    start_server(g_session);
}

void teardown()
{
    PMIx_server_finalize();
}

// The job-data segments (not the shared fence data) in the memory
// directory and anywhere under the session directory: which of the two
// holds them depends on whether the session directory is on tmpfs.
std::vector<std::string> job_segments()
{
    std::vector<std::string> found;
    for (const std::string &top : {g_memory, g_session}) {
        std::error_code error;
        for (auto it = std::filesystem::recursive_directory_iterator(top, error);
             !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
            const std::string name = it->path().filename().string();
            if (name.rfind("gds-shmem.", 0) == 0 && name.find(".modex") == std::string::npos) {
                found.push_back(it->path().string());
            }
        }
    }
    return found;
}

void register_nspace(const char *nspace, int nlocal)
{
    const auto size = static_cast<uint32_t>(nlocal);
    pmix_info_t info{};
    PMIX_INFO_LOAD(&info, PMIX_JOB_SIZE, &size, PMIX_UINT32);
    const pmix_status_t rc = PMIx_server_register_nspace(nspace, nlocal, &info, 1, nullptr, nullptr);
    PMIX_INFO_DESTRUCT(&info);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register_nspace: %s", PMIx_Error_string(rc));
}

void register_rank(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
    proc.rank = rank;
    const pmix_status_t rc = PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, nullptr, nullptr);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register_client: %s", PMIx_Error_string(rc));
}

}  // namespace

TestSuite(job_data_ahead, .init = setup, .fini = teardown, .timeout = 30);

Test(job_data_ahead, written_when_the_last_local_client_is_registered)
{
    register_nspace("ahead.job", 3);
    register_rank("ahead.job", 0);
    register_rank("ahead.job", 1);
    cr_expect(job_segments().empty(), "the job data was written before its last client was registered");
    register_rank("ahead.job", 2);
    const std::vector<std::string> segments = job_segments();
    cr_assert_eq(segments.size(), 1u, "no job data segment once every local client was registered");
    struct stat first {};
    cr_assert_eq(::stat(segments[0].c_str(), &first), 0);
    // A registration past the count (a rank registered again elsewhere,
    // say) finds the data written and leaves it as it is.
    register_rank("ahead.job", 3);
    const std::vector<std::string> after = job_segments();
    cr_assert_eq(after.size(), 1u);
    cr_expect_str_eq(after[0].c_str(), segments[0].c_str(), "the job data was written again");
}

// Slurm-like hosts may register the clients first.
Test(job_data_ahead, written_at_register_nspace_when_the_clients_came_first)
{
    register_rank("early.job", 0);
    register_rank("early.job", 1);
    cr_expect(job_segments().empty(), "job data written for a namespace not yet registered");
    register_nspace("early.job", 2);
    cr_expect_eq(job_segments().size(), 1u, "no job data segment after register_nspace");
}

// A job with no local client (a host that only relays) has nobody to wait.
Test(job_data_ahead, not_written_for_a_job_without_local_clients)
{
    register_nspace("remote.job", 0);
    cr_expect(job_segments().empty(), "job data written for a job with no local client");
}
