// PMIx_tool_init against child-process servers (tool_server.c): every way
// of finding the server, the identity the host gives, standalone mode, and
// the refusals. Each test runs in its own process, which is the tool.
#include <criterion/criterion.h>

#include <signal.h>
#include <unistd.h>

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

pid_t start(const std::string &name, const std::vector<std::string> &flags)
{
    TestServer server;
    bool up = start_server(&server, name, g_dir, flags);
    g_servers.push_back(server);
    cr_assert(up, "server %s did not start", name.c_str());
    return server.pid;
}

// The info of a tool_init: the test's tmpdirs first, then `extra`.
struct ToolInfo {
    pmix_info_t info[8];
    size_t n = 0;
    ToolInfo()
    {
        std::memset(info, 0, sizeof info);
        load_string(&info[n++], PMIX_SERVER_TMPDIR, g_dir);
        load_string(&info[n++], PMIX_SYSTEM_TMPDIR, g_dir);
    }
    pmix_info_t *next() { return &info[n++]; }
};

pmix_status_t tool_init(ToolInfo &ti, pmix_proc_t *me)
{
    return PMIx_tool_init(me, ti.info, ti.n);
}

void expect_connected_to(const pmix_proc_t &me, const char *server_name)
{
    std::string tool = std::string(server_name) + "-tool";
    cr_expect_str_eq(me.nspace, tool.c_str());
    cr_expect_eq(me.rank, 5u);
}

}  // namespace

TestSuite(tool_connect, .init = setup, .fini = teardown, .timeout = 60);

Test(tool_connect, by_uri)
{
    pid_t pid = start("srvuri", {"--tool"});
    std::string uri = first_line(g_dir + "/pmix." + hostname() + "." + std::to_string(pid));
    cr_assert(uri.find(';') != std::string::npos, "rendezvous file line 1: '%s'", uri.c_str());
    ToolInfo ti;
    load_string(ti.next(), PMIX_SERVER_URI, uri);
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvuri");
    cr_expect_eq(PMIx_tool_finalize(), PMIX_SUCCESS);
}

Test(tool_connect, by_plain_uri)
{
    pid_t pid = start("srvplain", {"--tool"});
    std::string line = first_line(g_dir + "/pmix." + hostname() + "." + std::to_string(pid));
    ToolInfo ti;
    load_string(ti.next(), PMIX_SERVER_URI, line.substr(line.find(';') + 1));
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvplain");
    PMIx_tool_finalize();
}

Test(tool_connect, by_attachment_file)
{
    pid_t pid = start("srvfile", {"--tool"});
    ToolInfo ti;
    load_string(ti.next(), PMIX_TOOL_ATTACHMENT_FILE, g_dir + "/pmix." + hostname() + "." + std::to_string(pid));
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvfile");
    PMIx_tool_finalize();
}

Test(tool_connect, by_pid)
{
    start("srvother", {"--tool"});
    pid_t pid = start("srvpid", {"--tool"});
    ToolInfo ti;
    PMIX_INFO_LOAD(ti.next(), PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvpid");
    PMIx_tool_finalize();
}

Test(tool_connect, by_nspace)
{
    start("srvother", {"--tool"});
    start("srvns", {"--tool"});
    ToolInfo ti;
    load_string(ti.next(), PMIX_SERVER_NSPACE, "srvns");
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvns");
    PMIx_tool_finalize();
}

namespace {

// Beside a plain tool-support server, starts one with `server_flag` and
// checks that a tool given only `attribute` reaches that one.
void expect_flag_reaches(const char *nspace, const char *server_flag, const char *attribute)
{
    start("srvplain", {"--tool"});
    start(nspace, {server_flag});
    ToolInfo ti;
    load_flag(ti.next(), attribute);
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, nspace);
    PMIx_tool_finalize();
}

}  // namespace

Test(tool_connect, to_system)
{
    expect_flag_reaches("srvsys", "--system", PMIX_CONNECT_TO_SYSTEM);
}

Test(tool_connect, to_scheduler)
{
    expect_flag_reaches("srvsched", "--scheduler", PMIX_CONNECT_TO_SCHEDULER);
}

Test(tool_connect, to_controller)
{
    expect_flag_reaches("srvctl", "--controller", PMIX_CONNECT_TO_SYS_CONTROLLER);
}

Test(tool_connect, system_missing_is_unreach)
{
    start("srvplain", {"--tool"});
    ToolInfo ti;
    load_flag(ti.next(), PMIX_CONNECT_TO_SYSTEM);
    pmix_proc_t me;
    cr_expect_eq(tool_init(ti, &me), PMIX_ERR_UNREACH);
}

// As OpenPMIx's tools do, a tool given no PMIX_SYSTEM_TMPDIR attribute looks
// where the PMIX_SYSTEM_TMPDIR environment variable says, before TMPDIR.
Test(tool_connect, system_tmpdir_from_the_environment)
{
    start("srvsys", {"--system"});
    setenv("PMIX_SYSTEM_TMPDIR", g_dir.c_str(), 1);
    setenv("TMPDIR", (g_dir + "/not-here").c_str(), 1);
    pmix_info_t info[1];
    std::memset(info, 0, sizeof info);
    load_flag(&info[0], PMIX_CONNECT_TO_SYSTEM);
    pmix_proc_t me;
    cr_assert_eq(PMIx_tool_init(&me, info, 1), PMIX_SUCCESS);
    expect_connected_to(me, "srvsys");
    PMIx_tool_finalize();
}

// The attribute wins over the environment variable.
Test(tool_connect, system_tmpdir_attribute_wins_over_the_environment)
{
    start("srvsys", {"--system"});
    setenv("PMIX_SYSTEM_TMPDIR", (g_dir + "/not-here").c_str(), 1);
    ToolInfo ti;
    load_flag(ti.next(), PMIX_CONNECT_TO_SYSTEM);
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvsys");
    PMIx_tool_finalize();
}

