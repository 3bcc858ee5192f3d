// What a connected tool does: PMIx_Get and PMIx_Query_info through its
// server, and several servers (attach, get_servers, set_server,
// disconnect). Each test runs in its own process, which is the tool.
#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <pmix.h>
#include <pmix_tool.h>

#include "tool/tool_support.h"

namespace {

std::string g_dir;
std::vector<TestServer> g_servers;

void setup()
{
    g_dir = make_tmpdir();
    cr_assert(!g_dir.empty(), "cannot make a temp dir");
}

void teardown()
{
    for (auto &server : g_servers) stop_server(&server);
    remove_tmpdir(g_dir);
}

pid_t start(const std::string &name)
{
    TestServer server;
    bool up = start_server(&server, name, g_dir, {"--tool"});
    g_servers.push_back(server);
    cr_assert(up, "server %s did not start", name.c_str());
    return server.pid;
}

// Connects to the server of pid (tool_init, or attach when `attach`).
pmix_status_t connect_to(pid_t pid, bool attach, pmix_proc_t *me, pmix_proc_t *server)
{
    pmix_info_t info[3];
    std::memset(info, 0, sizeof info);
    load_string(&info[0], PMIX_SERVER_TMPDIR, g_dir);
    load_string(&info[1], PMIX_SYSTEM_TMPDIR, g_dir);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    return attach ? PMIx_tool_attach_to_server(me, server, info, 3) : PMIx_tool_init(me, info, 3);
}

uint32_t job_size_of(const char *job)
{
    pmix_proc_t wildcard;
    PMIX_LOAD_PROCID(&wildcard, job, PMIX_RANK_WILDCARD);
    pmix_value_t *value = nullptr;
    pmix_status_t rc = PMIx_Get(&wildcard, PMIX_JOB_SIZE, nullptr, 0, &value);
    if (rc != PMIX_SUCCESS) return 0;
    uint32_t size = value->type == PMIX_UINT32 ? value->data.uint32 : 0;
    PMIX_VALUE_RELEASE(value);
    return size;
}

std::string namespaces_of_server()
{
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    char key[] = PMIX_QUERY_NAMESPACES;
    char *keys[] = {key, nullptr};
    query.keys = keys;
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Query_info(&query, 1, &results, &nresults);
    query.keys = nullptr;
    std::string names;
    if (rc == PMIX_SUCCESS && nresults == 1 && results[0].value.type == PMIX_STRING) {
        names = results[0].value.data.string;
    }
    if (results != nullptr) PMIX_INFO_FREE(results, nresults);
    return names;
}

}  // namespace

TestSuite(tool_session, .init = setup, .fini = teardown, .timeout = 60);

Test(tool_session, get_and_query_through_the_server)
{
    pid_t pid = start("srvq");
    pmix_proc_t me;
    cr_assert_eq(connect_to(pid, false, &me, nullptr), PMIX_SUCCESS);
    cr_expect_eq(job_size_of("srvq-job"), 4u);
    std::string names = namespaces_of_server();
    cr_expect(names.find("srvq-job") != std::string::npos, "namespaces: '%s'", names.c_str());
    // A tool is no job: its namespace is not listed.
    cr_expect(names.find("srvq-tool") == std::string::npos, "namespaces: '%s'", names.c_str());
    pmix_value_t *value = nullptr;
    cr_assert_eq(PMIx_Get(&me, PMIX_HOSTNAME, nullptr, 0, &value), PMIX_SUCCESS);
    const std::string host = hostname();  // named: Criterion compares after the full expression
    cr_expect_str_eq(value->data.string, host.c_str());
    PMIX_VALUE_RELEASE(value);
    cr_expect_eq(PMIx_tool_finalize(), PMIX_SUCCESS);
}

