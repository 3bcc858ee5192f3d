// A host that is also a client of itself, as PRRTE's prterun is: the calls
// it makes in the process that runs the server, each answered as OpenPMIx
// answers it. Its own id (PMIx_Get(NULL, PMIX_PROCID)), its own keys that
// nobody stored (NOT_FOUND at once, not a wait for a commit that never
// comes), a spawn handed to its own spawn upcall, a topology it frees
// right after init, its children's output printed on its own stdout
// (PMIX_IOF_LOCAL_OUTPUT), and stdin pushed to its own push_stdin.
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>

#include <hwloc.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "client/host_fixture.h"

using namespace host_test;

namespace {

pmix_proc_t host_proc()
{
    pmix_proc_t me;
    PMIX_LOAD_PROCID(&me, kServerNspace, kServerRank);
    return me;
}

// ---- spawn

struct SpawnSeen {
    int calls = 0;
    pmix_proc_t requester{};
    std::string cmd;
    std::string cwd;
};
SpawnSeen g_spawn;

pmix_status_t spawn_upcall(const pmix_proc_t *requester, const pmix_info_t[], size_t, const pmix_app_t apps[],
                           size_t napps, pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    ++g_spawn.calls;
    g_spawn.requester = *requester;
    if (napps > 0) {
        g_spawn.cmd = apps[0].cmd != nullptr ? apps[0].cmd : "";
        g_spawn.cwd = apps[0].cwd != nullptr ? apps[0].cwd : "";
    }
    char nspace[PMIX_MAX_NSLEN + 1] = "child.job";
    cbfunc(PMIX_SUCCESS, nspace, cbdata);  // inline: the library answers after we return
    return PMIX_SUCCESS;
}

// ---- stdin

struct PushSeen {
    int calls = 0;
    pmix_proc_t source{};
    pmix_proc_t target{};
    std::string bytes;
};
PushSeen g_push;

pmix_status_t push_upcall(const pmix_proc_t *source, const pmix_proc_t targets[], size_t ntargets, const pmix_info_t[],
                          size_t, const pmix_byte_object_t *bo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ++g_push.calls;
    g_push.source = *source;
    if (ntargets > 0) g_push.target = targets[0];
    if (bo != nullptr && bo->size > 0) g_push.bytes.assign(bo->bytes, bo->size);
    if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

void deliver(const char *nspace, pmix_rank_t rank, const char *text)
{
    pmix_proc_t source;
    PMIX_LOAD_PROCID(&source, nspace, rank);
    pmix_byte_object_t bo{const_cast<char *>(text), std::strlen(text)};
    const pmix_status_t rc =
        PMIx_server_IOF_deliver(&source, PMIX_FWD_STDOUT_CHANNEL, &bo, nullptr, 0, nullptr, nullptr);
    cr_assert(rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "deliver: %s", PMIx_Error_string(rc));
}

// A server whose host prints nothing itself (PMIX_IOF_LOCAL_OUTPUT off).
void start_quiet_server()
{
    pmix_info_t off;
    bool no = false;
    PMIX_INFO_LOAD(&off, PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    start_server(nullptr, &off, 1);
    PMIX_INFO_DESTRUCT(&off);
}

void register_job(const char *nspace, const pmix_info_t extra[], size_t nextra)
{
    std::vector<pmix_info_t> job(2 + nextra);
    uint32_t size = 1;
    PMIX_INFO_LOAD(&job[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&job[1], PMIX_NODE_MAP, kHost, PMIX_STRING);
    for (size_t i = 0; i < nextra; ++i) PMIx_Info_xfer(&job[2 + i], &extra[i]);
    const pmix_status_t rc = PMIx_server_register_nspace(nspace, 1, job.data(), job.size(), nullptr, nullptr);
    for (auto &item : job) PMIX_INFO_DESTRUCT(&item);
    cr_assert_eq(rc, PMIX_OPERATION_SUCCEEDED, "register %s: %s", nspace, PMIx_Error_string(rc));
}

void on_value(pmix_status_t status, pmix_value_t *value, void *cbdata)
{
    auto *seen = static_cast<std::pair<pmix_status_t, pmix_proc_t> *>(cbdata);
    seen->second =
        status == PMIX_SUCCESS && value != nullptr && value->type == PMIX_PROC ? *value->data.proc : pmix_proc_t{};
    __atomic_store_n(&seen->first, status, __ATOMIC_RELEASE);
}

}  // namespace

Test(host_as_client, its_own_id_in_every_form, .timeout = 30)
{
    start_server();
    pmix_value_t *val = nullptr;
    cr_assert_eq(PMIx_Get(nullptr, PMIX_PROCID, nullptr, 0, &val), PMIX_SUCCESS);
    cr_assert_eq(val->type, PMIX_PROC);
    cr_expect_str_eq(val->data.proc->nspace, kServerNspace);
    cr_expect_eq(val->data.proc->rank, kServerRank);
    PMIX_VALUE_RELEASE(val);

    std::pair<pmix_status_t, pmix_proc_t> seen{INT_MIN, {}};
    cr_assert_eq(PMIx_Get_nb(nullptr, PMIX_PROCID, nullptr, 0, on_value, &seen), PMIX_SUCCESS);
    while (__atomic_load_n(&seen.first, __ATOMIC_ACQUIRE) == INT_MIN) usleep(1000);
    cr_expect_eq(seen.first, PMIX_SUCCESS);
    cr_expect_str_eq(seen.second.nspace, kServerNspace);
    cr_expect_eq(seen.second.rank, kServerRank);

    const pmix_proc_t me = host_proc();
    cr_assert_eq(PMIx_Get(&me, PMIX_RANK, nullptr, 0, &val), PMIX_SUCCESS);
    cr_expect_eq(val->data.rank, kServerRank);
    PMIX_VALUE_RELEASE(val);
    cr_assert_eq(PMIx_Get(&me, PMIX_NSPACE, nullptr, 0, &val), PMIX_SUCCESS);
    cr_expect_str_eq(val->data.string, kServerNspace);
    PMIX_VALUE_RELEASE(val);
    stop_server();
}

// PRRTE asks for its PMIX_PARENT_ID and commits nothing: a wait for the
// host's own commit would hang it (the test's timeout is the failure).
Test(host_as_client, its_own_key_nobody_stored_is_not_found_at_once, .timeout = 30)
{
    start_server();
    const pmix_proc_t me = host_proc();
    pmix_value_t *val = nullptr;
    cr_expect_eq(PMIx_Get(&me, PMIX_PARENT_ID, nullptr, 0, &val), PMIX_ERR_NOT_FOUND);
    cr_expect_eq(PMIx_Get(&me, "host.never.put", nullptr, 0, &val), PMIX_ERR_NOT_FOUND);
    stop_server();
}

Test(host_as_client, a_spawn_goes_to_its_own_spawn_upcall, .timeout = 30)
{
    pmix_server_module_t module{};
    module.spawn = spawn_upcall;
    start_server(&module);
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup("hostname");
    app.maxprocs = 2;
    char nspace[PMIX_MAX_NSLEN + 1] = "";
    cr_assert_eq(PMIx_Spawn(nullptr, 0, &app, 1, nspace), PMIX_SUCCESS);
    cr_expect_str_eq(nspace, "child.job");
    cr_expect_eq(g_spawn.calls, 1);
    cr_expect_str_eq(g_spawn.requester.nspace, kServerNspace);
    cr_expect_eq(g_spawn.requester.rank, kServerRank);
    cr_expect_str_eq(g_spawn.cmd.c_str(), "hostname");
    char cwd[PATH_MAX];
    cr_assert(getcwd(cwd, sizeof cwd) != nullptr);
    cr_expect_str_eq(g_spawn.cwd.c_str(), cwd, "an app without a cwd starts in the caller's");
    PMIX_APP_DESTRUCT(&app);
    stop_server();
}

Test(host_as_client, a_spawn_without_a_spawn_upcall_is_not_supported, .timeout = 30)
{
    start_server();
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup("hostname");
    app.maxprocs = 1;
    char nspace[PMIX_MAX_NSLEN + 1] = "";
    cr_expect_eq(PMIx_Spawn(nullptr, 0, &app, 1, nspace), PMIX_ERR_NOT_SUPPORTED);
    PMIX_APP_DESTRUCT(&app);
    stop_server();
}

// PRRTE builds its init info with PMIX_INFO_LIST_ADD (which copies the
// topology) and frees it right after PMIx_server_init. The server must keep
// a copy of its own: sharing it and locality strings use it later (a use
// after free that the ASan stage sees).
Test(host_as_client, a_topology_freed_after_init_is_still_there, .timeout = 60)
{
    hwloc_topology_t topology = nullptr;
    cr_assert_eq(hwloc_topology_init(&topology), 0);
    cr_assert_eq(hwloc_topology_load(topology), 0);
    pmix_topology_t given{const_cast<char *>("hwloc"), topology};
    void *list = PMIx_Info_list_start();
    cr_assert_eq(PMIx_Info_list_add(list, PMIX_TOPOLOGY2, &given, PMIX_TOPO), PMIX_SUCCESS);
    bool yes = true;
    cr_assert_eq(PMIx_Info_list_add(list, PMIX_SERVER_SHARE_TOPOLOGY, &yes, PMIX_BOOL), PMIX_SUCCESS);
    pmix_data_array_t array;
    PMIX_DATA_ARRAY_CONSTRUCT(&array, 0, PMIX_INFO);
    cr_assert_eq(PMIx_Info_list_convert(list, &array), PMIX_SUCCESS);
    PMIx_Info_list_release(list);
    start_server(nullptr, static_cast<pmix_info_t *>(array.array), array.size);
    PMIX_DATA_ARRAY_DESTRUCT(&array);  // the host's copy of the topology goes with it

    register_job("topo.job", nullptr, 0);
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    cpuset.source = const_cast<char *>("hwloc");
    cpuset.bitmap = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topology));
    char *locality = nullptr;
    cr_expect_eq(PMIx_server_generate_locality_string(&cpuset, &locality), PMIX_SUCCESS);
    cr_expect(locality != nullptr && std::strlen(locality) > 0);
    free(locality);
    hwloc_bitmap_free(static_cast<hwloc_bitmap_t>(cpuset.bitmap));
    stop_server();
    hwloc_topology_destroy(topology);
}

// What the host delivers is printed on its stdout (PRRTE relies on it), in
// the format its namespace asked for, unless the namespace turned it off.
Test(host_as_client, delivered_output_is_printed_on_its_stdout, .init = cr_redirect_stdout, .timeout = 60)
{
    start_server();
    pmix_info_t tag;
    bool yes = true;
    PMIX_INFO_LOAD(&tag, PMIX_IOF_TAG_OUTPUT, &yes, PMIX_BOOL);
    register_job("tagged.job", &tag, 1);
    PMIX_INFO_DESTRUCT(&tag);
    pmix_info_t quiet;
    bool no = false;
    PMIX_INFO_LOAD(&quiet, PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    register_job("quiet.job", &quiet, 1);
    PMIX_INFO_DESTRUCT(&quiet);

    deliver(kJob, 0, "plain line\n");
    deliver("tagged.job", 0, "tagged line\n");
    deliver("quiet.job", 0, "never shown\n");
    stop_server();  // waits for what is queued to be written
    std::fflush(stdout);
    cr_expect_stdout_eq_str("plain line\n[tagged.job,0]<stdout>: tagged line\n");
}

Test(host_as_client, the_server_s_setting_turns_local_output_off, .init = cr_redirect_stdout, .timeout = 60)
{
    start_quiet_server();
    deliver(kJob, 0, "never shown\n");
    stop_server();
    std::fflush(stdout);
    cr_expect_stdout_eq_str("");
}

// PRRTE pushes stdin to its job and closes it at the end with no target.
Test(host_as_client, stdin_goes_to_its_own_push_stdin, .timeout = 30)
{
    pmix_server_module_t module{};
    module.push_stdin = push_upcall;
    start_server(&module);
    pmix_proc_t target;
    PMIX_LOAD_PROCID(&target, kJob, 0);
    char bytes[] = "input";
    pmix_byte_object_t bo{bytes, 5};
    cr_assert_eq(PMIx_IOF_push(&target, 1, &bo, nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
    cr_expect_eq(g_push.calls, 1);
    cr_expect_str_eq(g_push.source.nspace, kServerNspace);
    cr_expect_eq(g_push.source.rank, kServerRank);
    cr_expect_str_eq(g_push.target.nspace, kJob);
    cr_expect_str_eq(g_push.bytes.c_str(), "input");

    pmix_info_t complete;
    bool yes = true;
    PMIX_INFO_LOAD(&complete, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
    cr_expect_eq(PMIx_IOF_push(nullptr, 0, nullptr, &complete, 1, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    PMIX_INFO_DESTRUCT(&complete);
    stop_server();
}

namespace {

std::string g_pulled;
std::atomic<int> g_chunks{0};

void on_output(size_t, pmix_iof_channel_t, pmix_proc_t *source, pmix_byte_object_t *payload, pmix_info_t[], size_t)
{
    if (source != nullptr && std::strcmp(source->nspace, kJob) == 0 && payload != nullptr) {
        g_pulled.append(payload->bytes, payload->size);
        ++g_chunks;
    }
}

// The host's own pull of kJob's stdout into on_output; its handler id.
size_t pull_job_output()
{
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, kJob, PMIX_RANK_WILDCARD);
    const pmix_status_t id = PMIx_IOF_pull(&job, 1, nullptr, 0, PMIX_FWD_STDOUT_CHANNEL, on_output, nullptr, nullptr);
    cr_assert_geq(id, 0, "PMIx_IOF_pull in the host: %s", PMIx_Error_string(id));
    return static_cast<size_t>(id);
}

}  // namespace

// The host pulls its own children's output, as a tool would: cached output
// first, then what it delivers, until it deregisters.
Test(host_as_client, it_pulls_its_children_s_output, .timeout = 30)
{
    start_quiet_server();
    deliver(kJob, 0, "before the pull\n");
    const size_t id = pull_job_output();
    deliver(kJob, 1, "after the pull\n");
    for (int i = 0; i < 5000 && g_chunks.load() < 2; ++i) usleep(1000);
    cr_expect_str_eq(g_pulled.c_str(), "before the pull\nafter the pull\n");
    cr_expect_eq(PMIx_IOF_deregister(id, nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
    deliver(kJob, 1, "after the end\n");
    cr_expect_eq(PMIx_IOF_deregister(id, nullptr, 0, nullptr, nullptr), PMIX_ERR_NOT_FOUND);
    stop_server();
    cr_expect_str_eq(g_pulled.c_str(), "before the pull\nafter the pull\n");
}

// Output the host handed over before it deregisters its pull still reaches
// the handler: the deliveries run on the progress thread in order, and the
// deregistration waits its turn behind them (PRRTE deregisters right after
// delivering the last of its children's output).
Test(host_as_client, output_delivered_before_the_deregister_reaches_the_pull, .timeout = 30)
{
    start_quiet_server();
    const size_t id = pull_job_output();
    constexpr int kLines = 300;
    std::string expected;
    for (int i = 0; i < kLines; ++i) {
        const std::string line = "line " + std::to_string(i) + "\n";
        deliver(kJob, 0, line.c_str());
        expected += line;
    }
    cr_assert_eq(PMIx_IOF_deregister(id, nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
    const std::size_t at_deregister = g_pulled.size();
    stop_server();
    cr_expect_eq(at_deregister, expected.size(), "%zu of %zu bytes had reached the pull when it was deregistered",
                 at_deregister, expected.size());
    cr_expect_str_eq(g_pulled.c_str(), expected.c_str());
}

namespace {

struct HostCalls {
    int allocations = 0;
    int job_controls = 0;
    pmix_proc_t requester{};
};
HostCalls g_calls;

pmix_status_t allocate_upcall(const pmix_proc_t *requester, pmix_alloc_directive_t, const pmix_info_t[], size_t,
                              pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    ++g_calls.allocations;
    g_calls.requester = *requester;
    pmix_info_t answer;
    const uint32_t session = 42;
    PMIX_INFO_LOAD(&answer, PMIX_SESSION_ID, &session, PMIX_UINT32);
    cbfunc(PMIX_SUCCESS, &answer, 1, cbdata, nullptr, nullptr);
    PMIX_INFO_DESTRUCT(&answer);
    return PMIX_SUCCESS;
}

pmix_status_t job_control_upcall(const pmix_proc_t *requester, const pmix_proc_t[], size_t, const pmix_info_t[], size_t,
                                 pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    ++g_calls.job_controls;
    g_calls.requester = *requester;
    cbfunc(PMIX_SUCCESS, nullptr, 0, cbdata, nullptr, nullptr);
    return PMIX_SUCCESS;
}

}  // namespace

// A host's allocation request and job control go to its own upcalls, the
// server proc as requester, as OpenPMIx hands them.
Test(host_as_client, allocation_and_job_control_go_to_its_own_upcalls, .timeout = 30)
{
    pmix_server_module_t module{};
    module.allocate = allocate_upcall;
    module.job_control = job_control_upcall;
    start_server(&module);
    pmix_info_t nodes;
    const uint64_t one = 1;
    PMIX_INFO_LOAD(&nodes, PMIX_ALLOC_NUM_NODES, &one, PMIX_UINT64);
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_assert_eq(PMIx_Allocation_request(PMIX_ALLOC_EXTEND, &nodes, 1, &results, &nresults), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&nodes);
    cr_expect_eq(g_calls.allocations, 1);
    cr_expect_str_eq(g_calls.requester.nspace, kServerNspace);
    cr_assert_eq(nresults, 1u);
    cr_expect_eq(results[0].value.data.uint32, 42u);
    PMIX_INFO_FREE(results, nresults);

    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, kJob, PMIX_RANK_WILDCARD);
    pmix_info_t kill;
    bool yes = true;
    PMIX_INFO_LOAD(&kill, PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL);
    cr_expect_eq(PMIx_Job_control(&job, 1, &kill, 1, &results, &nresults), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&kill);
    cr_expect_eq(g_calls.job_controls, 1);
    cr_expect_eq(g_calls.requester.rank, kServerRank);
    stop_server();
}

Test(host_as_client, allocation_and_job_control_without_upcalls_are_not_supported, .timeout = 30)
{
    start_server();
    pmix_info_t *results = nullptr;
    size_t nresults = 0;
    cr_expect_eq(PMIx_Allocation_request(PMIX_ALLOC_EXTEND, nullptr, 0, &results, &nresults), PMIX_ERR_NOT_SUPPORTED);
    pmix_info_t kill;
    bool yes = true;
    PMIX_INFO_LOAD(&kill, PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL);
    cr_expect_eq(PMIx_Job_control(nullptr, 0, &kill, 1, &results, &nresults), PMIX_ERR_NOT_SUPPORTED);
    PMIX_INFO_DESTRUCT(&kill);
    stop_server();
}

namespace {

struct NameService {
    int publishes = 0;
    int lookups = 0;
    int unpublishes = 0;
    pmix_proc_t requester{};
    bool user_given = false;
};
NameService g_names;

bool has_user(const pmix_info_t info[], size_t ninfo)
{
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_USERID) && info[i].value.data.uint32 == getuid()) return true;
    }
    return false;
}

pmix_status_t publish_upcall(const pmix_proc_t *requester, const pmix_info_t info[], size_t ninfo,
                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ++g_names.publishes;
    g_names.requester = *requester;
    g_names.user_given = has_user(info, ninfo);
    cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

pmix_status_t lookup_upcall(const pmix_proc_t *requester, char **keys, const pmix_info_t[], size_t,
                            pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    ++g_names.lookups;
    g_names.requester = *requester;
    pmix_pdata_t found;
    PMIX_PDATA_CONSTRUCT(&found);
    PMIX_LOAD_PROCID(&found.proc, kServerNspace, kServerRank);
    PMIX_LOAD_KEY(found.key, keys[0]);
    found.value.type = PMIX_UINT32;
    found.value.data.uint32 = 77;
    cbfunc(PMIX_SUCCESS, &found, 1, cbdata);
    return PMIX_SUCCESS;
}

pmix_status_t unpublish_upcall(const pmix_proc_t *requester, char **, const pmix_info_t[], size_t,
                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ++g_names.unpublishes;
    g_names.requester = *requester;
    cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

}  // namespace

// The host's publish, lookup and unpublish go to its own name service, the
// server proc as requester and its uid in the info, as a client's do.
Test(host_as_client, publish_lookup_unpublish_go_to_its_own_upcalls, .timeout = 30)
{
    pmix_server_module_t module{};
    module.publish = publish_upcall;
    module.lookup = lookup_upcall;
    module.unpublish = unpublish_upcall;
    start_server(&module);
    pmix_info_t item;
    const uint32_t value = 77;
    PMIX_INFO_LOAD(&item, "host.service", &value, PMIX_UINT32);
    cr_expect_eq(PMIx_Publish(&item, 1), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&item);
    cr_expect_eq(g_names.publishes, 1);
    cr_expect(g_names.user_given, "the host's uid was not in the info");
    cr_expect_str_eq(g_names.requester.nspace, kServerNspace);

    pmix_pdata_t wanted;
    PMIX_PDATA_CONSTRUCT(&wanted);
    PMIX_LOAD_KEY(wanted.key, "host.service");
    cr_expect_eq(PMIx_Lookup(&wanted, 1, nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(wanted.value.data.uint32, 77u);
    PMIX_PDATA_DESTRUCT(&wanted);

    char *keys[] = {const_cast<char *>("host.service"), nullptr};
    cr_expect_eq(PMIx_Unpublish(keys, nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(g_names.lookups, 1);
    cr_expect_eq(g_names.unpublishes, 1);
    cr_expect_eq(g_names.requester.rank, kServerRank);
    stop_server();
}

namespace {

struct Membership {
    int connects = 0;
    int disconnects = 0;
    std::vector<pmix_proc_t> procs;
};
Membership g_membership;

pmix_status_t connect_upcall(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t,
                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ++g_membership.connects;
    g_membership.procs.assign(procs, procs + nprocs);
    cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

pmix_status_t disconnect_upcall(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, pmix_op_cbfunc_t, void *)
{
    ++g_membership.disconnects;
    return PMIX_OPERATION_SUCCEEDED;
}

}  // namespace

// The host is no participant of its clients' collectives: a connect of
// only itself is done at once, any other set goes to its own upcall as is.
Test(host_as_client, connect_and_disconnect_go_to_its_own_upcalls, .timeout = 30)
{
    pmix_server_module_t module{};
    module.connect = connect_upcall;
    module.disconnect = disconnect_upcall;
    start_server(&module);
    pmix_proc_t self;
    PMIX_LOAD_PROCID(&self, kServerNspace, kServerRank);
    cr_expect_eq(PMIx_Connect(&self, 1, nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(g_membership.connects, 0, "a connect of only the host reached the upcall");

    pmix_proc_t pair[2];
    PMIX_LOAD_PROCID(&pair[0], kServerNspace, kServerRank);
    PMIX_LOAD_PROCID(&pair[1], "elsewhere", PMIX_RANK_WILDCARD);
    cr_expect_eq(PMIx_Connect(pair, 2, nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(g_membership.connects, 1);
    cr_assert_eq(g_membership.procs.size(), 2u);
    cr_expect_str_eq(g_membership.procs[1].nspace, "elsewhere");
    cr_expect_eq(g_membership.procs[1].rank, PMIX_RANK_WILDCARD);

    cr_expect_eq(PMIx_Disconnect(pair, 2, nullptr, 0), PMIX_SUCCESS);
    cr_expect_eq(g_membership.disconnects, 1);
    cr_expect_eq(PMIx_Connect(nullptr, 0, nullptr, 0), PMIX_ERR_BAD_PARAM);
    stop_server();
}

Test(host_as_client, connect_without_the_upcall_is_not_supported, .timeout = 30)
{
    pmix_server_module_t module{};
    start_server(&module);
    pmix_proc_t other;
    PMIX_LOAD_PROCID(&other, "elsewhere", 0);
    cr_expect_eq(PMIx_Connect(&other, 1, nullptr, 0), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(PMIx_Disconnect(&other, 1, nullptr, 0), PMIX_ERR_NOT_SUPPORTED);
    stop_server();
}

namespace {

struct HostLog {
    int calls = 0;
    pmix_proc_t requester{};
    std::string channel;
};
HostLog g_log;

void log_upcall(const pmix_proc_t *requester, const pmix_info_t data[], size_t ndata, const pmix_info_t[], size_t,
                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ++g_log.calls;
    g_log.requester = *requester;
    if (ndata > 0) g_log.channel = data[0].key;
    cbfunc(PMIX_SUCCESS, cbdata);
}

}  // namespace

// What the host's PMIx_Log cannot write itself (here: the job record) goes
// to its own log upcall, the server proc as requester.
Test(host_as_client, log_channels_it_cannot_serve_go_to_its_own_upcall, .timeout = 30)
{
    pmix_server_module_t module{};
    module.log = log_upcall;
    start_server(&module);
    pmix_info_t record;
    PMIX_INFO_LOAD(&record, PMIX_LOG_JOB_RECORD, "host ran", PMIX_STRING);
    cr_expect_eq(PMIx_Log(&record, 1, nullptr, 0), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&record);
    cr_expect_eq(g_log.calls, 1);
    cr_expect_str_eq(g_log.channel.c_str(), PMIX_LOG_JOB_RECORD);
    cr_expect_str_eq(g_log.requester.nspace, kServerNspace);
    cr_expect_eq(g_log.requester.rank, kServerRank);
    stop_server();

    pmix_server_module_t silent{};
    start_server(&silent);
    PMIX_INFO_LOAD(&record, PMIX_LOG_JOB_RECORD, "nobody keeps it", PMIX_STRING);
    cr_expect_eq(PMIx_Log(&record, 1, nullptr, 0), PMIX_ERR_NOT_SUPPORTED);
    PMIX_INFO_DESTRUCT(&record);
    stop_server();
}
