// PMIx_Fabric_register / _update / _deregister with a real server in this
// process: from forked clients (pnet_fabric_client checks every answer)
// and from the server process itself; answered by pnet/simfabric, by a
// test host's fabric upcall when simfabric is excluded, or by nobody
// (PMIX_ERR_NOT_AVAILABLE and one line); never by a component whose module
// table predates the fabric methods (the oldtable fixture).
#include "pnet_test_support.h"

#include <criterion/criterion.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace pnet_test;

namespace {

constexpr const char *kServerNs = "fabsrv";
constexpr size_t kHostIndex = 77;

std::string g_scratch;
std::atomic<int> g_requests{0};
std::atomic<int> g_updates{0};

// ---- the test host's fabric upcall ---------------------------------------------

const char *text_of(const pmix_info_t info[], size_t n, const char *key)
{
    for (size_t i = 0; i < n; ++i) {
        if (PMIX_CHECK_KEY(&info[i], key) && info[i].value.type == PMIX_STRING) return info[i].value.data.string;
    }
    return nullptr;
}

void free_answer(void *cbdata)
{
    auto *answer = static_cast<std::pair<pmix_info_t *, size_t> *>(cbdata);
    PMIX_INFO_FREE(answer->first, answer->second);
    delete answer;
}

// REQUEST_INFO answers inside the upcall (the server must cope); the
// update answers later, from another thread, as a host that asks a fabric
// manager would.
pmix_status_t host_fabric(const pmix_proc_t *requestor, pmix_fabric_operation_t op, const pmix_info_t dirs[],
                          size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    auto *answer = new std::pair<pmix_info_t *, size_t>(nullptr, 5);
    PMIX_INFO_CREATE(answer->first, answer->second);
    pmix_info_t *info = answer->first;
    PMIX_INFO_LOAD(&info[0], PMIX_FABRIC_VENDOR, "test host", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_FABRIC_IDENTIFIER, "hostfab", PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_FABRIC_INDEX, &kHostIndex, PMIX_SIZE);
    if (op == PMIX_FABRIC_REQUEST_INFO) {
        ++g_requests;
        const std::string who = std::string(requestor->nspace) + "." + std::to_string(requestor->rank);
        const char *plane = text_of(dirs, ndirs, PMIX_FABRIC_PLANE);
        PMIX_INFO_LOAD(&info[3], "test.requestor", who.c_str(), PMIX_STRING);
        PMIX_INFO_LOAD(&info[4], "test.plane", plane != nullptr ? plane : "", PMIX_STRING);
        cbfunc(PMIX_SUCCESS, info, answer->second, cbdata, free_answer, answer);
        return PMIX_SUCCESS;
    }
    ++g_updates;
    // The update names the fabric by the index the host gave it.
    const bool right = ndirs == 1 && PMIX_CHECK_KEY(&dirs[0], PMIX_FABRIC_INDEX) && dirs[0].value.type == PMIX_SIZE &&
                       dirs[0].value.data.size == kHostIndex;
    PMIX_INFO_LOAD(&info[3], "test.updated", "yes", PMIX_STRING);
    PMIX_INFO_LOAD(&info[4], "test.op", "update", PMIX_STRING);
    std::thread([=] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        cbfunc(right ? PMIX_SUCCESS : PMIX_ERR_BAD_PARAM, answer->first, answer->second, cbdata, free_answer, answer);
    }).detach();
    return PMIX_SUCCESS;
}

// ---- the server ------------------------------------------------------------------

void start(const char *pnet, bool with_upcall)
{
    setenv("PMIX_MCA_pnet", pnet, 1);
    setenv("PMIX_MCA_pnet_simfabric_enable", "1", 1);
    g_scratch = scratch_dir();
    pmix_info_t info[4];
    const pmix_rank_t rank = 0;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, g_scratch.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, g_scratch.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_NSPACE, kServerNs, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    static pmix_server_module_t module;
    module = pmix_server_module_t{};
    if (with_upcall) module.fabric = host_fabric;
    const pmix_status_t rc = PMIx_server_init(&module, info, 4);
    for (pmix_info_t &entry : info) PMIX_INFO_DESTRUCT(&entry);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIx_server_init: %s", PMIx_Error_string(rc));
}

void stop()
{
    PMIx_server_finalize();
    remove_tree(g_scratch);
}