Test(tool_session, two_servers)
{
    pid_t first = start("srv1");
    pid_t second = start("srv2");
    pmix_proc_t me;
    cr_assert_eq(connect_to(first, false, &me, nullptr), PMIX_SUCCESS);
    pmix_proc_t me_again;
    pmix_proc_t server2;
    cr_assert_eq(connect_to(second, true, &me_again, &server2), PMIX_SUCCESS);
    cr_expect_str_eq(me_again.nspace, me.nspace);
    cr_expect_eq(me_again.rank, me.rank);
    cr_expect_str_eq(server2.nspace, "srv2");

    pmix_proc_t *servers = nullptr;
    size_t n = 0;
    cr_assert_eq(PMIx_tool_get_servers(&servers, &n), PMIX_SUCCESS);
    cr_assert_eq(n, 2u);
    cr_expect_str_eq(servers[0].nspace, "srv1");  // still the active one
    cr_expect_str_eq(servers[1].nspace, "srv2");
    PMIX_PROC_FREE(servers, n);

    // Requests go to the active server: each knows only its own job.
    cr_expect_eq(job_size_of("srv1-job"), 4u);
    cr_expect_eq(PMIx_tool_set_server(&server2, nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(job_size_of("srv2-job"), 4u);
    cr_expect(namespaces_of_server().find("srv2-job") != std::string::npos);

    pmix_proc_t unknown;
    PMIX_LOAD_PROCID(&unknown, "nobody", 0);
    cr_expect_eq(PMIx_tool_set_server(&unknown, nullptr, 0), PMIX_ERR_NOT_FOUND);
    cr_expect_eq(PMIx_tool_disconnect(&unknown), PMIX_ERR_NOT_FOUND);

    // Leaving the active server hands over to the other one.
    cr_expect_eq(PMIx_tool_disconnect(&server2), PMIX_SUCCESS);
    cr_assert_eq(PMIx_tool_get_servers(&servers, &n), PMIX_SUCCESS);
    cr_assert_eq(n, 1u);
    cr_expect_str_eq(servers[0].nspace, "srv1");
    pmix_proc_t server1 = servers[0];
    PMIX_PROC_FREE(servers, n);
    cr_expect(namespaces_of_server().find("srv1-job") != std::string::npos);

    // Without any server the tool goes on standalone.
    cr_expect_eq(PMIx_tool_disconnect(&server1), PMIX_SUCCESS);
    cr_assert_eq(PMIx_tool_get_servers(&servers, &n), PMIX_SUCCESS);
    cr_expect_eq(n, 0u);
    pmix_value_t *value = nullptr;
    cr_expect_eq(PMIx_Get(&me, PMIX_HOSTNAME, nullptr, 0, &value), PMIX_SUCCESS);
    if (value != nullptr) PMIX_VALUE_RELEASE(value);
    cr_expect_eq(PMIx_tool_finalize(), PMIX_SUCCESS);
}

Test(tool_session, connect_to_server_attaches_and_switches)
{
    pid_t first = start("srv1");
    pid_t second = start("srv2");
    pmix_proc_t me;
    cr_assert_eq(connect_to(first, false, &me, nullptr), PMIX_SUCCESS);
    pmix_info_t info[3];
    std::memset(info, 0, sizeof info);
    load_string(&info[0], PMIX_SERVER_TMPDIR, g_dir);
    load_string(&info[1], PMIX_SYSTEM_TMPDIR, g_dir);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_PIDINFO, &second, PMIX_PID);
    pmix_proc_t again;
    cr_assert_eq(PMIx_tool_connect_to_server(&again, info, 3), PMIX_SUCCESS);
    cr_expect_eq(job_size_of("srv2-job"), 4u);
    PMIx_tool_finalize();
}

Test(tool_session, calls_before_init_say_init)
{
    pmix_proc_t *servers = nullptr;
    size_t n = 0;
    cr_expect_eq(PMIx_tool_get_servers(&servers, &n), PMIX_ERR_INIT);
    pmix_proc_t server;
    PMIX_LOAD_PROCID(&server, "x", 0);
    cr_expect_eq(PMIx_tool_set_server(&server, nullptr, 0), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_tool_disconnect(&server), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_tool_finalize(), PMIX_ERR_INIT);
}
