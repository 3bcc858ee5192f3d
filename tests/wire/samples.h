// Filled-in instances of every wire message, and generic encode/decode helpers
// for the wire tests.
#ifndef PMIXPP_TESTS_WIRE_SAMPLES_H
#define PMIXPP_TESTS_WIRE_SAMPLES_H

#include <criterion/criterion.h>

#include "common/wire/messages.h"

namespace wire_test {

using namespace pmixpp::wire;

pmix_proc_t make_proc(const char *nspace, pmix_rank_t rank);
// Three infos: a string, a uint32 and a proc (keys prefixed by tag).
InfoArray sample_info(const char *tag);

Hello sample_hello();
Welcome sample_welcome();
Refuse sample_refuse();
CommitRequest sample_commit();
FenceRequest sample_fence();
GetRequest sample_get();
AbortRequest sample_abort();
FinalizeRequest sample_finalize();
RegisterEventsRequest sample_register_events();
DeregisterEventsRequest sample_deregister_events();
NotifyEventRequest sample_notify_event();
QueryRequest sample_query();
ConnectRequest sample_connect();
DisconnectRequest sample_disconnect();
StatusReply sample_status_reply();
FenceReply sample_fence_reply();
GetReply sample_get_reply();
RegisterEventsReply sample_register_events_reply();
QueryReply sample_query_reply();
Event sample_event();
std::vector<ProcData> sample_modex();

// Encodes msg as a whole payload; fails the test on error.
template <typename Message> Bytes encoded(const Message &msg)
{
    Bytes bytes;
    cr_assert_eq(encode_to_bytes(msg, &bytes), PMIX_SUCCESS);
    cr_assert(!bytes.empty());
    return bytes;
}

// decode_payload over raw bytes.
template <typename Message> pmix_status_t decode_bytes(const Bytes &bytes, Message *msg_p)
{
    return decode_payload(std::span<const uint8_t>(bytes.data(), bytes.size()), msg_p);
}

// Decoding what encode produced and encoding it again gives the same bytes.
template <typename Message> void expect_stable_roundtrip(const Message &msg)
{
    Bytes first = encoded(msg);
    Message back;
    cr_assert_eq(decode_bytes(first, &back), PMIX_SUCCESS);
    Bytes second = encoded(back);
    cr_expect(first == second, "re-encoding changed the bytes");
}

// Every strict prefix of the encoding fails to decode and leaves the output alone.
template <typename Message> void expect_prefixes_fail(const Message &msg)
{
    Bytes full = encoded(msg);
    for (size_t len = 0; len < full.size(); ++len) {
        Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len));
        Message out;
        Bytes untouched = encoded(out);
        pmix_status_t rc = decode_bytes(prefix, &out);
        cr_expect_neq(rc, PMIX_SUCCESS, "prefix of %zu of %zu bytes decoded", len, full.size());
        cr_expect(encoded(out) == untouched, "failed decode modified its output");
    }
}

// A decode of a complete payload followed by one extra byte fails.
template <typename Message> void expect_trailing_byte_fails(const Message &msg)
{
    Bytes bytes = encoded(msg);
    bytes.push_back(0);
    Message out;
    cr_expect_eq(decode_bytes(bytes, &out), PMIX_ERR_UNPACK_FAILURE);
}

}  // namespace wire_test

#endif
