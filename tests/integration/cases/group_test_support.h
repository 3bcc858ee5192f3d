// What the group suites (groups_test.cc, group_invites_test.cc) share: the
// host's group upcall answer and the running of one job of a test client.
#ifndef PMIXPP_TESTS_INTEGRATION_CASES_GROUP_TEST_SUPPORT_H
#define PMIXPP_TESTS_INTEGRATION_CASES_GROUP_TEST_SUPPORT_H

#include "integration/cases/itest_support.h"

#include <pmix_server.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace pmixpp::itest {

struct GroupUpcallAnswer {
    pmix_group_operation_t op;
    size_t context_id;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
};

inline void free_group_results(void *cbdata)
{
    auto *info = static_cast<pmix_info_t *>(cbdata);
    PMIX_INFO_FREE(info, 1);
}

inline void send_group_answer(void *arg)
{
    std::unique_ptr<GroupUpcallAnswer> answer(static_cast<GroupUpcallAnswer *>(arg));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (answer->op == PMIX_GROUP_DESTRUCT) {
        return answer->cbfunc(PMIX_SUCCESS, nullptr, 0, answer->cbdata, nullptr, nullptr);
    }
    pmix_info_t *results = nullptr;
    PMIX_INFO_CREATE(results, 1);
    PMIX_INFO_LOAD(&results[0], PMIX_GROUP_CONTEXT_ID, &answer->context_id, PMIX_SIZE);
    answer->cbfunc(PMIX_SUCCESS, results, 1, answer->cbdata, free_group_results, results);
}

// From a host thread, after the upcall returned (as a real host answers):
// a construct gets PMIX_GROUP_CONTEXT_ID `context_id`, a destruct success.
inline pmix_status_t answer_group_upcall_later(pmix_group_operation_t op, size_t context_id, pmix_info_cbfunc_t cbfunc,
                                               void *cbdata)
{
    Host::current()->run_later(send_group_answer, new GroupUpcallAnswer{op, context_id, cbfunc, cbdata});
    return PMIX_SUCCESS;
}

// Runs `program` (a client of clients/) as job `nspace` of `nprocs` ranks on
// the started host and waits for it.
inline std::vector<ProcResult> run_group_job(const char *program, const char *nspace, int nprocs,
                                             const std::vector<std::string> &args)
{
    const JobLayout layout = register_local_job(nspace, nprocs);
    Launch launch;
    launch.program = client_path(program);
    launch.args = args;
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(nspace, layout, launch, &pids), PMIX_SUCCESS);
    return host().wait(pids, kJobTimeoutMs);
}

}  // namespace pmixpp::itest

#endif
