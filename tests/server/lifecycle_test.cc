// PMIx_server_init/finalize, registration calls and setup_fork's environment.
#include "server/server_fixture.h"

#include "common/store/store.h"
#include "common/values/value_ops.h"
#include "framework/src/selected_modules.h"
#include "server/state/server.h"

#include <pmixpp/gds.h>

#include <criterion/criterion.h>

#include <hwloc.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <sched.h>
#include <string>
#include <sys/stat.h>

using namespace server_test;
using pmixpp::values::info_destruct;
using pmixpp::values::info_load;

namespace {

std::atomic<int> g_callbacks{0};
std::atomic<pmix_status_t> g_callback_status{PMIX_ERR_INIT};

void count_callback(pmix_status_t status, void *)
{
    g_callback_status = status;
    ++g_callbacks;
}

void wait_for_callbacks(int expected)
{
    while (g_callbacks.load() < expected) sched_yield();
}

}  // namespace

Test(server_lifecycle, null_module_init_and_finalize)
{
    cr_assert_eq(PMIx_server_init(nullptr, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_assert_eq(PMIx_server_finalize(), PMIX_ERR_INIT, "a second finalize has nothing to stop");
}

// The server's own proc is published for any thread (server.h): present
// while a server runs, gone after finalize, and each server a new generation,
// so the host's event handlers reconnect to a new server of the same name.
Test(server_lifecycle, the_identity_is_published_while_a_server_runs)
{
    pmix_proc_t self{};
    uint64_t first = 0;
    uint64_t second = 0;
    cr_expect_not(pmixpp::server::published_identity(&self), "published before init");
    pmix_info_t info[2];
    const pmix_rank_t rank = 7;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_NSPACE, "ident-srv", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    cr_assert_eq(PMIx_server_init(nullptr, info, 2), PMIX_SUCCESS);
    cr_assert(pmixpp::server::published_identity(&self, &first));
    cr_expect_str_eq(self.nspace, "ident-srv");
    cr_expect_eq(self.rank, rank);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect_not(pmixpp::server::published_identity(&self), "still published after finalize");
    cr_assert_eq(PMIx_server_init(nullptr, info, 2), PMIX_SUCCESS);
    cr_assert(pmixpp::server::published_identity(&self, &second));
    cr_expect_neq(first, second, "a new server, the same generation");
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}

Test(server_lifecycle, calls_before_init_report_init)
{
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, "x");
    char **env = nullptr;
    cr_expect_eq(PMIx_server_setup_fork(&proc, &env), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_server_register_nspace("x", 1, nullptr, 0, nullptr, nullptr), PMIX_ERR_INIT);
    cr_expect_eq(PMIx_server_register_client(&proc, 0, 0, nullptr, nullptr, nullptr), PMIX_ERR_INIT);
}

Test(server_lifecycle, wrong_attribute_type_is_bad_param)
{
    pmix_info_t info;
    info_load(&info, PMIX_SERVER_RANK, "seven", PMIX_STRING);
    cr_expect_eq(PMIx_server_init(nullptr, &info, 1), PMIX_ERR_BAD_PARAM);
    info_destruct(&info);
    cr_expect_eq(PMIx_server_init(nullptr, nullptr, 0), PMIX_SUCCESS, "a failed init leaves nothing behind");
    cr_expect_eq(PMIx_server_finalize(), PMIX_SUCCESS);
}

Test(server_lifecycle, init_is_reference_counted)
{
    cr_assert_eq(PMIx_server_init(nullptr, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_server_init(nullptr, nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect_eq(PMIx_server_register_nspace("still", 0, nullptr, 0, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED,
                 "one finalize of two inits keeps the server");
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
}

Test(server_lifecycle, setup_fork_gives_what_a_client_needs)
{
    const std::string tmpdir = make_tmpdir();
    start_server(tmpdir);
    auto env = fork_env("job9", 3);
    cr_expect_eq(env["PMIX_NAMESPACE"], "job9");
    cr_expect_eq(env["PMIX_RANK"], "3");
    cr_expect_eq(env["PMIX_SERVER_NSPACE"], "srv");
    cr_expect_eq(env["PMIX_SERVER_RANK"], "7");
    // Only usock listens here: OpenPMIx's clients, which speak tcp only,
    // are told of no server rather than of one they cannot parse.
    for (const char *name :
         {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI2", "PMIX_SERVER_URI21"}) {
        cr_expect_eq(env.count(name), 0u, "%s=%s", name, env[name].c_str());
    }
    cr_expect(env["PMIXPP_SERVER_URIS"].rfind("usock:" + tmpdir + "/", 0) == 0);
    cr_expect_eq(env["PMIX_SECURITY_MODE"], "native");
    cr_expect_eq(env["PMIX_GDS_MODULE"], "hash");
    cr_expect_eq(env["PMIXPP_GDS_MODULE"], "hash");
    cr_expect_eq(env["PMIX_BFROP_BUFFER_TYPE"], "PMIX_BFROP_BUFFER_NON_DESC");
    cr_expect_eq(env["PMIX_PTL_MODULE"], "usock");
    cr_expect_eq(env["PMIX_SERVER_TMPDIR"], tmpdir);
    cr_expect_eq(env["PMIX_HOSTNAME"], kHost);
    cr_expect_eq(env["PMIX_VERSION"], "4.2.2");
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
}

Test(server_lifecycle, setup_fork_replaces_existing_entries)
{
    start_server(make_tmpdir());
    char **env = static_cast<char **>(calloc(3, sizeof(char *)));
    env[0] = strdup("PATH=/bin");
    env[1] = strdup("PMIX_RANK=99");
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, "job9");
    proc.rank = 1;
    cr_assert_eq(PMIx_server_setup_fork(&proc, &env), PMIX_SUCCESS);
    int ranks = 0;
    for (char **entry = env; *entry != nullptr; ++entry) {
        if (std::strncmp(*entry, "PMIX_RANK=", 10) == 0) {
            ++ranks;
            cr_expect_str_eq(*entry, "PMIX_RANK=1");
        }
    }
    cr_expect_eq(ranks, 1);
    cr_expect_str_eq(env[0], "PATH=/bin");
    for (char **entry = env; *entry != nullptr; ++entry) free(*entry);
    free(env);
    PMIx_server_finalize();
}

Test(server_lifecycle, socket_file_lives_in_tmpdir_until_finalize)
{
    const std::string tmpdir = make_tmpdir();
    start_server(tmpdir);
    const std::string uri = fork_env("job", 0)["PMIXPP_SERVER_URIS"];
    const std::string path = uri.substr(6);
    struct stat info {};
    cr_assert_eq(stat(path.c_str(), &info), 0, "no socket at %s", path.c_str());
    cr_expect(S_ISSOCK(info.st_mode));
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect_neq(stat(path.c_str(), &info), 0, "finalize must remove %s", path.c_str());
}

Test(server_lifecycle, usock_disable_leaves_no_listener)
{
    pmix_info_t info;
    const bool disable = true;
    info_load(&info, PMIX_USOCK_DISABLE, &disable, PMIX_BOOL);
    cr_assert_eq(PMIx_server_init(nullptr, &info, 1), PMIX_SUCCESS);
    cr_expect_eq(fork_env("job", 0).count("PMIXPP_SERVER_URIS"), 0u);
    PMIx_server_finalize();
}

Test(server_lifecycle, register_and_deregister)
{
    start_server(make_tmpdir());
    register_job("jobA", 2);
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, "jobA");
    proc.rank = 1;
    PMIx_server_deregister_client(&proc, count_callback, nullptr);
    wait_for_callbacks(1);
    cr_expect_eq(g_callback_status.load(), PMIX_SUCCESS);
    PMIx_server_deregister_client(&proc, count_callback, nullptr);
    wait_for_callbacks(2);
    cr_expect_eq(g_callback_status.load(), PMIX_ERR_NOT_FOUND, "a client cannot go twice");
    PMIx_server_deregister_nspace("jobA", count_callback, nullptr);
    wait_for_callbacks(3);
    cr_expect_eq(g_callback_status.load(), PMIX_SUCCESS);
    cr_expect_eq(PMIx_server_register_nspace(nullptr, 0, nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    PMIx_server_finalize();
}

Test(server_lifecycle, cpuset_string_is_hwloc_list)
{
    pmix_cpuset_t cpuset{};
    cpuset.source = const_cast<char *>("hwloc");
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    hwloc_bitmap_set_range(bitmap, 0, 1);
    cpuset.bitmap = bitmap;
    char *text = nullptr;
    cr_assert_eq(PMIx_server_generate_cpuset_string(&cpuset, &text), PMIX_SUCCESS);
    cr_expect_str_eq(text, "hwloc:0-1");
    free(text);
    cpuset.source = const_cast<char *>("other");
    cr_expect_eq(PMIx_server_generate_cpuset_string(&cpuset, &text), PMIX_ERR_NOT_SUPPORTED);
    hwloc_bitmap_free(bitmap);
}

Test(server_lifecycle, locality_string_of_the_first_pu)
{
    start_server(make_tmpdir());
    pmix_cpuset_t cpuset{};
    cpuset.source = const_cast<char *>("hwloc");
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    hwloc_bitmap_set(bitmap, 0);
    cpuset.bitmap = bitmap;
    char *text = nullptr;
    cr_assert_eq(PMIx_server_generate_locality_string(&cpuset, &text), PMIX_SUCCESS);
    cr_expect(std::strstr(text, "HT0") != nullptr, "locality '%s' names PU 0", text);
    free(text);
    hwloc_bitmap_free(bitmap);
    PMIx_server_finalize();
}

namespace {

// PMIX_LOCALITY_STRING the server would give a process bound to one PU.
std::string locality_of_pu(unsigned pu)
{
    pmix_cpuset_t cpuset{};
    cpuset.source = const_cast<char *>("hwloc");
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    hwloc_bitmap_set(bitmap, pu);
    cpuset.bitmap = bitmap;
    char *text = nullptr;
    std::string locality;
    if (PMIx_server_generate_locality_string(&cpuset, &text) == PMIX_SUCCESS) locality = text;
    free(text);
    hwloc_bitmap_free(bitmap);
    return locality;
}

}  // namespace

// What the server writes, PMIx_Get_relative_locality reads, and the answer
// matches the topology: the same core exactly when hwloc says so.
Test(server_lifecycle, relative_locality_of_server_made_strings)
{
    start_server(make_tmpdir());
    hwloc_topology_t topology = nullptr;
    cr_assert_eq(hwloc_topology_init(&topology), 0);
    cr_assert_eq(hwloc_topology_load(topology), 0);
    const int pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
    cr_assert_geq(pus, 1);
    hwloc_obj_t first = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PU, 0);
    hwloc_obj_t last = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PU, static_cast<unsigned>(pus - 1));
    const std::string one = locality_of_pu(first->os_index);
    const std::string other = locality_of_pu(last->os_index);
    cr_assert(!one.empty() && !other.empty());

    pmix_locality_t locality = 0;
    cr_assert_eq(PMIx_Get_relative_locality(one.c_str(), one.c_str(), &locality), PMIX_SUCCESS);
    cr_expect(locality & PMIX_LOCALITY_SHARE_NODE);
    cr_expect(locality & PMIX_LOCALITY_SHARE_HWTHREAD, "'%s' shares its own PU", one.c_str());
    cr_expect(locality & PMIX_LOCALITY_SHARE_CORE, "'%s' shares its own core", one.c_str());

    cr_assert_eq(PMIx_Get_relative_locality(one.c_str(), other.c_str(), &locality), PMIX_SUCCESS);
    const bool same_core = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_CORE, first) ==
                           hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_CORE, last);
    cr_expect_eq((locality & PMIX_LOCALITY_SHARE_CORE) != 0, same_core, "'%s' against '%s'", one.c_str(),
                 other.c_str());
    cr_expect_eq((locality & PMIX_LOCALITY_SHARE_HWTHREAD) != 0, first == last);
    hwloc_topology_destroy(topology);
    PMIx_server_finalize();
}

// A client role of the same process keeps its gds module (and the store it
// made with it) across PMIx_server_finalize.
Test(server_lifecycle, finalize_keeps_frameworks_another_role_uses)
{
    pmixpp::framework::acquire("gds");
    start_server(make_tmpdir());
    cr_expect_eq(pmixpp::framework::users("gds"), 2);
    std::vector<pmixpp::framework::SelectedModule> modules;
    cr_assert_eq(pmixpp::framework::select("gds", &modules), PMIX_SUCCESS);
    cr_assert(!modules.empty());
    std::unique_ptr<pmixpp::store::Store> store;
    cr_assert_eq(pmixpp::store::Store::create(static_cast<const pmixpp_gds_module_t *>(modules[0].module), &store),
                 PMIX_SUCCESS);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect_eq(pmixpp::framework::users("gds"), 1, "the server released only its own share");

    // Still loaded: the module's code runs.
    const uint32_t size = 4;
    pmix_info_t item;
    info_load(&item, PMIX_JOB_SIZE, &size, PMIX_UINT32);
    cr_expect_eq(store->put("ns", PMIXPP_GDS_LEVEL_JOB, 0, &item, 1), PMIX_SUCCESS);
    info_destruct(&item);
    pmixpp::store::ValuePtr value;
    cr_assert_eq(store->fetch("ns", PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_SIZE, &value), PMIX_SUCCESS);
    cr_expect_eq(value->data.uint32, size);
    store.reset();
    pmixpp::framework::release("gds");
    cr_expect_eq(pmixpp::framework::users("gds"), 0);
}

// PMIX_USERID / PMIX_GRPID at init (Slurm passes the job's user; its
// slurmstepd runs as root): the socket and the session directories made for
// the job are that user's, still closed to everyone else.
Test(server_lifecycle, the_jobs_user_owns_its_socket_and_directories)
{
    if (geteuid() != 0) cr_skip_test("only root can give files to another user");
    const std::string tmpdir = make_tmpdir();
    chmod(tmpdir.c_str(), 0755);  // as Slurm's spool directory is
    pmix_info_t info[3];
    const uint32_t uid = 65534;
    const uint32_t gid = 65534;
    info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
    info_load(&info[1], PMIX_USERID, &uid, PMIX_UINT32);
    info_load(&info[2], PMIX_GRPID, &gid, PMIX_UINT32);
    cr_assert_eq(PMIx_server_init(nullptr, info, 3), PMIX_SUCCESS);
    for (auto &item : info) info_destruct(&item);
    register_job(kJob, 1);
    auto env = fork_env(kJob, 0);
    const std::string uris = env["PMIXPP_SERVER_URIS"];
    const std::string socket_path = uris.substr(6, uris.find(';') - 6);
    struct stat st {};
    cr_assert_eq(stat(socket_path.c_str(), &st), 0, "no socket at %s", socket_path.c_str());
    cr_expect_eq(st.st_uid, uid, "socket owner %u", static_cast<unsigned>(st.st_uid));
    cr_expect_eq(st.st_mode & 0777, 0600u, "socket mode %o", st.st_mode & 0777);
    pmix_value_t *procdir = nullptr;
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, kJob);
    proc.rank = 0;
    // The server's own view of the proc's directory (self-access get).
    cr_assert_eq(PMIx_Get(&proc, PMIX_PROCDIR, nullptr, 0, &procdir), PMIX_SUCCESS);
    const std::string dir = procdir->data.string;
    PMIX_VALUE_RELEASE(procdir);
    for (std::string path = dir; path.size() > tmpdir.size(); path = path.substr(0, path.rfind('/'))) {
        cr_assert_eq(stat(path.c_str(), &st), 0, "no directory %s", path.c_str());
        cr_expect_eq(st.st_uid, uid, "%s belongs to uid %u", path.c_str(), static_cast<unsigned>(st.st_uid));
        cr_expect_eq(st.st_mode & 0777, 0700u, "%s has mode %o", path.c_str(), st.st_mode & 0777);
    }
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect_neq(stat(dir.c_str(), &st), 0, "finalize removes the directories it made, whoever owns them");
}
