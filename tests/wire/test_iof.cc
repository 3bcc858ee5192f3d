// The IOF messages: round trips, every truncation refused, and the values a
// decoder must not accept (no procs, stdin or unknown channel bits, chunks
// over kMaxIofChunk, an eof flag other than 0/1).
#include <cstring>

#include "wire/samples.h"

using namespace wire_test;

namespace {

IofPullRequest sample_pull()
{
    IofPullRequest pull;
    pull.procs = {make_proc("job-1", PMIX_RANK_WILDCARD), make_proc("job-2", 3)};
    pull.channels = PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDDIAG_CHANNEL;
    pull.directives = sample_info("pull");
    return pull;
}

IofPushRequest sample_push()
{
    IofPushRequest push;
    push.targets = {make_proc("job-1", 0)};
    push.directives = sample_info("push");
    push.data = {'a', 'b', '\n'};
    push.eof = true;
    return push;
}

IofData sample_data()
{
    IofData data;
    data.id = 77;
    data.source = make_proc("job-1", 2);
    data.channel = PMIX_FWD_STDERR_CHANNEL;
    data.data = {'e', 'r', 'r', '\n'};
    data.dropped = 4096;
    data.info = sample_info("data");
    return data;
}

// Prefixes by hand: a default-constructed pull/push/data cannot be encoded
// (no procs, no channel), so the samples.h helper does not apply.
template <typename Message> void expect_truncations_fail(const Message &msg)
{
    const Bytes full = encoded(msg);
    for (size_t len = 0; len < full.size(); ++len) {
        Message out;
        const Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len));
        cr_expect_neq(decode_bytes(prefix, &out), PMIX_SUCCESS, "prefix of %zu bytes decoded", len);
    }
    Bytes longer = full;
    longer.push_back(0);
    Message out;
    cr_expect_neq(decode_bytes(longer, &out), PMIX_SUCCESS, "a trailing byte was accepted");
}

}  // namespace

Test(wire_iof, pull_roundtrip)
{
    IofPullRequest back;
    const Bytes bytes = encoded(sample_pull());
    cr_assert_eq(decode_bytes(bytes, &back), PMIX_SUCCESS);
    cr_assert_eq(back.procs.size(), 2u);
    cr_expect_str_eq(back.procs[1].nspace, "job-2");
    cr_expect_eq(back.procs[0].rank, PMIX_RANK_WILDCARD);
    cr_expect_eq(back.channels, PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDDIAG_CHANNEL);
    cr_expect_eq(back.directives.size(), sample_info("pull").size());
    Command cmd{};
    cr_assert_eq(peek_command(bytes, &cmd), PMIX_SUCCESS);
    cr_expect(cmd == Command::IofPull);
    cr_expect_str_eq(command_name(Command::IofPull), "iof-pull");
    expect_stable_roundtrip(sample_pull());
}

Test(wire_iof, deregister_push_reply_roundtrip)
{
    IofDeregisterRequest dereg;
    dereg.id = 0x1234567890ull;
    IofDeregisterRequest dereg_back;
    cr_assert_eq(decode_bytes(encoded(dereg), &dereg_back), PMIX_SUCCESS);
    cr_expect_eq(dereg_back.id, 0x1234567890ull);

    IofPushRequest push_back;
    cr_assert_eq(decode_bytes(encoded(sample_push()), &push_back), PMIX_SUCCESS);
    cr_expect(push_back.data == sample_push().data);
    cr_expect(push_back.eof);
    cr_expect_eq(push_back.targets[0].rank, 0u);

    IofPullReply reply_back;
    cr_assert_eq(decode_bytes(encoded(IofPullReply{PMIX_SUCCESS, 9}), &reply_back), PMIX_SUCCESS);
    cr_expect_eq(reply_back.id, 9u);
    expect_stable_roundtrip(sample_push());
    expect_stable_roundtrip(dereg);
}

Test(wire_iof, data_roundtrip)
{
    const Bytes bytes = encoded(sample_data());
    Notification kind{};
    cr_assert_eq(peek_notification(bytes, &kind), PMIX_SUCCESS);
    cr_expect(kind == Notification::IofData);
    IofData back;
    cr_assert_eq(decode_bytes(bytes, &back), PMIX_SUCCESS);
    cr_expect_eq(back.id, 77u);
    cr_expect_eq(back.source.rank, 2u);
    cr_expect_eq(back.channel, PMIX_FWD_STDERR_CHANNEL);
    cr_expect(back.data == sample_data().data);
    cr_expect_eq(back.dropped, 4096u);
    expect_stable_roundtrip(sample_data());
}

Test(wire_iof, truncations_fail)
{
    expect_truncations_fail(sample_pull());
    expect_truncations_fail(IofDeregisterRequest{5, sample_info("d")});
    expect_truncations_fail(sample_push());
    expect_truncations_fail(IofPullReply{PMIX_ERR_NOT_FOUND, 0});
    expect_truncations_fail(sample_data());
}

Test(wire_iof, encoders_refuse_what_cannot_be_carried)
{
    Bytes bytes;
    IofPullRequest no_procs = sample_pull();
    no_procs.procs.clear();
    cr_expect_eq(encode_to_bytes(no_procs, &bytes), PMIX_ERR_BAD_PARAM);
    IofPullRequest stdin_pull = sample_pull();
    stdin_pull.channels = PMIX_FWD_STDIN_CHANNEL;
    cr_expect_eq(encode_to_bytes(stdin_pull, &bytes), PMIX_ERR_BAD_PARAM);
    IofPullRequest no_channel = sample_pull();
    no_channel.channels = 0;
    cr_expect_eq(encode_to_bytes(no_channel, &bytes), PMIX_ERR_BAD_PARAM);
    IofPushRequest big = sample_push();
    big.data.assign(kMaxIofChunk + 1, 'x');
    cr_expect_eq(encode_to_bytes(big, &bytes), PMIX_ERR_BAD_PARAM);
    IofPushRequest no_target = sample_push();
    no_target.targets.clear();
    cr_expect_eq(encode_to_bytes(no_target, &bytes), PMIX_ERR_BAD_PARAM);
    IofData two_channels = sample_data();
    two_channels.channel = PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL;
    cr_expect_eq(encode_to_bytes(two_channels, &bytes), PMIX_ERR_BAD_PARAM);
}

Test(wire_iof, decoders_refuse_bad_values)
{
    // The channels field follows the command (2) and the procs; patch the
    // encoded sample's channels, found as the u16 before the directives.
    IofPullRequest one = sample_pull();
    one.directives = InfoArray{};
    Bytes pull = encoded(one);
    const size_t channels_at = pull.size() - 4 /* empty info array count */ - 2;
    pull[channels_at] = PMIX_FWD_STDIN_CHANNEL;
    pull[channels_at + 1] = 0;
    IofPullRequest out;
    cr_expect_eq(decode_bytes(pull, &out), PMIX_ERR_UNPACK_FAILURE);
    pull[channels_at] = 0x10;
    cr_expect_eq(decode_bytes(pull, &out), PMIX_ERR_UNPACK_FAILURE);

    Bytes push = encoded(sample_push());
    push.back() = 2;  // the eof flag
    IofPushRequest push_out;
    cr_expect_eq(decode_bytes(push, &push_out), PMIX_ERR_UNPACK_FAILURE);
}
