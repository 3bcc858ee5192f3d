// The monitor and heartbeat commands over the raw wire protocol: a
// malformed monitor request closes only that client, a heartbeat without a
// tag is never answered (one with a tag is), and an alert arrives as an
// event naming the monitored client and the monitor.
#include "server/server_fixture.h"

#include "common/wire/connection.h"

#include <criterion/criterion.h>

#include <cstring>
#include <memory>

using namespace server_test;
using namespace pmixpp;

namespace {

void teardown()
{
    PMIx_server_finalize();
}

void two_rank_job()
{
    start_server(make_tmpdir());
    register_job(kJob, 2);
}

std::unique_ptr<RawClient> connect_rank(pmix_rank_t rank)
{
    auto client = std::make_unique<RawClient>();
    cr_assert_eq(client->hello(kJob, rank, nullptr), PMIX_SUCCESS);
    return client;
}

wire::MonitorRequest cancel_request(const char *id)
{
    wire::MonitorRequest request;
    request.monitor = one_info(PMIX_MONITOR_CANCEL, id, PMIX_STRING);
    return request;
}

wire::MonitorRequest heartbeat_monitor(uint32_t period, const char *id)
{
    wire::MonitorRequest request;
    const bool yes = true;
    request.monitor = one_info(PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    cr_assert_eq(request.directives.allocate(2), PMIX_SUCCESS);
    PMIX_INFO_LOAD(&request.directives[0], PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&request.directives[1], PMIX_MONITOR_ID, id, PMIX_STRING);
    return request;
}

const pmix_info_t *find(const wire::InfoArray &info, const char *key)
{
    for (size_t i = 0; i < info.size(); ++i) {
        if (PMIX_CHECK_KEY(&info[i], key)) return &info[i];
    }
    return nullptr;
}

}  // namespace

TestSuite(server_monitor, .init = two_rank_job, .fini = teardown, .timeout = 60);

Test(server_monitor, malformed_monitor_request_closes_only_that_client)
{
    auto a = connect_rank(0);
    auto b = connect_rank(1);
    const uint8_t broken_monitor[] = {27, 0, 0xff, 0x01};
    cr_assert_eq(wire::send_frame_blocking(a->fd(), wire::FrameKind::request, 8, broken_monitor, kTimeoutMs),
                 PMIX_SUCCESS);
    wire::Frame frame;
    cr_expect_neq(a->receive(&frame), PMIX_SUCCESS);
    b->request(3, cancel_request("none"));
    cr_expect_eq(b->reply<wire::InfoReply>().status, PMIX_ERR_NOT_FOUND);
}

Test(server_monitor, untagged_heartbeat_is_not_answered_and_a_tagged_one_is)
{
    auto a = connect_rank(0);
    a->request(wire::kNoTag, wire::HeartbeatRequest{});
    a->request(5, cancel_request("none"));
    wire::Frame frame;
    cr_assert_eq(a->receive(&frame), PMIX_SUCCESS);
    cr_expect_eq(frame.header.tag, 5u, "the first answer is to tag %u, not to the cancel", frame.header.tag);
    a->request(6, wire::HeartbeatRequest{});
    cr_assert_eq(a->receive(&frame), PMIX_SUCCESS);
    cr_expect_eq(frame.header.tag, 6u);
    wire::StatusReply reply;
    cr_assert_eq(wire::decode_payload(frame.payload, &reply), PMIX_SUCCESS);
    cr_expect_eq(reply.status, PMIX_SUCCESS);
}

Test(server_monitor, alert_is_an_event_about_the_silent_client)
{
    auto a = connect_rank(0);
    wire::RegisterEventsRequest registration;
    registration.codes = {PMIX_MONITOR_HEARTBEAT_ALERT};
    a->request(1, registration);
    cr_assert_eq(a->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    a->request(2, heartbeat_monitor(1, "quiet"));
    cr_assert_eq(a->reply<wire::InfoReply>().status, PMIX_SUCCESS);
    wire::Frame frame;
    cr_assert_eq(a->receive(&frame), PMIX_SUCCESS);  // bounded by the fixture's receive timeout
    cr_assert_eq(frame.header.kind, wire::FrameKind::notify);
    wire::Event event;
    cr_assert_eq(wire::decode_payload(frame.payload, &event), PMIX_SUCCESS);
    cr_expect_eq(event.status, PMIX_MONITOR_HEARTBEAT_ALERT);
    cr_expect_str_eq(event.source.nspace, kJob);
    cr_expect_eq(event.source.rank, 0u);
    cr_expect_eq(event.range, PMIX_RANGE_NAMESPACE);
    const pmix_info_t *affected = find(event.info, PMIX_EVENT_AFFECTED_PROC);
    cr_assert_not_null(affected);
    cr_expect_eq(affected->value.data.proc->rank, 0u);
    const pmix_info_t *id = find(event.info, PMIX_MONITOR_ID);
    cr_assert_not_null(id);
    cr_expect_str_eq(id->value.data.string, "quiet");
}