void register_job(const char *nspace)
{
    char hostname[256] = {};
    gethostname(hostname, sizeof hostname - 1);
    char *node_map = nullptr, *proc_map = nullptr;
    cr_assert_eq(PMIx_generate_regex(hostname, &node_map), PMIX_SUCCESS);
    cr_assert_eq(PMIx_generate_ppn("0", &proc_map), PMIX_SUCCESS);
    pmix_info_t info[4];
    uint32_t size = 1;
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, node_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[3], PMIX_HOSTNAME, hostname, PMIX_STRING);
    const pmix_status_t rc = PMIx_server_register_nspace(nspace, 1, info, 4, nullptr, nullptr);
    cr_assert(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "%s", PMIx_Error_string(rc));
    for (pmix_info_t &entry : info) PMIX_INFO_DESTRUCT(&entry);
    std::free(node_map);
    std::free(proc_map);
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace, 0);
    const pmix_status_t c = PMIx_server_register_client(&proc, geteuid(), getegid(), nullptr, nullptr, nullptr);
    cr_assert(c == PMIX_SUCCESS || c == PMIX_OPERATION_SUCCEEDED);
}

// Runs pnet_fabric_client <mode> as rank 0 of a job of its own; its output.
std::string run_client(const char *nspace, const char *mode)
{
    register_job(nspace);
    std::size_t count = 0;
    while (environ[count] != nullptr) ++count;
    auto **env = static_cast<char **>(std::calloc(count + 1, sizeof(char *)));
    for (std::size_t i = 0; i < count; ++i) env[i] = strdup(environ[i]);
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace, 0);
    cr_assert_eq(PMIx_server_setup_fork(&proc, &env), PMIX_SUCCESS);
    int fds[2];
    cr_assert_eq(::pipe(fds), 0);
    char *argv[] = {const_cast<char *>(FABRIC_CLIENT), const_cast<char *>(mode), nullptr};
    const pid_t pid = ::fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        ::dup2(fds[1], STDOUT_FILENO);
        ::close(fds[0]);
        ::execve(FABRIC_CLIENT, argv, env);
        _exit(127);
    }
    ::close(fds[1]);
    for (char **e = env; *e != nullptr; ++e) std::free(*e);
    std::free(env);
    std::string output;
    char chunk[4096];
    ssize_t n = 0;
    while ((n = ::read(fds[0], chunk, sizeof chunk)) > 0) output.append(chunk, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    cr_assert_eq(::waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "client (%s) failed: %s", mode, output.c_str());
    cr_assert(output.find(std::string("ok ") + mode) != std::string::npos, "client output: %s", output.c_str());
    return output;
}

// ---- the server process's own calls ----------------------------------------------

const pmix_info_t *find(const pmix_fabric_t &fabric, const char *key)
{
    for (size_t i = 0; i < fabric.ninfo; ++i) {
        if (PMIX_CHECK_KEY(&fabric.info[i], key)) return &fabric.info[i];
    }
    return nullptr;
}

std::string text(const pmix_fabric_t &fabric, const char *key)
{
    const pmix_info_t *entry = find(fabric, key);
    return entry != nullptr && entry->value.type == PMIX_STRING ? entry->value.data.string : "";
}

uint32_t jobs_of(const pmix_fabric_t &fabric)
{
    const pmix_info_t *entry = find(fabric, "pmixpp.simfab.jobs");
    cr_assert_not_null(entry);
    return entry->value.data.uint32;
}

