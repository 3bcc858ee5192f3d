#include "client/host_fixture.h"

#include <criterion/criterion.h>

#include <pmix.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace host_test {

namespace {

std::string g_tmpdir;

}  // namespace

void start_server(pmix_server_module_t *module, const pmix_info_t extra[], std::size_t nextra)
{
    for (const char *name : {"PMIXPP_SERVER_URIS", "PMIX_SERVER_URI41", "PMIX_NAMESPACE", "PMIX_RANK"}) {
        unsetenv(name);
    }
    char pattern[] = "/tmp/pmixpp-host-XXXXXX";
    cr_assert(mkdtemp(pattern) != nullptr);
    g_tmpdir = pattern;
    std::vector<pmix_info_t> info(4 + nextra);
    pmix_rank_t rank = kServerRank;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, g_tmpdir.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, kHost, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_NSPACE, kServerNspace, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    for (std::size_t i = 0; i < nextra; ++i) PMIx_Info_xfer(&info[4 + i], &extra[i]);
    pmix_status_t rc = PMIx_server_init(module, info.data(), info.size());
    for (auto &item : info) PMIX_INFO_DESTRUCT(&item);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIx_server_init: %s", PMIx_Error_string(rc));

    uint32_t size = 2;
    pmix_info_t job[3];
    PMIX_INFO_LOAD(&job[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&job[1], PMIX_NODE_MAP, kHost, PMIX_STRING);
    PMIX_INFO_LOAD(&job[2], PMIX_PROC_MAP, "0,1", PMIX_STRING);
    rc = PMIx_server_register_nspace(kJob, 2, job, 3, nullptr, nullptr);
    for (auto &item : job) PMIX_INFO_DESTRUCT(&item);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register_nspace: %s", PMIx_Error_string(rc));
}

void stop_server()
{
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    std::string cmd = "rm -rf " + g_tmpdir;
    (void)system(cmd.c_str());
}

}  // namespace host_test
