// Self-access: the host process using the client API against its own server
// (src/server/engine/self_access.h), and the server finalizing while a client
// role of the same process still uses the frameworks.
#include "server/server_fixture.h"

#include "common/runtime/latch.h"
#include "common/store/store.h"
#include "common/values/value_ops.h"
#include "framework/src/selected_modules.h"
#include "server/engine/self_access.h"

#include <pmixpp/gds.h>

#include <criterion/criterion.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>

using namespace server_test;
using namespace pmixpp;

namespace {

constexpr std::chrono::milliseconds kWait{10000};

void setup()
{
    start_server(make_tmpdir());
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

pmix_proc_t proc_of(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
    proc.rank = rank;
    return proc;
}

using GetLatch = runtime::Latch<std::shared_ptr<wire::GetReply>>;

// wait_seconds > 0 passes PMIX_TIMEOUT: the host then waits for the key
// as a client would, instead of NOT_FOUND at once.
std::shared_ptr<GetLatch> get_nb(const pmix_proc_t &target, const char *key, int wait_seconds = 0)
{
    auto done = std::make_shared<GetLatch>();
    pmix_info_t timeout;
    PMIX_INFO_LOAD(&timeout, PMIX_TIMEOUT, &wait_seconds, PMIX_INT);
    const pmix_status_t rc =
        server::server_get_nb(target, key, &timeout, wait_seconds > 0 ? 1 : 0, [done](wire::GetReply &reply) {
            done->complete(reply.status, std::make_shared<wire::GetReply>(std::move(reply)));
        });
    PMIX_INFO_DESTRUCT(&timeout);
    cr_assert_eq(rc, PMIX_SUCCESS, "server_get_nb: %s", PMIx_Error_string(rc));
    return done;
}

void commit_string(RawClient &client, const char *key, const char *value)
{
    wire::CommitRequest commit;
    commit.global = one_info(key, value, PMIX_STRING);
    client.request(1, commit);
    cr_assert_eq(client.reply<wire::StatusReply>().status, PMIX_SUCCESS);
}

}  // namespace

TestSuite(server_self_access, .init = setup, .fini = teardown);

Test(server_self_access, identity_is_the_server_proc)
{
    cr_assert(server::server_running());
    pmix_proc_t self{};
    cr_assert_eq(server::server_identity(&self), PMIX_SUCCESS);
    cr_expect_str_eq(self.nspace, "srv");
    cr_expect_eq(self.rank, 7u);
}

Test(server_self_access, get_of_a_registered_job)
{
    const pmix_proc_t job = proc_of(kJob, PMIX_RANK_WILDCARD);
    pmix_value_t *value = nullptr;
    cr_assert_eq(server::server_get(&job, PMIX_JOB_SIZE, nullptr, 0, &value), PMIX_SUCCESS);
    cr_assert_eq(value->type, PMIX_UINT32);
    cr_expect_eq(value->data.uint32, 2u);
    PMIX_VALUE_RELEASE(value);
}

Test(server_self_access, put_commit_and_get_by_host_and_client)
{
    pmix_value_t value{};
    values::value_load(&value, "host-value", PMIX_STRING);
    cr_assert_eq(server::server_put(PMIX_GLOBAL, "host.key", &value), PMIX_SUCCESS);
    values::value_destruct(&value);
    const pmix_proc_t self = proc_of("srv", 7);
    pmix_value_t *found = nullptr;
    cr_expect_eq(server::server_get(&self, "host.key", nullptr, 0, &found), PMIX_ERR_NOT_FOUND,
                 "a put is not visible before its commit");
    cr_assert_eq(server::server_commit(), PMIX_SUCCESS);
    cr_assert_eq(server::server_get(&self, "host.key", nullptr, 0, &found), PMIX_SUCCESS);
    cr_expect_str_eq(found->data.string, "host-value");
    PMIX_VALUE_RELEASE(found);

    RawClient client;
    cr_assert_eq(client.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    wire::GetRequest get;
    get.proc = self;
    get.key = "host.key";
    client.request(2, get);
    auto reply = client.reply<wire::GetReply>();
    cr_assert_eq(reply.status, PMIX_SUCCESS, "a client reads the host's data: %s", PMIx_Error_string(reply.status));
    cr_expect_str_eq(reply.data[0].value.data.string, "host-value");
}

// Open MPI's mpirun keeps its own contact URI ("opal.puri", not a pmix.
// key) with PMIx_Store_internal and reads it back with PMIx_Get.
Test(server_self_access, store_internal_of_the_host_is_read_back)
{
    const pmix_proc_t self = proc_of("srv", 7);
    pmix_value_t value{};
    values::value_load(&value, "tcp://127.0.0.1:4711", PMIX_STRING);
    cr_assert_eq(PMIx_Store_internal(&self, "opal.puri", &value), PMIX_SUCCESS);
    const pmix_proc_t job = proc_of(kJob, PMIX_RANK_WILDCARD);
    cr_assert_eq(PMIx_Store_internal(&job, "opal.jobwide", &value), PMIX_SUCCESS);
    values::value_destruct(&value);
    pmix_value_t *found = nullptr;
    cr_assert_eq(PMIx_Get(&self, "opal.puri", nullptr, 0, &found), PMIX_SUCCESS);
    cr_expect_str_eq(found->data.string, "tcp://127.0.0.1:4711");
    PMIX_VALUE_RELEASE(found);
    cr_assert_eq(PMIx_Get(&job, "opal.jobwide", nullptr, 0, &found), PMIX_SUCCESS);
    PMIX_VALUE_RELEASE(found);
    cr_expect_eq(PMIx_Store_internal(&self, "", &value), PMIX_ERR_BAD_PARAM);
}

// As OpenPMIx answers its host: PRRTE's direct modex asks for a client's
// key and, on NOT_FOUND, keeps the request and asks again later.
Test(server_self_access, get_of_a_key_not_yet_committed_is_not_found_at_once)
{
    auto asked = get_nb(proc_of(kJob, 1), "late.key");
    cr_expect_eq(asked->wait_for(kWait), PMIX_ERR_NOT_FOUND);
}

Test(server_self_access, get_nb_with_a_timeout_waits_for_a_client_commit)
{
    auto pending = get_nb(proc_of(kJob, 1), "late.key", 30);
    cr_expect(!pending->is_complete(), "nothing to answer with before rank 1 commits");
    RawClient client;
    cr_assert_eq(client.hello(kJob, 1, nullptr), PMIX_SUCCESS);
    commit_string(client, "late.key", "arrived");
    cr_assert_eq(pending->wait_for(kWait), PMIX_SUCCESS);
    const auto &reply = *pending->payload();
    cr_assert_eq(reply.data.size(), 1u);
    cr_expect_str_eq(reply.data[0].value.data.string, "arrived");
}

Test(server_self_access, pending_get_fails_when_the_server_finalizes)
{
    auto pending = get_nb(proc_of(kJob, 0), "never.key", 30);
    cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
    cr_expect_eq(pending->wait_for(kWait), PMIX_ERR_LOST_CONNECTION);
    start_server(make_tmpdir());  // for the suite's teardown
}

Test(server_self_access, fence_of_the_host_alone_and_with_clients)
{
    using FenceLatch = runtime::Latch<>;
    auto alone = std::make_shared<FenceLatch>();
    cr_assert_eq(server::server_fence_nb(nullptr, 0, nullptr, 0,
                                         [alone](wire::FenceReply &reply) { alone->complete(reply.status); }),
                 PMIX_SUCCESS);
    cr_expect_eq(alone->wait_for(kWait), PMIX_SUCCESS);
    const pmix_proc_t job = proc_of(kJob, PMIX_RANK_WILDCARD);
    auto with_clients = std::make_shared<FenceLatch>();
    cr_assert_eq(
        server::server_fence_nb(&job, 1, nullptr, 0,
                                [with_clients](wire::FenceReply &reply) { with_clients->complete(reply.status); }),
        PMIX_SUCCESS);
    cr_expect_eq(with_clients->wait_for(kWait), PMIX_ERR_NOT_SUPPORTED, "no host fence_nb to carry it");
}

Test(server_self_access, query_of_namespaces)
{
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    char key[] = PMIX_QUERY_NAMESPACES;
    char *keys[] = {key, nullptr};
    query.keys = keys;
    auto done = std::make_shared<runtime::Latch<std::string>>();
    const pmix_status_t rc = server::server_query_nb(&query, 1, [done](wire::QueryReply &reply) {
        std::string names;
        if (reply.status == PMIX_SUCCESS && reply.results.size() == 1 && reply.results[0].value.type == PMIX_STRING) {
            names = reply.results[0].value.data.string;
        }
        done->complete(reply.status, names);
    });
    cr_assert_eq(rc, PMIX_SUCCESS);
    cr_assert_eq(done->wait_for(kWait), PMIX_SUCCESS);
    cr_expect(done->payload().find(kJob) != std::string::npos, "namespaces: %s", done->payload().c_str());
}
