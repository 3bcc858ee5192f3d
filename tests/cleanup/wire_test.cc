// The JobControl request and reply on the wire (common/wire/messages.h).
#include "common/wire/messages.h"

#include <criterion/criterion.h>

#include <cstring>

using namespace pmixpp;

Test(cleanup_wire, a_job_control_request_round_trips)
{
    wire::JobControlRequest request;
    pmix_proc_t target;
    PMIX_LOAD_PROCID(&target, "ns", PMIX_RANK_WILDCARD);
    request.targets.push_back(target);
    cr_assert_eq(request.directives.allocate(1), PMIX_SUCCESS);
    PMIX_INFO_LOAD(&request.directives[0], PMIX_REGISTER_CLEANUP, "/tmp/a,/tmp/b", PMIX_STRING);
    wire::Bytes bytes;
    cr_assert_eq(wire::encode_to_bytes(request, &bytes), PMIX_SUCCESS);
    wire::Command command{};
    cr_assert_eq(wire::peek_command(bytes, &command), PMIX_SUCCESS);
    cr_expect(command == wire::Command::JobControl);
    wire::JobControlRequest decoded;
    cr_assert_eq(wire::decode_payload(bytes, &decoded), PMIX_SUCCESS);
    cr_assert_eq(decoded.targets.size(), 1u);
    cr_expect_str_eq(decoded.targets[0].nspace, "ns");
    cr_expect_eq(decoded.targets[0].rank, PMIX_RANK_WILDCARD);
    cr_assert_eq(decoded.directives.size(), 1u);
    cr_expect_str_eq(decoded.directives[0].key, PMIX_REGISTER_CLEANUP);
    cr_expect_str_eq(decoded.directives[0].value.data.string, "/tmp/a,/tmp/b");
}

Test(cleanup_wire, a_truncated_request_is_refused)
{
    wire::JobControlRequest request;
    cr_assert_eq(request.directives.allocate(1), PMIX_SUCCESS);
    PMIX_INFO_LOAD(&request.directives[0], PMIX_CLEANUP_IGNORE, "/x", PMIX_STRING);
    wire::Bytes bytes;
    cr_assert_eq(wire::encode_to_bytes(request, &bytes), PMIX_SUCCESS);
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        wire::JobControlRequest decoded;
        cr_expect_neq(wire::decode_payload(bytes.data(), size, &decoded), PMIX_SUCCESS, "size %zu", size);
    }
}

Test(cleanup_wire, a_job_control_reply_carries_its_reason)
{
    wire::JobControlReply reply;
    reply.status = PMIX_ERR_BAD_PARAM;
    reply.reason = "\"rel\" is not an absolute path";
    wire::Bytes bytes;
    cr_assert_eq(wire::encode_to_bytes(reply, &bytes), PMIX_SUCCESS);
    wire::JobControlReply decoded;
    cr_assert_eq(wire::decode_payload(bytes, &decoded), PMIX_SUCCESS);
    cr_expect_eq(decoded.status, PMIX_ERR_BAD_PARAM);
    cr_expect_eq(decoded.reason, reply.reason);
    reply.reason.assign(wire::kMaxMessageLength + 1, 'x');
    cr_expect_eq(wire::encode_to_bytes(reply, &bytes), PMIX_ERR_BAD_PARAM, "an over-long reason is refused");
}
