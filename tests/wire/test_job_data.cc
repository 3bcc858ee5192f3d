// The job-data request and reply (the gds/shmem fallback's private copy).
#include "common/wire/messages.h"

#include <criterion/criterion.h>

using namespace pmixpp;

Test(wire_job_data, request_and_reply_round_trip)
{
    wire::JobDataRequest request;
    request.nspace = "job-7";
    wire::Bytes bytes;
    cr_assert_eq(wire::encode_to_bytes(request, &bytes), PMIX_SUCCESS);
    wire::Command command{};
    cr_assert_eq(wire::peek_command(bytes, &command), PMIX_SUCCESS);
    cr_expect(command == wire::Command::JobData);
    cr_expect_str_eq(wire::command_name(command), "job-data");
    wire::JobDataRequest decoded;
    cr_assert_eq(wire::decode_payload(bytes, &decoded), PMIX_SUCCESS);
    cr_expect_str_eq(decoded.nspace.c_str(), "job-7");

    wire::JobDataReply reply;
    reply.data = {1, 2, 3, 250};
    cr_assert_eq(wire::encode_to_bytes(reply, &bytes), PMIX_SUCCESS);
    wire::JobDataReply back;
    cr_assert_eq(wire::decode_payload(bytes, &back), PMIX_SUCCESS);
    cr_expect_eq(back.status, PMIX_SUCCESS);
    cr_expect(back.data == reply.data);
}

Test(wire_job_data, overlong_nspace_and_truncation_are_refused)
{
    wire::JobDataRequest request;
    request.nspace = std::string(PMIX_MAX_NSLEN + 1, 'n');
    wire::Bytes bytes;
    cr_expect_neq(wire::encode_to_bytes(request, &bytes), PMIX_SUCCESS);

    wire::JobDataReply reply;
    reply.data = wire::Bytes(64, 7);
    cr_assert_eq(wire::encode_to_bytes(reply, &bytes), PMIX_SUCCESS);
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        wire::JobDataReply cut;
        cr_expect_neq(wire::decode_payload(bytes.data(), size, &cut), PMIX_SUCCESS, "accepted %zu bytes", size);
    }
}
