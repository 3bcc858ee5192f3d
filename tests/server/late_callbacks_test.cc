// Host callbacks that arrive after the request timed out: the data the host
// was handed stays valid until it calls back, and the late callback is
// harmless (its bookkeeping is freed by whichever comes last).
#include "server/server_fixture.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

using namespace server_test;
using namespace pmixpp;

namespace {

// What the host kept from its fence_nb / direct_modex upcall.
struct Held {
    std::mutex mutex;
    pmix_modex_cbfunc_t cbfunc = nullptr;
    void *cbdata = nullptr;
    const char *data = nullptr;
    std::vector<char> copy;  // what data held at the time of the call
    pmix_proc_t first_proc{};
    size_t nprocs = 0;
};
Held g_fence;
Held g_modex;

pmix_status_t slow_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t, char *data,
                         size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    std::lock_guard lock(g_fence.mutex);
    g_fence.cbfunc = cbfunc;
    g_fence.cbdata = cbdata;
    g_fence.data = data;
    g_fence.copy.assign(data, data + ndata);
    g_fence.first_proc = procs[0];
    g_fence.nprocs = nprocs;
    return PMIX_SUCCESS;  // answers later, after the fence timed out
}

pmix_status_t slow_modex(const pmix_proc_t *, const pmix_info_t[], size_t, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    std::lock_guard lock(g_modex.mutex);
    g_modex.cbfunc = cbfunc;
    g_modex.cbdata = cbdata;
    return PMIX_SUCCESS;
}

pmix_server_module_t g_host{};

void setup()
{
    g_host.fence_nb = slow_fence;
    g_host.direct_modex = slow_modex;
    start_server(make_tmpdir(), &g_host);
    // Rank 1 lives on another node: its data needs the host.
    const uint32_t size = 2;
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, "testhost,farhost", PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, "0;1", PMIX_STRING);
    cr_assert_eq(PMIx_server_register_nspace(kJob, 1, info, 3, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    for (auto &item : info) PMIX_INFO_DESTRUCT(&item);
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, kJob);
    proc.rank = 0;
    cr_assert_eq(PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, nullptr, nullptr),
                 PMIX_OPERATION_SUCCEEDED);
}

void teardown()
{
    PMIx_server_finalize();
}

wire::InfoArray timeout_of_one_second(bool collect)
{
    wire::InfoArray directives;
    cr_assert_eq(directives.allocate(collect ? 2 : 1), PMIX_SUCCESS);
    const int seconds = 1;
    PMIX_INFO_LOAD(&directives[0], PMIX_TIMEOUT, &seconds, PMIX_INT);
    const bool yes = true;
    if (collect) PMIX_INFO_LOAD(&directives[1], PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    return directives;
}

void still_serving(RawClient &client)
{
    client.request(50, wire::CommitRequest{});
    cr_expect_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS, "the server stopped serving");
}

}  // namespace

TestSuite(server_late_callbacks, .init = setup, .fini = teardown);

Test(server_late_callbacks, fence_callback_after_the_timeout)
{
    RawClient client;
    cr_assert_eq(client.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    wire::CommitRequest commit;
    commit.global = one_info("k", "a value the host must still be able to read", PMIX_STRING);
    client.request(1, commit);
    cr_assert_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
    wire::FenceRequest fence;
    fence.directives = timeout_of_one_second(true);
    client.request(2, fence);
    cr_expect_eq(client.reply<wire::FenceReply>().status, PMIX_ERR_TIMEOUT);

    std::lock_guard lock(g_fence.mutex);
    cr_assert(g_fence.cbfunc != nullptr, "the host's fence_nb was not called");
    cr_assert(!g_fence.copy.empty(), "the local contribution was empty");
    cr_expect_eq(std::memcmp(g_fence.data, g_fence.copy.data(), g_fence.copy.size()), 0,
                 "the data handed to the host changed or was freed before it called back");
    cr_expect_str_eq(g_fence.first_proc.nspace, kJob);
    g_fence.cbfunc(PMIX_SUCCESS, nullptr, 0, g_fence.cbdata, nullptr, nullptr);
    std::free(const_cast<void *>(static_cast<const void *>(g_fence.data)));  // the host's to free, as with OpenPMIx
    still_serving(client);
}

Test(server_late_callbacks, direct_modex_callback_after_the_timeout)
{
    RawClient client;
    cr_assert_eq(client.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    wire::GetRequest get;
    std::strcpy(get.proc.nspace, kJob);
    get.proc.rank = 1;
    get.key = "remote.key";
    get.directives = timeout_of_one_second(false);
    client.request(2, get);
    cr_expect_eq(client.reply<wire::GetReply>().status, PMIX_ERR_TIMEOUT);
    std::lock_guard lock(g_modex.mutex);
    cr_assert(g_modex.cbfunc != nullptr, "the host's direct_modex was not called");
    g_modex.cbfunc(PMIX_ERR_NOT_FOUND, nullptr, 0, g_modex.cbdata, nullptr, nullptr);
    still_serving(client);
}
