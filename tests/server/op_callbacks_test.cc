// Server calls that take a pmix_op_cbfunc_t answer as OpenPMIx 4.2 does
// (Open MPI's pmix3x/ext3x and python3-pmix wait for the callback only when
// the call returned PMIX_SUCCESS, and treat anything else as a failure):
// with a callback PMIX_SUCCESS and the callback exactly once, later (never
// before the call returned); without one PMIX_OPERATION_SUCCEEDED; an error
// is returned and the callback never called.
#include "server/server_fixture.h"

#include "common/runtime/progress_engine.h"

#include <criterion/criterion.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>

using namespace server_test;
using namespace pmixpp;

namespace {

struct OpRecord {
    std::mutex mutex;
    std::condition_variable changed;
    int calls = 0;
    pmix_status_t status = PMIX_ERROR;
    bool returned = false;
    bool called_before_return = false;

    void mark_returned()
    {
        std::lock_guard lock(mutex);
        returned = true;
    }
    // Waits (bounded) for the first callback; false if none came.
    bool wait_called()
    {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, std::chrono::milliseconds(kTimeoutMs), [this] { return calls > 0; });
    }
};

void record_callback(pmix_status_t status, void *cbdata)
{
    auto *record = static_cast<OpRecord *>(cbdata);
    std::lock_guard lock(record->mutex);
    if (!record->returned) record->called_before_return = true;
    record->calls++;
    record->status = status;
    record->changed.notify_all();
}

// Calls op with the recording callback, as a host thread would. (Whether
// the callback came after the return is checked on the progress thread
// below: from here the callback may legitimately win the race.)
void expect_success_then_callback(const char *what, const std::function<pmix_status_t(OpRecord &)> &op)
{
    OpRecord record;
    const pmix_status_t rc = op(record);
    cr_assert_eq(rc, PMIX_SUCCESS, "%s with a callback returned %s, not PMIX_SUCCESS", what, PMIx_Error_string(rc));
    cr_assert(record.wait_called(), "%s never called its callback", what);
    // A second callback would be posted right behind the first: a later
    // call's callback arriving proves there was none.
    OpRecord marker;
    const pmix_proc_t nobody{};
    PMIx_server_deregister_client(&nobody, record_callback, &marker);
    cr_assert(marker.wait_called());
    std::lock_guard lock(record.mutex);
    cr_expect_eq(record.status, PMIX_SUCCESS, "%s called back with %s", what, PMIx_Error_string(record.status));
    cr_expect_eq(record.calls, 1, "%s called back %d times", what, record.calls);
}

// The same call made on the progress thread itself (a host calling from
// inside an upcall, or driving its own event base): a callback made inline
// would be seen before the call returned.
void expect_callback_after_return_on_progress_thread(const char *what,
                                                     const std::function<pmix_status_t(OpRecord &)> &op)
{
    OpRecord record;
    pmix_status_t rc = PMIX_ERROR;
    const pmix_status_t ran = runtime::ProgressEngine::process().run_and_wait([&] {
        rc = op(record);
        record.mark_returned();
    });
    cr_assert_eq(ran, PMIX_SUCCESS);
    cr_assert_eq(rc, PMIX_SUCCESS, "%s returned %s", what, PMIx_Error_string(rc));
    cr_assert(record.wait_called(), "%s never called its callback", what);
    std::lock_guard lock(record.mutex);
    cr_expect_not(record.called_before_return, "%s called back before it returned", what);
}

pmix_proc_t proc_of(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
    proc.rank = rank;
    return proc;
}

pmix_status_t register_two_ranks(const char *nspace, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    const uint32_t size = 2;
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, kHost, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, "0,1", PMIX_STRING);
    const pmix_status_t rc = PMIx_server_register_nspace(nspace, 2, info, 3, cbfunc, cbdata);
    for (auto &item : info) PMIX_INFO_DESTRUCT(&item);
    return rc;
}

void start()
{
    start_server(make_tmpdir());
}

void teardown()
{
    PMIx_server_finalize();
}

}  // namespace

TestSuite(server_op_callbacks, .init = start, .fini = teardown);

Test(server_op_callbacks, register_nspace)
{
    cr_expect_eq(register_two_ranks("nocb", nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    expect_success_then_callback("PMIx_server_register_nspace", [](OpRecord &record) {
        return register_two_ranks("withcb", record_callback, &record);
    });
    expect_callback_after_return_on_progress_thread("PMIx_server_register_nspace", [](OpRecord &record) {
        return register_two_ranks("inline", record_callback, &record);
    });
    // The registration is really there: its clients can be set up.
    char **env = nullptr;
    const pmix_proc_t proc = proc_of("withcb", 1);
    cr_expect_eq(PMIx_server_setup_fork(&proc, &env), PMIX_SUCCESS);
    for (char **entry = env; entry != nullptr && *entry != nullptr; ++entry) free(*entry);
    free(env);
}

Test(server_op_callbacks, register_client)
{
    register_job(kJob, 3);  // the fixture checks PMIX_OPERATION_SUCCEEDED without a callback
    expect_success_then_callback("PMIx_server_register_client", [](OpRecord &record) {
        const pmix_proc_t proc = proc_of(kJob, 1);
        return PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, record_callback, &record);
    });
    expect_callback_after_return_on_progress_thread("PMIx_server_register_client", [](OpRecord &record) {
        const pmix_proc_t proc = proc_of(kJob, 2);
        return PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, record_callback, &record);
    });
}

