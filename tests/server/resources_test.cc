// PMIx_server_register_resources / deregister_resources: node-level data
// the host and its clients find with PMIX_NODE_INFO.
#include "server/server_fixture.h"

#include "server/engine/self_access.h"

#include <criterion/criterion.h>

#include <cstring>

using namespace server_test;
using namespace pmixpp;

namespace {

void setup()
{
    start_server(make_tmpdir());
    register_job(kJob, 2);
}

void teardown()
{
    PMIx_server_finalize();
}

const bool kTrue = true;

// PMIx_Get(srv wildcard, key, {PMIX_NODE_INFO[, PMIX_HOSTNAME=host]}) by the host.
pmix_status_t host_get(const char *key, const char *host, pmix_value_t **value_p)
{
    pmix_info_t qualifiers[2];
    PMIX_INFO_LOAD(&qualifiers[0], PMIX_NODE_INFO, &kTrue, PMIX_BOOL);
    size_t count = 1;
    if (host != nullptr) PMIX_INFO_LOAD(&qualifiers[count++], PMIX_HOSTNAME, host, PMIX_STRING);
    pmix_proc_t self{};
    std::strcpy(self.nspace, "srv");
    self.rank = PMIX_RANK_WILDCARD;
    const pmix_status_t rc = server::server_get(&self, key, qualifiers, count, value_p);
    for (size_t i = 0; i < count; ++i) PMIX_INFO_DESTRUCT(&qualifiers[i]);
    return rc;
}

}  // namespace

TestSuite(server_resources, .init = setup, .fini = teardown);

Test(server_resources, plain_entries_describe_this_node)
{
    const uint64_t memory = 123456789;
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], PMIX_AVAIL_PHYS_MEMORY, &memory, PMIX_UINT64);
    PMIX_INFO_LOAD(&info[1], "test.gpu.model", "fast-one", PMIX_STRING);
    cr_assert_eq(PMIx_server_register_resources(info, 2, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    for (auto &item : info) PMIX_INFO_DESTRUCT(&item);

    pmix_value_t *value = nullptr;
    cr_assert_eq(host_get(PMIX_AVAIL_PHYS_MEMORY, nullptr, &value), PMIX_SUCCESS);
    cr_expect_eq(value->data.uint64, memory);
    PMIX_VALUE_RELEASE(value);

    // A client of this node finds it too.
    RawClient client;
    cr_assert_eq(client.hello(kJob, 0, nullptr), PMIX_SUCCESS);
    wire::GetRequest get;
    std::strcpy(get.proc.nspace, kJob);
    get.proc.rank = PMIX_RANK_WILDCARD;
    get.key = "test.gpu.model";
    get.directives = one_info(PMIX_NODE_INFO, &kTrue, PMIX_BOOL);
    client.request(1, get);
    const auto reply = client.reply<wire::GetReply>();
    cr_assert_eq(reply.status, PMIX_SUCCESS, "client get: %s", PMIx_Error_string(reply.status));
    cr_expect_str_eq(reply.data[0].value.data.string, "fast-one");
}

Test(server_resources, node_arrays_name_their_node_and_deregister_removes)
{
    pmix_info_t node[2];
    PMIX_INFO_LOAD(&node[0], PMIX_HOSTNAME, "farhost", PMIX_STRING);
    PMIX_INFO_LOAD(&node[1], "test.slots", "64", PMIX_STRING);
    pmix_data_array_t array{PMIX_INFO, 2, node};
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_NODE_INFO_ARRAY, &array, PMIX_DATA_ARRAY);
    cr_assert_eq(PMIx_server_register_resources(&info, 1, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    PMIX_INFO_DESTRUCT(&info);
    for (auto &item : node) PMIX_INFO_DESTRUCT(&item);

    pmix_value_t *value = nullptr;
    cr_assert_eq(host_get("test.slots", "farhost", &value), PMIX_SUCCESS);
    cr_expect_str_eq(value->data.string, "64");
    PMIX_VALUE_RELEASE(value);
    cr_expect_eq(host_get("test.slots", nullptr, &value), PMIX_ERR_NOT_FOUND, "not this node's");

    // Deregistering the node (only its name given) removes all of it.
    pmix_info_t which[1];
    PMIX_INFO_LOAD(&which[0], PMIX_HOSTNAME, "farhost", PMIX_STRING);
    pmix_data_array_t only_name{PMIX_INFO, 1, which};
    PMIX_INFO_LOAD(&info, PMIX_NODE_INFO_ARRAY, &only_name, PMIX_DATA_ARRAY);
    cr_assert_eq(PMIx_server_deregister_resources(&info, 1, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    PMIX_INFO_DESTRUCT(&info);
    PMIX_INFO_DESTRUCT(&which[0]);
    cr_expect_eq(host_get("test.slots", "farhost", &value), PMIX_ERR_NOT_FOUND);
}

Test(server_resources, malformed_node_array_is_bad_param)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_NODE_INFO_ARRAY, "not an array", PMIX_STRING);
    cr_expect_eq(PMIx_server_register_resources(&info, 1, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    PMIX_INFO_DESTRUCT(&info);
    cr_expect_eq(PMIx_server_register_resources(nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
}
