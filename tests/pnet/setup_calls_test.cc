// PMIx_server_setup_application and _setup_local_support with the real pnet
// components (token, env, simfabric) and fixtures that fail, answer late or
// never answer. Each test runs in its own process with its own settings.
#include "pnet_test_support.h"

#include <criterion/criterion.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <vector>
#include <cstring>
#include <string>

using namespace pnet_test;

namespace {

std::string g_scratch;

void start_with(const char *pnet)
{
    setenv("PMIX_MCA_pnet", pnet, 1);
    g_scratch = scratch_dir();
    start_server(g_scratch);
}

void stop()
{
    PMIx_server_finalize();
    remove_tree(g_scratch);
}

pmix_info_t job_size(uint32_t n)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_JOB_SIZE, &n, PMIX_UINT32);
    return info;
}

std::string envar_value(const SetupResult &result, const char *key, const char *name)
{
    const pmix_info_t *entry = result.find(key, name);
    cr_assert_not_null(entry, "no %s for %s", key, name);
    return entry->value.data.envar.value;
}

bool all_hex(const std::string &text)
{
    return text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

Test(pnet_setup, setup_application_combines_every_component_in_priority_order)
{
    setenv("PNETTEST_FWD_A", "forwarded", 1);
    setenv("PMIX_MCA_pnet_env_forward", "PNETTEST_FWD_*", 1);
    setenv("PMIX_MCA_pnet_env_set", "SITE_FABRIC=sim0", 1);
    setenv("PMIX_MCA_pnet_env_prepend", "PNETTEST_PATH=/site/bin", 1);
    setenv("PMIX_MCA_pnet_simfabric_enable", "1", 1);
    start_with("token,env,simfabric,failing");
    pmix_info_t info = job_size(4);
    const SetupResult result = setup_application("pnet.job1", &info, 1);
    cr_assert_eq(result.status, PMIX_SUCCESS, "a failing component must not fail the others");
    cr_assert_not(result.called_before_return, "the callback ran before the call returned");
    cr_assert(result.released, "no release callback for the array");
    const std::string token = envar_value(result, PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN");
    cr_assert_eq(token.size(), 64u);
    cr_assert(all_hex(token));
    // (Temporaries are compared as std::string: Criterion's macros keep pointers.)
    cr_assert(envar_value(result, PMIX_SET_ENVAR, "SITE_FABRIC") == "sim0");
    cr_assert(envar_value(result, PMIX_SET_ENVAR, "PNETTEST_FWD_A") == "forwarded");
    cr_assert(envar_value(result, PMIX_PREPEND_ENVAR, "PNETTEST_PATH") == "/site/bin");
    cr_assert_eq(result.count(PMIX_PROC_DATA), 4u, "simfabric gives every process an address");
    cr_assert_not_null(result.find("pmixpp.simfab.jobid"));
    // Priority order: token (30) before env (20) before simfabric (5).
    std::size_t token_at = 0, env_at = 0, sim_at = 0;
    for (std::size_t i = 0; i < result.info.size(); ++i) {
        const pmix_info_t &entry = result.info[i];
        if (entry.value.type == PMIX_ENVAR && std::strcmp(entry.value.data.envar.envar, "PMIXPP_JOB_TOKEN") == 0)
            token_at = i;
        if (entry.value.type == PMIX_ENVAR && std::strcmp(entry.value.data.envar.envar, "SITE_FABRIC") == 0) env_at = i;
        if (std::strncmp(entry.key, "pmixpp.simfab.jobid", PMIX_MAX_KEYLEN) == 0) sim_at = i;
    }
    cr_assert(token_at < env_at && env_at < sim_at);
    stop();
}

Test(pnet_setup, every_job_gets_its_own_token)
{
    start_with("token");
    const SetupResult first = setup_application("pnet.a", nullptr, 0);
    const SetupResult second = setup_application("pnet.b", nullptr, 0);
    const SetupResult again = setup_application("pnet.a", nullptr, 0);
    const std::string a = envar_value(first, PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN");
    const std::string b = envar_value(second, PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN");
    const std::string a_again = envar_value(again, PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN");
    cr_assert(a.size() == 64 && b.size() == 64 && a_again.size() == 64);
    cr_assert(a != b, "two jobs share a token");
    cr_assert(a != a_again, "a job set up twice got the same token");
    stop();
}

Test(pnet_setup, token_name_and_length_are_parameters)
{
    setenv("PMIX_MCA_pnet_token_envar", "SITE_TOKEN", 1);
    setenv("PMIX_MCA_pnet_token_bytes", "16", 1);
    start_with("token");
    const SetupResult result = setup_application("pnet.p", nullptr, 0);
    cr_assert_eq(envar_value(result, PMIX_SET_ENVAR, "SITE_TOKEN").size(), 32u);
    cr_assert_null(result.find(PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN"));
    stop();
}

Test(pnet_setup, a_component_that_never_answers_is_timed_out_and_left_out)
{
    setenv("PMIX_MCA_pmix_server_pnet_timeout", "0.5", 1);
    start_with("token,silent");
    const SetupResult result = setup_application("pnet.t", nullptr, 0, 20);
    cr_assert_eq(result.status, PMIX_SUCCESS);
    cr_assert_not_null(result.find(PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN"), "the others' results still arrive");
    stop();
}

Test(pnet_setup, a_late_answer_from_another_thread_is_waited_for)
{
    start_with("token,slow");
    const SetupResult result = setup_application("pnet.s", nullptr, 0);
    cr_assert_eq(result.status, PMIX_SUCCESS);
    cr_assert_not_null(result.find("pnettest.slow"));
    cr_assert_not_null(result.find(PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN"));
    stop();
}

Test(pnet_setup, only_the_envars_or_only_the_rest_when_asked)
{
    setenv("PMIX_MCA_pnet_simfabric_enable", "1", 1);
    start_with("token,simfabric");
    pmix_info_t info[2];
    info[0] = job_size(2);
    bool yes = true;
    PMIX_INFO_LOAD(&info[1], PMIX_SETUP_APP_ENVARS, &yes, PMIX_BOOL);
    const SetupResult envars = setup_application("pnet.e", info, 2);
    cr_assert_not_null(envars.find(PMIX_SET_ENVAR, "PMIXPP_JOB_TOKEN"));
    cr_assert_eq(envars.count(PMIX_PROC_DATA), 0u);
    PMIX_INFO_LOAD(&info[1], PMIX_SETUP_APP_NONENVARS, &yes, PMIX_BOOL);
    const SetupResult rest = setup_application("pnet.e", info, 2);
    cr_assert_eq(rest.count(PMIX_SET_ENVAR), 0u);
    cr_assert_eq(rest.count(PMIX_PROC_DATA), 2u);
    stop();
}

Test(pnet_setup, bad_arguments_and_no_server_are_refused)
{
    cr_assert_eq(PMIx_server_setup_application("pnet.x", nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_server_setup_local_support("", nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_server_setup_local_support("pnet.x", nullptr, 1, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    // No server yet.
    LocalSupport ls;
    cr_assert_eq(start_local_support("pnet.x", nullptr, 0, &ls), PMIX_ERR_INIT);
}

// The RFC: the host must not fork a job's processes until
// setup_local_support called back. A host that does is told so.
Test(pnet_setup, setup_fork_before_local_support_completes_is_refused)
{
    start_with("slow");
    uint32_t one = 1;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_JOB_SIZE, &one, PMIX_UINT32);
    const pmix_status_t reg = PMIx_server_register_nspace("pnet.f", 1, &info, 1, nullptr, nullptr);
    cr_assert(reg == PMIX_SUCCESS || reg == PMIX_OPERATION_SUCCEEDED);
    LocalSupport ls;
    cr_assert_eq(start_local_support("pnet.f", nullptr, 0, &ls), PMIX_SUCCESS);
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, "pnet.f", 0);
    char **env = static_cast<char **>(std::calloc(1, sizeof(char *)));
    cr_assert_eq(PMIx_server_setup_fork(&proc, &env), PMIX_ERR_WOULD_BLOCK, "an early fork must be detected");
    cr_assert_eq(ls.wait(10), PMIX_SUCCESS);
    cr_assert_eq(PMIx_server_setup_fork(&proc, &env), PMIX_SUCCESS);
    for (char **e = env; *e != nullptr; ++e) std::free(*e);
    std::free(env);
    stop();
}

Test(pnet_setup, a_malformed_envar_refuses_the_registration)
{
    start_with("token");
    pmix_info_t info[2];
    uint32_t one = 1;
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &one, PMIX_UINT32);
    uint32_t wrong = 7;
    PMIX_INFO_LOAD(&info[1], PMIX_SET_ENVAR, &wrong, PMIX_UINT32);
    cr_assert_eq(PMIx_server_register_nspace("pnet.m", 1, info, 2, nullptr, nullptr), PMIX_ERR_TYPE_MISMATCH);
    PMIX_INFO_LOAD(&info[1], PMIX_SET_ENVAR, "=novalue", PMIX_STRING);
    cr_assert_eq(PMIx_server_register_nspace("pnet.m", 1, info, 2, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    stop();
}

namespace {

struct Inventory {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    pmix_status_t status = PMIX_ERR_TIMEOUT;
    std::vector<std::string> keys;
};

void on_inventory(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata, pmix_release_cbfunc_t release,
                  void *release_cbdata)
{
    auto *inv = static_cast<Inventory *>(cbdata);
    std::lock_guard lock(inv->mutex);
    inv->status = status;
    for (size_t i = 0; i < ninfo; ++i) inv->keys.emplace_back(info[i].key);
    if (release != nullptr) release(release_cbdata);
    inv->done = true;
    inv->cv.notify_all();
}

void on_delivered(pmix_status_t status, void *cbdata)
{
    auto *inv = static_cast<Inventory *>(cbdata);
    std::lock_guard lock(inv->mutex);
    inv->status = status;
    inv->done = true;
    inv->cv.notify_all();
}

pmix_status_t wait_for(Inventory &inv)
{
    std::unique_lock lock(inv.mutex);
    inv.cv.wait_for(lock, std::chrono::seconds(10), [&] { return inv.done; });
    return inv.done ? inv.status : PMIX_ERR_TIMEOUT;
}

}  // namespace

Test(pnet_setup, inventory_is_collected_from_and_delivered_to_the_components)
{
    setenv("PMIX_MCA_pnet_simfabric_enable", "1", 1);
    start_with("token,simfabric");
    Inventory collected;
    cr_assert_eq(PMIx_server_collect_inventory(nullptr, 0, on_inventory, &collected), PMIX_SUCCESS);
    cr_assert_eq(wait_for(collected), PMIX_SUCCESS);
    cr_assert_eq(collected.keys.size(), 1u, "only simfabric knows a NIC");
    cr_assert(collected.keys[0] == "pmixpp.simfab.nic");
    Inventory delivered;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, "pmixpp.simfab.nic", "simnic0", PMIX_STRING);
    cr_assert_eq(PMIx_server_deliver_inventory(&info, 1, nullptr, 0, on_delivered, &delivered), PMIX_SUCCESS);
    cr_assert_eq(wait_for(delivered), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&info);
    cr_assert_eq(PMIx_server_collect_inventory(nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    stop();
}