Test(server_op_callbacks, errors_are_returned_without_callback)
{
    OpRecord failed;
    cr_expect_eq(PMIx_server_register_nspace("", 1, nullptr, 0, record_callback, &failed), PMIX_ERR_BAD_PARAM);
    const pmix_proc_t wildcard = proc_of(kJob, PMIX_RANK_WILDCARD);
    cr_expect_eq(PMIx_server_register_client(&wildcard, getuid(), getgid(), nullptr, record_callback, &failed),
                 PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_server_register_resources(nullptr, 0, record_callback, &failed), PMIX_ERR_BAD_PARAM);
    // Posted work runs in order: once a later call has called back, an
    // earlier callback would have come too.
    OpRecord marker;
    cr_assert_eq(register_two_ranks("marker", record_callback, &marker), PMIX_SUCCESS);
    cr_assert(marker.wait_called());
    std::lock_guard lock(failed.mutex);
    cr_expect_eq(failed.calls, 0, "a failed call must not call back");
}

Test(server_op_callbacks, resources)
{
    pmix_info_t node[2];
    PMIX_INFO_LOAD(&node[0], PMIX_HOSTNAME, "farhost", PMIX_STRING);
    PMIX_INFO_LOAD(&node[1], "test.slots", "64", PMIX_STRING);
    pmix_data_array_t array{PMIX_INFO, 2, node};
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_NODE_INFO_ARRAY, &array, PMIX_DATA_ARRAY);
    expect_success_then_callback("PMIx_server_register_resources", [&](OpRecord &record) {
        return PMIx_server_register_resources(&info, 1, record_callback, &record);
    });
    expect_callback_after_return_on_progress_thread("PMIx_server_deregister_resources", [&](OpRecord &record) {
        return PMIx_server_deregister_resources(&info, 1, record_callback, &record);
    });
    cr_expect_eq(PMIx_server_register_resources(&info, 1, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    cr_expect_eq(PMIx_server_deregister_resources(&info, 1, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    PMIX_INFO_DESTRUCT(&info);
    for (auto &item : node) PMIX_INFO_DESTRUCT(&item);
}

Test(server_op_callbacks, iof_deliver)
{
    const pmix_proc_t source = proc_of(kJob, 0);
    char text[] = "out";
    pmix_byte_object_t bytes{text, 3};
    cr_expect_eq(PMIx_server_IOF_deliver(&source, PMIX_FWD_STDOUT_CHANNEL, &bytes, nullptr, 0, nullptr, nullptr),
                 PMIX_OPERATION_SUCCEEDED);
    expect_callback_after_return_on_progress_thread("PMIx_server_IOF_deliver", [&](OpRecord &record) {
        return PMIx_server_IOF_deliver(&source, PMIX_FWD_STDOUT_CHANNEL, &bytes, nullptr, 0, record_callback, &record);
    });
}

Test(server_op_callbacks, void_deregistrations_call_back_after_return)
{
    register_job(kJob, 2);
    expect_callback_after_return_on_progress_thread("PMIx_server_deregister_client", [](OpRecord &record) {
        const pmix_proc_t proc = proc_of(kJob, 1);
        PMIx_server_deregister_client(&proc, record_callback, &record);
        return PMIX_SUCCESS;
    });
    expect_callback_after_return_on_progress_thread("PMIx_server_deregister_nspace", [](OpRecord &record) {
        PMIx_server_deregister_nspace(kJob, record_callback, &record);
        return PMIX_SUCCESS;
    });
}

// No callback in their signature: OpenPMIx 4.2 reports the completed work
// with PMIX_OPERATION_SUCCEEDED.
Test(server_op_callbacks, process_sets_complete_at_once)
{
    const pmix_proc_t member = proc_of(kJob, 0);
    cr_expect_eq(PMIx_server_define_process_set(&member, 1, "pset"), PMIX_OPERATION_SUCCEEDED);
    char name[] = "pset";
    cr_expect_eq(PMIx_server_delete_process_set(name), PMIX_OPERATION_SUCCEEDED);
    cr_expect_eq(PMIx_server_delete_process_set(name), PMIX_ERR_NOT_FOUND);
}