// Lines of this process's stderr written while `fn` runs.
template <typename Fn> std::string stderr_of(Fn fn)
{
    const std::string path = g_scratch + "/stderr.txt";
    const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert_geq(file, 0);
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(file, STDERR_FILENO);
    fn();
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    ::close(file);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::size_t count_of(const std::string &text, const std::string &what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

Test(pnet_fabric, a_client_registers_updates_and_deregisters_through_simfabric, .timeout = 60)
{
    start("simfabric", false);
    run_client("fab.sim", "simfabric");
    cr_expect_eq(g_requests.load(), 0, "the host was asked although simfabric knows the fabric");
    stop();
}

// A client that ends without deregistering: its registrations end with its
// connection, and the component hears of each.
Test(pnet_fabric, a_clients_registrations_end_with_its_connection, .timeout = 60)
{
    start("simfabric", false);
    run_client("fab.leave", "leave");
    uint32_t held = 0;
    for (int attempt = 0; attempt < 200; ++attempt) {  // the server sees the connection end soon after
        pmix_fabric_t fabric = PMIX_FABRIC_STATIC_INIT;
        cr_assert_eq(PMIx_Fabric_register(&fabric, nullptr, 0), PMIX_SUCCESS);
        const pmix_info_t *entry = find(fabric, "pmixpp.simfab.registrations");
        cr_assert_not_null(entry);
        held = entry->value.data.uint32;
        cr_assert_eq(PMIx_Fabric_deregister(&fabric), PMIX_SUCCESS);
        if (held == 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    cr_expect_eq(held, 1u, "simfabric still holds the ended client's registrations");
    stop();
}

Test(pnet_fabric, a_client_gets_the_host_upcall_answer_when_simfabric_is_excluded, .timeout = 60)
{
    start("^simfabric", true);
    run_client("fab.host", "host");
    cr_expect_eq(g_requests.load(), 1);
    cr_expect_eq(g_updates.load(), 1);
    stop();
}

Test(pnet_fabric, a_client_gets_not_available_when_nobody_knows_a_fabric, .timeout = 60)
{
    start("^simfabric", false);
    run_client("fab.none", "none");
    stop();
}

Test(pnet_fabric, the_server_process_registers_through_simfabric, .timeout = 60)
{
    start("simfabric", true);
    pmix_fabric_t fabric = PMIX_FABRIC_STATIC_INIT;
    cr_assert_eq(PMIx_Fabric_register(&fabric, nullptr, 0), PMIX_SUCCESS);
    cr_assert_str_eq(fabric.name, "simfab0");
    cr_assert_neq(fabric.index, 0u);
    cr_expect(text(fabric, PMIX_FABRIC_VENDOR) == "pmixpp simulated fabric");
    cr_expect_eq(jobs_of(fabric), 0u);
    // A job prepared on this node since: the update sees it.
    uint32_t one = 1;
    pmix_info_t size;
    PMIX_INFO_LOAD(&size, PMIX_JOB_SIZE, &one, PMIX_UINT32);
    const pmix_status_t reg = PMIx_server_register_nspace("fab.local", 1, &size, 1, nullptr, nullptr);
    cr_assert(reg == PMIX_SUCCESS || reg == PMIX_OPERATION_SUCCEEDED);
    LocalSupport ls;
    cr_assert_eq(start_local_support("fab.local", nullptr, 0, &ls), PMIX_SUCCESS);
    cr_assert_eq(ls.wait(10), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Fabric_update(&fabric), PMIX_SUCCESS);
    cr_expect_eq(jobs_of(fabric), 1u);
    cr_expect_str_eq(fabric.name, "simfab0");
    cr_assert_eq(PMIx_Fabric_deregister(&fabric), PMIX_SUCCESS);
    cr_expect_null(fabric.info);
    cr_expect_null(fabric.name);
    cr_expect_eq(PMIx_Fabric_update(&fabric), PMIX_ERR_NOT_FOUND);
    cr_expect_eq(g_requests.load(), 0);
    stop();
}

Test(pnet_fabric, the_server_process_asks_its_own_host_upcall, .timeout = 60)
{
    start("^simfabric", true);
    pmix_fabric_t fabric = PMIX_FABRIC_STATIC_INIT;
    cr_assert_eq(PMIx_Fabric_register(&fabric, nullptr, 0), PMIX_SUCCESS);
    cr_assert_str_eq(fabric.name, "hostfab");
    cr_expect(text(fabric, "test.requestor") == std::string(kServerNs) + ".0");
    const pmix_info_t *index = find(fabric, PMIX_FABRIC_INDEX);
    cr_assert_not_null(index);
    cr_expect_eq(index->value.data.size, fabric.index, "the server's index replaces the host's own");
    cr_assert_eq(PMIx_Fabric_update(&fabric), PMIX_SUCCESS);
    cr_expect(text(fabric, "test.updated") == "yes");
    cr_assert_eq(PMIx_Fabric_deregister(&fabric), PMIX_SUCCESS);
    cr_expect_eq(g_requests.load(), 1);
    cr_expect_eq(g_updates.load(), 1);
    stop();
}

Test(pnet_fabric, nobody_to_answer_is_not_available_and_said_once, .timeout = 60)
{
    start("^simfabric", false);
    pmix_fabric_t fabric = PMIX_FABRIC_STATIC_INIT;
    pmix_status_t first = PMIX_SUCCESS, second = PMIX_SUCCESS;
    const std::string lines = stderr_of([&] {
        first = PMIx_Fabric_register(&fabric, nullptr, 0);
        second = PMIx_Fabric_register(&fabric, nullptr, 0);
    });
    cr_expect_eq(first, PMIX_ERR_NOT_AVAILABLE);
    cr_expect_eq(second, PMIX_ERR_NOT_AVAILABLE);
    cr_expect_eq(count_of(lines, "PMIx_Fabric_register of"), 1u, "stderr: %s", lines.c_str());
    cr_expect_eq(count_of(lines, "no active pnet component knows a fabric, and the host offers no fabric upcall"), 1u,
                 "stderr: %s", lines.c_str());
    cr_expect_null(fabric.info);
    stop();
}

// A requester holds a bounded number of registrations at once.
Test(pnet_fabric, registrations_of_one_requester_are_bounded, .timeout = 60)
{
    start("simfabric", false);
    std::vector<pmix_fabric_t> held(64, pmix_fabric_t PMIX_FABRIC_STATIC_INIT);
    for (pmix_fabric_t &fabric : held) cr_assert_eq(PMIx_Fabric_register(&fabric, nullptr, 0), PMIX_SUCCESS);
    pmix_fabric_t one_more = PMIX_FABRIC_STATIC_INIT;
    cr_expect_eq(PMIx_Fabric_register(&one_more, nullptr, 0), PMIX_ERR_OUT_OF_RESOURCE);
    cr_assert_eq(PMIx_Fabric_deregister(&held.back()), PMIX_SUCCESS);
    cr_expect_eq(PMIx_Fabric_register(&one_more, nullptr, 0), PMIX_SUCCESS, "a freed place is usable again");
    held.back() = one_more;
    for (pmix_fabric_t &fabric : held) cr_expect_eq(PMIx_Fabric_deregister(&fabric), PMIX_SUCCESS);
    stop();
}

Test(pnet_fabric, bad_parameters_and_no_initialisation_are_refused)
{
    pmix_fabric_t fabric = PMIX_FABRIC_STATIC_INIT;
    cr_expect_eq(PMIx_Fabric_register(&fabric, nullptr, 0), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_Fabric_register_nb(&fabric, nullptr, 0, nullptr, nullptr), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_Fabric_update(&fabric), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_Fabric_update_nb(&fabric, nullptr, nullptr), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_Fabric_deregister(&fabric), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_Fabric_deregister_nb(&fabric, nullptr, nullptr), PMIX_ERR_INIT);
    start("simfabric", false);
    cr_expect_eq(PMIx_Fabric_register(nullptr, nullptr, 0), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Fabric_register_nb(nullptr, nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Fabric_register(&fabric, nullptr, 1), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Fabric_update(nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Fabric_update_nb(nullptr, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Fabric_deregister(nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Fabric_deregister_nb(nullptr, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Fabric_update(&fabric), PMIX_ERR_NOT_FOUND, "index 0 is never a registration");
    stop();
}

// A component built against pnet 1.1 is never asked about fabrics, even
// first in line, even with fabric methods where its short table ends.
// (Parameters are read once per process: one server start per test.)
namespace {

std::string oldtable_calls(const char *pnet, pmix_status_t expected)
{
    const std::string log = "/tmp/pnet-fabric-oldtable." + std::to_string(getpid());
    setenv("PNET_FIXTURE_LOG", log.c_str(), 1);
    setenv("PMIX_MCA_pnet_oldtable_priority", "90", 1);
    start(pnet, false);
    pmix_fabric_t fabric = PMIX_FABRIC_STATIC_INIT;
    const pmix_status_t rc = PMIx_Fabric_register(&fabric, nullptr, 0);
    cr_expect_eq(rc, expected, "%s", PMIx_Error_string(rc));
    if (rc == PMIX_SUCCESS) {
        cr_expect_str_eq(fabric.name, "simfab0");
        cr_expect_eq(PMIx_Fabric_update(&fabric), PMIX_SUCCESS);
        cr_expect_eq(PMIx_Fabric_deregister(&fabric), PMIX_SUCCESS);
    }
    stop();
    std::ifstream in(log);
    std::stringstream calls;
    calls << in.rdbuf();
    ::unlink(log.c_str());
    return calls.str();
}

}  // namespace

Test(pnet_fabric, an_old_module_table_first_in_line_is_passed_over, .timeout = 60)
{
    const std::string calls = oldtable_calls("oldtable,simfabric", PMIX_SUCCESS);
    cr_expect_eq(calls.find("fabric"), std::string::npos, "the old table was called: %s", calls.c_str());
}

Test(pnet_fabric, an_old_module_table_alone_is_never_asked, .timeout = 60)
{
    const std::string calls = oldtable_calls("oldtable", PMIX_ERR_NOT_AVAILABLE);
    cr_expect_eq(calls.find("fabric"), std::string::npos, "the old table was called: %s", calls.c_str());
}
