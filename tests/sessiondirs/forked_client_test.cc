// End to end through the public server API: a server with no PMIX_TMPDIR
// makes the session, nspace and proc dirs, a real forked client reads them
// with PMIx_Get, and they are gone after the deregistrations / finalize.
#include "sessiondirs/sessiondirs_fixture.h"

#include <pmix.h>
#include <pmix_server.h>

#include <criterion/criterion.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/wait.h>

namespace {

constexpr const char *kNspace = "sdir-job";

std::string session_dir(const std::string &scratch)
{
    return scratch + "/pmix-session." + std::to_string(geteuid()) + "." + std::to_string(getpid());
}

void start_server(const std::string &scratch, bool rmclean)
{
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, scratch.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, scratch.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_TDIR_RMCLEAN, &rmclean, PMIX_BOOL);
    static pmix_server_module_t module{};
    cr_assert_eq(PMIx_server_init(&module, info, 3), PMIX_SUCCESS);
}

void register_job()
{
    char hostname[256] = {};
    gethostname(hostname, sizeof(hostname) - 1);
    char *node_map = nullptr;
    char *proc_map = nullptr;
    cr_assert_eq(PMIx_generate_regex(hostname, &node_map), PMIX_SUCCESS);
    cr_assert_eq(PMIx_generate_ppn("0", &proc_map), PMIX_SUCCESS);
    uint32_t size = 1;
    pmix_info_t info[4];
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, node_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[3], PMIX_HOSTNAME, hostname, PMIX_STRING);
    const pmix_status_t rc = PMIx_server_register_nspace(kNspace, 1, info, 4, nullptr, nullptr);
    cr_assert(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "%s", PMIx_Error_string(rc));
    std::free(node_map);
    std::free(proc_map);
}

void register_client(const pmix_proc_t &proc)
{
    const pmix_status_t rc = PMIx_server_register_client(&proc, geteuid(), getegid(), nullptr, nullptr, nullptr);
    cr_assert(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "%s", PMIx_Error_string(rc));
}

// Forks the client with setup_fork's environment; its exit status.
int run_client(const pmix_proc_t &proc)
{
    std::size_t count = 0;
    while (environ[count] != nullptr) ++count;
    auto **env = static_cast<char **>(std::calloc(count + 1, sizeof(char *)));
    cr_assert_not_null(env);
    for (std::size_t i = 0; i < count; ++i) env[i] = strdup(environ[i]);
    cr_assert_eq(PMIx_server_setup_fork(&proc, &env), PMIX_SUCCESS);
    const pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        char *argv[] = {const_cast<char *>(SDIR_CLIENT), nullptr};
        execve(SDIR_CLIENT, argv, env);
        _exit(127);
    }
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    for (char **entry = env; *entry != nullptr; ++entry) std::free(*entry);
    std::free(env);
    return status;
}

}  // namespace

Test(forked_client, gets_dirs_and_they_are_removed, .timeout = 120)
{
    const std::string scratch = make_scratch();
    start_server(scratch, false);
    register_job();
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, kNspace, 0);
    register_client(proc);
    const std::string nsdir = session_dir(scratch) + "/" + kNspace;
    cr_assert_eq(mode_of(session_dir(scratch)), 0700u);
    cr_assert_eq(mode_of(nsdir), 0700u);
    cr_assert_not(exists(nsdir + "/0"), "the proc dir is made when its process asks for it");
    const int status = run_client(proc);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "client status %d", status);
    cr_assert_eq(mode_of(nsdir + "/0"), 0700u);
    cr_assert(exists(nsdir + "/0/scratch"), "the client wrote into its PMIX_PROCDIR");
    PMIx_server_deregister_client(&proc, nullptr, nullptr);
    cr_assert_not(exists(nsdir + "/0"));
    PMIx_server_deregister_nspace(kNspace, nullptr, nullptr);
    cr_assert_not(exists(nsdir));
    cr_assert(exists(session_dir(scratch)));
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_assert_not(exists(session_dir(scratch)));
    remove_scratch(scratch);
}

namespace {

// The proc's PMIX_PROCDIR as the host reads it (a self-access get, which
// also makes the directory: whoever knows the name finds it there).
std::string host_reads_procdir(const pmix_proc_t &proc)
{
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = PMIx_Get(&proc, PMIX_PROCDIR, nullptr, 0, &value);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIX_PROCDIR of rank %u: %s", proc.rank, PMIx_Error_string(rc));
    cr_assert_eq(value->type, PMIX_STRING);
    std::string path = value->data.string;
    PMIX_VALUE_RELEASE(value);
    return path;
}

}  // namespace

// setup_fork without register_client (a host that forks first) names the
// client's directory itself; after register_client it does not go to the
// progress thread for it. Either way the host's get finds the directory.
Test(forked_client, setup_fork_names_the_directory_of_an_unregistered_client, .timeout = 120)
{
    const std::string scratch = make_scratch();
    start_server(scratch, false);
    register_job();
    pmix_proc_t first;
    pmix_proc_t second;
    PMIX_LOAD_PROCID(&first, kNspace, 0);
    PMIX_LOAD_PROCID(&second, kNspace, 1);
    const std::string nsdir = session_dir(scratch) + "/" + kNspace;
    char **env = static_cast<char **>(std::calloc(1, sizeof(char *)));
    cr_assert_eq(PMIx_server_setup_fork(&first, &env), PMIX_SUCCESS);
    cr_assert_eq(host_reads_procdir(first), nsdir + "/0", "setup_fork before register_client named no directory");
    cr_assert(exists(nsdir + "/0"));
    register_client(second);
    cr_assert_eq(PMIx_server_setup_fork(&second, &env), PMIX_SUCCESS);
    cr_assert_not(exists(nsdir + "/1"), "made before anyone asked");
    cr_assert_eq(host_reads_procdir(second), nsdir + "/1");
    cr_assert_eq(mode_of(nsdir + "/1"), 0700u);
    PMIx_server_deregister_client(&second, nullptr, nullptr);
    cr_assert_not(exists(nsdir + "/1"));
    for (char **entry = env; *entry != nullptr; ++entry) std::free(*entry);
    std::free(env);
    PMIx_server_deregister_nspace(kNspace, nullptr, nullptr);
    cr_assert_not(exists(nsdir + "/0"));
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    remove_scratch(scratch);
}

Test(forked_client, rmclean_leaves_the_tree_to_the_host, .timeout = 120)
{
    const std::string scratch = make_scratch();
    start_server(scratch, true);
    register_job();
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, kNspace, 0);
    register_client(proc);
    PMIx_server_deregister_client(&proc, nullptr, nullptr);
    PMIx_server_deregister_nspace(kNspace, nullptr, nullptr);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_assert(exists(session_dir(scratch) + "/" + kNspace + "/0"));
    remove_scratch(scratch);
}

Test(forked_client, server_tmpdir_envar_is_the_fallback_of_the_attribute, .timeout = 120)
{
    const std::string scratch = make_scratch();
    setenv("PMIX_SERVER_TMPDIR", scratch.c_str(), 1);
    setenv("TMPDIR", "/nonexistent-tmpdir", 1);
    static pmix_server_module_t module{};
    cr_assert_eq(PMIx_server_init(&module, nullptr, 0), PMIX_SUCCESS);
    register_job();
    cr_assert_eq(mode_of(session_dir(scratch) + "/" + kNspace), 0700u);
    PMIx_server_deregister_nspace(kNspace, nullptr, nullptr);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_assert_not(exists(session_dir(scratch)));
    remove_scratch(scratch);
}
