// The RFC's flow end to end: a "head node" (pnet_head_node, a process with
// its own server) calls setup_application; its result travels as bytes, the way a
// launch message carries it, to the "compute node" (this process), which
// registers the namespace with it, prepares local support, forks real
// clients through setup_fork; the clients see the token, the site's envars
// and every peer's fabric address without a fence; then every cleanup runs
// once and every file a component made is gone.
#include "pnet_test_support.h"

#include <criterion/criterion.h>

#include <sys/wait.h>
#include <unistd.h>

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

constexpr const char *kNs = "pnet.flow";

std::string read_all(int fd)
{
    std::string text;
    char chunk[4096];
    ssize_t n = 0;
    while ((n = ::read(fd, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
    ::close(fd);
    return text;
}

// Runs the head node (pnet_head_node, exec'd: a program of its own, with
// no thread of this one); the info array it produced, unpacked.
std::vector<pmix_info_t> launch_message()
{
    int fds[2];
    cr_assert_eq(::pipe(fds), 0);
    char *argv[] = {const_cast<char *>(PNET_HEAD_NODE), nullptr};
    const pid_t pid = ::fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        ::dup2(fds[1], STDOUT_FILENO);
        ::close(fds[0]);
        ::close(fds[1]);
        ::execv(PNET_HEAD_NODE, argv);
        _exit(127);
    }
    ::close(fds[1]);
    const std::string bytes = read_all(fds[0]);
    int status = 0;
    cr_assert_eq(::waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "pnet_head_node failed: exit %d, signal %d",
              WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    pmix_data_buffer_t buffer;
    PMIX_DATA_BUFFER_CONSTRUCT(&buffer);
    PMIX_DATA_BUFFER_LOAD(&buffer, const_cast<char *>(bytes.data()), bytes.size());
    size_t ninfo = 0;
    int32_t count = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, &buffer, &ninfo, &count, PMIX_SIZE), PMIX_SUCCESS);
    std::vector<pmix_info_t> info(ninfo);
    count = static_cast<int32_t>(ninfo);
    cr_assert_eq(PMIx_Data_unpack(nullptr, &buffer, info.data(), &count, PMIX_INFO), PMIX_SUCCESS);
    buffer.base_ptr = nullptr;  // the bytes belong to `bytes`
    return info;
}

void register_job(std::vector<pmix_info_t> &launch)
{
    char hostname[256] = {};
    gethostname(hostname, sizeof hostname - 1);
    char *node_map = nullptr, *proc_map = nullptr;
    cr_assert_eq(PMIx_generate_regex(hostname, &node_map), PMIX_SUCCESS);
    cr_assert_eq(PMIx_generate_ppn("0,1", &proc_map), PMIX_SUCCESS);
    std::vector<pmix_info_t> info(4);
    uint32_t size = 2;
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, node_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[3], PMIX_HOSTNAME, hostname, PMIX_STRING);
    for (const pmix_info_t &entry : launch) {
        info.emplace_back();
        PMIX_INFO_CONSTRUCT(&info.back());
        PMIx_Info_xfer(&info.back(), &entry);
    }
    const pmix_status_t rc = PMIx_server_register_nspace(kNs, 2, info.data(), info.size(), nullptr, nullptr);
    cr_assert(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "%s", PMIx_Error_string(rc));
    for (pmix_info_t &entry : info) PMIX_INFO_DESTRUCT(&entry);
    std::free(node_map);
    std::free(proc_map);
    for (pmix_rank_t r = 0; r < 2; ++r) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, kNs, r);
        const pmix_status_t c = PMIx_server_register_client(&proc, geteuid(), getegid(), nullptr, nullptr, nullptr);
        cr_assert(c == PMIX_SUCCESS || c == PMIX_OPERATION_SUCCEEDED);
    }
}

struct Client {
    pid_t pid = -1;
    int out = -1;
};

Client fork_client(pmix_rank_t rank)
{
    std::size_t count = 0;
    while (environ[count] != nullptr) ++count;
    auto **env = static_cast<char **>(std::calloc(count + 1, sizeof(char *)));
    for (std::size_t i = 0; i < count; ++i) env[i] = strdup(environ[i]);
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, kNs, rank);
    cr_assert_eq(PMIx_server_setup_fork(&proc, &env), PMIX_SUCCESS);
    // simfabric wrote this child's port file at setup_fork; check it now: the
    // child removes it again when it finalizes, which may be before fork
    // returns here.
    bool port_file = false;
    for (char **e = env; *e != nullptr; ++e) {
        const std::string entry = *e;
        const std::string name = "SIMFAB_PORT_FILE=";
        if (entry.rfind(name, 0) == 0) port_file = ::access(entry.c_str() + name.size(), F_OK) == 0;
    }
    cr_assert(port_file, "setup_fork of rank %u wrote no port file (SIMFAB_PORT_FILE)", rank);
    int fds[2];
    cr_assert_eq(::pipe(fds), 0);
    Client client;
    client.pid = ::fork();
    cr_assert_geq(client.pid, 0);
    if (client.pid == 0) {
        ::dup2(fds[1], STDOUT_FILENO);
        ::close(fds[0]);
        char *argv[] = {const_cast<char *>(PNET_CLIENT), nullptr};
        ::execve(PNET_CLIENT, argv, env);
        _exit(127);
    }
    ::close(fds[1]);
    client.out = fds[0];
    for (char **e = env; *e != nullptr; ++e) std::free(*e);
    std::free(env);
    return client;
}