Test(tool_connect, default_search_finds_the_one_server)
{
    start("srvonly", {"--tool"});
    ToolInfo ti;
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvonly");
    PMIx_tool_finalize();
}

Test(tool_connect, default_search_falls_back_to_the_system_server)
{
    start("srvsys", {"--system"});
    ToolInfo ti;
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvsys");
    PMIx_tool_finalize();
}

Test(tool_connect, default_search_refuses_to_guess_between_servers)
{
    start("srva", {"--tool"});
    start("srvb", {"--tool"});
    ToolInfo ti;
    pmix_proc_t me;
    cr_expect_eq(tool_init(ti, &me), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_tool_finalize(), PMIX_ERR_INIT);
}

Test(tool_connect, skips_the_file_of_a_dead_server)
{
    TestServer dead;
    cr_assert(start_server(&dead, "srvdead", g_dir, {"--tool"}));
    const std::string file = g_dir + "/pmix." + hostname() + "." + std::to_string(dead.pid);
    const std::string text = whole_file(file);
    cr_assert(!text.empty());
    kill(dead.pid, SIGKILL);
    stop_server(&dead);
    start("srvlive", {"--tool"});
    // What a server killed with SIGKILL leaves behind (put back in case the
    // new server reaped it already).
    cr_assert(write_private_file(file, text));
    ToolInfo ti;
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    expect_connected_to(me, "srvlive");
    PMIx_tool_finalize();
}

Test(tool_connect, no_server_is_unreach)
{
    ToolInfo ti;
    pmix_proc_t me;
    cr_expect_eq(tool_init(ti, &me), PMIX_ERR_UNREACH);
}

Test(tool_connect, connect_optional_runs_standalone)
{
    ToolInfo ti;
    load_flag(ti.next(), PMIX_TOOL_CONNECT_OPTIONAL);
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    cr_expect_eq(me.rank, 0u);
    cr_expect(std::strlen(me.nspace) > 0);
    pmix_value_t *value = nullptr;
    cr_assert_eq(PMIx_Get(&me, PMIX_HOSTNAME, nullptr, 0, &value), PMIX_SUCCESS);
    cr_assert_eq(value->type, PMIX_STRING);
    const std::string host = hostname();  // named: Criterion compares after the full expression
    cr_expect_str_eq(value->data.string, host.c_str());
    PMIX_VALUE_RELEASE(value);
    cr_expect_eq(PMIx_tool_finalize(), PMIX_SUCCESS);
}

Test(tool_connect, do_not_connect_runs_standalone_with_its_own_name)
{
    start("srvonly", {"--tool"});
    ToolInfo ti;
    load_flag(ti.next(), PMIX_TOOL_DO_NOT_CONNECT);
    load_string(ti.next(), PMIX_TOOL_NSPACE, "lonely");
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    cr_expect_str_eq(me.nspace, "lonely");
    cr_expect_eq(me.rank, 0u);
    pmix_value_t *value = nullptr;
    cr_assert_eq(PMIx_Get(&me, PMIX_HOSTNAME, nullptr, 0, &value), PMIX_SUCCESS);
    PMIX_VALUE_RELEASE(value);
    pmix_proc_t *servers = nullptr;
    size_t n = 7;
    cr_expect_eq(PMIx_tool_get_servers(&servers, &n), PMIX_SUCCESS);
    cr_expect_eq(n, 0u);
    PMIx_tool_finalize();
}

Test(tool_connect, keeps_its_own_identity_when_the_host_echoes_it)
{
    start("srvecho", {"--tool", "--mode", "echo"});
    ToolInfo ti;
    load_string(ti.next(), PMIX_TOOL_NSPACE, "mytool");
    pmix_rank_t three = 3;
    PMIX_INFO_LOAD(ti.next(), PMIX_TOOL_RANK, &three, PMIX_PROC_RANK);
    pmix_proc_t me;
    cr_assert_eq(tool_init(ti, &me), PMIX_SUCCESS);
    cr_expect_str_eq(me.nspace, "mytool");
    cr_expect_eq(me.rank, 3u);
    PMIx_tool_finalize();
}

Test(tool_connect, host_refusal_is_an_error)
{
    start("srvno", {"--tool", "--mode", "refuse"});
    ToolInfo ti;
    pmix_proc_t me;
    cr_expect_eq(tool_init(ti, &me), PMIX_ERR_NO_PERMISSIONS);
}

Test(tool_connect, host_that_never_answers_is_bounded_by_the_handshake_timeout)
{
    setenv("PMIX_MCA_ptl_base_handshake_timeout", "1", 1);  // inherited by the server
    start("srvmute", {"--tool", "--mode", "silent"});
    ToolInfo ti;
    pmix_proc_t me;
    pmix_status_t rc = tool_init(ti, &me);
    cr_expect_neq(rc, PMIX_SUCCESS);
    cr_expect_neq(rc, PMIX_ERR_TIMEOUT, "the server, not the tool's own 30 s wait, should end it");
}

Test(tool_connect, server_without_tool_connected_refuses)
{
    start("srvnone", {"--tool", "--mode", "none"});
    ToolInfo ti;
    pmix_proc_t me;
    cr_expect_eq(tool_init(ti, &me), PMIX_ERR_NOT_SUPPORTED);
}

Test(tool_connect, bad_attribute_type_is_bad_param)
{
    ToolInfo ti;
    PMIX_INFO_LOAD(ti.next(), PMIX_SERVER_URI, &ti.n, PMIX_SIZE);
    pmix_proc_t me;
    cr_expect_eq(tool_init(ti, &me), PMIX_ERR_BAD_PARAM);
}