bool has_line(const std::string &output, const std::string &line)
{
    return ("\n" + output).find("\n" + line + "\n") != std::string::npos;
}

std::size_t count_lines(const std::string &path, const std::string &line)
{
    std::ifstream in(path);
    std::size_t n = 0;
    for (std::string got; std::getline(in, got);) n += got == line ? 1 : 0;
    return n;
}

// Polls (bounded) until no file of `dir` starts with `prefix`.
bool gone_within(const std::string &dir, const std::string &prefix, int seconds)
{
    for (int i = 0; i < seconds * 20; ++i) {
        if (files_with_prefix(dir, prefix).empty()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

std::string token_of(const std::vector<pmix_info_t> &launch)
{
    for (const pmix_info_t &entry : launch) {
        if (entry.value.type == PMIX_ENVAR && std::strcmp(entry.value.data.envar.envar, "PMIXPP_JOB_TOKEN") == 0) {
            return entry.value.data.envar.value;
        }
    }
    return {};
}

}  // namespace

Test(pnet_flow, the_rfc_flow_from_head_node_to_clients_and_back, .timeout = 120)
{
    const std::string scratch = scratch_dir();
    const std::string hooks = scratch + "/hooks.log";
    setenv("PNET_FIXTURE_LOG", hooks.c_str(), 1);
    setenv("PMIX_MCA_pnet", "token,env,simfabric,slow", 1);
    setenv("PMIX_MCA_pnet_simfabric_enable", "1", 1);
    setenv("PMIX_MCA_pnet_env_set", "SITE_FABRIC=sim0", 1);
    setenv("PMIX_MCA_pnet_env_forward", "PNETTEST_FWD_*", 1);
    setenv("PMIX_MCA_pnet_env_prepend", "PNETTEST_PATH=/site/bin", 1);
    setenv("PMIX_MCA_pnet_env_unset", "PNETTEST_DROP*", 1);
    setenv("PNETTEST_FWD_A", "forwarded", 1);
    setenv("PNETTEST_PATH", "/usr/bin", 1);
    setenv("PNETTEST_DROP_ME", "secret", 1);

    std::vector<pmix_info_t> launch = launch_message();
    const std::string token = token_of(launch);
    cr_assert_eq(token.size(), 64u, "the head node's token travels in the launch message");

    start_server(scratch);
    register_job(launch);
    const std::string nsdir = nsdir_of(scratch, kNs);
    LocalSupport ls;
    cr_assert_eq(start_local_support(kNs, launch.data(), launch.size(), &ls), PMIX_SUCCESS);
    cr_assert_eq(ls.wait(20), PMIX_SUCCESS);
    cr_assert(exists(nsdir + "/simfab.table"), "no address table in %s", nsdir.c_str());
    cr_assert(exists(nsdir + "/simfab.app0.ctx"));

    Client clients[2] = {fork_client(0), fork_client(1)};  // each checks its port file
    for (const Client &client : clients) {
        const std::string output = read_all(client.out);
        int status = 0;
        cr_assert_eq(::waitpid(client.pid, &status, 0), client.pid);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "client failed:\n%s", output.c_str());
        cr_assert(has_line(output, "ENV PMIXPP_JOB_TOKEN " + token), "%s", output.c_str());
        cr_assert(has_line(output, "ENV SITE_FABRIC sim0"), "%s", output.c_str());
        cr_assert(has_line(output, "ENV PNETTEST_FWD_A forwarded"), "%s", output.c_str());
        cr_assert(has_line(output, "ENV PNETTEST_PATH /site/bin:/usr/bin"), "%s", output.c_str());
        cr_assert(has_line(output, "ENV PNETTEST_DROP_ME (unset)"), "%s", output.c_str());
        cr_assert(has_line(output, "PORTFILE present"), "%s", output.c_str());
        for (int r = 0; r < 2; ++r) {
            const std::string prefix = "ADDR " + std::to_string(r) + " simfab://";
            cr_assert(output.find(prefix) != std::string::npos, "no address of rank %d without a fence:\n%s", r,
                      output.c_str());
        }
    }
    // The clients are gone: their ports, then their application's context.
    cr_assert(gone_within(nsdir, "simfab.rank", 10), "child cleanup left port files");
    cr_assert(gone_within(nsdir, "simfab.app", 10), "application cleanup left its context");
    for (pmix_rank_t r = 0; r < 2; ++r) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, kNs, r);
        PMIx_server_deregister_client(&proc, nullptr, nullptr);
    }
    PMIx_server_deregister_nspace(kNs, nullptr, nullptr);
    cr_assert(gone_within(nsdir, "simfab.", 10), "namespace cleanup left the address table");
    PMIx_server_finalize();

    const std::string ns(kNs);
    cr_assert_eq(count_lines(hooks, "child_finalized " + ns + ".0"), 1u, "child cleanup must run exactly once");
    cr_assert_eq(count_lines(hooks, "child_finalized " + ns + ".1"), 1u);
    cr_assert_eq(count_lines(hooks, "local_app_finalized " + ns + " 0"), 1u);
    cr_assert_eq(count_lines(hooks, "deregister_nspace " + ns), 1u);
    cr_assert_eq(count_lines(hooks, "setup_local_support " + ns), 1u);
    for (pmix_info_t &entry : launch) PMIX_INFO_DESTRUCT(&entry);
    remove_tree(scratch);
}
