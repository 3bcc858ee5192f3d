// Truncated, malformed and out-of-contract payloads: always a clean error
// status, never a crash, a leak or a half-filled output.
#include <cstring>
#include <functional>
#include <string>

#include "wire/samples.h"

using namespace wire_test;
using pmixpp::buffer::Packer;

namespace {

// A payload written field by field, as a hostile or buggy peer could.
Bytes build(const std::function<void(Packer &)> &write)
{
    pmix_data_buffer_t buf{};
    {
        Packer packer(&buf);
        write(packer);
    }
    const auto *first = reinterpret_cast<const uint8_t *>(buf.base_ptr);
    Bytes bytes(first, first + buf.bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return bytes;
}

void patch_u32(Bytes *bytes, size_t offset, uint32_t v)
{
    cr_assert_leq(offset + 4, bytes->size());
    for (int i = 0; i < 4; ++i) {
        (*bytes)[offset + i] = static_cast<uint8_t>(v >> (8 * i));
    }
}

void patch_u64(Bytes *bytes, size_t offset, uint64_t v)
{
    patch_u32(bytes, offset, static_cast<uint32_t>(v));
    patch_u32(bytes, offset + 4, static_cast<uint32_t>(v >> 32));
}

// Encoded size of a non-NULL string field.
size_t text_size(const std::string &s)
{
    return 4 + s.size();
}

// Offset of Hello::gds_modules' count in sample_hello()'s encoding.
size_t hello_gds_count_offset()
{
    Hello h = sample_hello();
    return 2 + 2 + 2 + 1 + text_size(h.nspace) + 4 + 4 + text_size(h.psec_module) + 8 + h.credential.size();
}

template <typename Message> void expect_all_checks(const Message &msg)
{
    expect_prefixes_fail(msg);
    expect_trailing_byte_fails(msg);
}

}  // namespace

Test(wire_hostile, every_truncated_prefix_fails_cleanly)
{
    expect_all_checks(sample_hello());
    expect_all_checks(sample_welcome());
    expect_all_checks(sample_refuse());
    expect_all_checks(sample_commit());
    expect_all_checks(sample_fence());
    expect_all_checks(sample_get());
    expect_all_checks(sample_abort());
    expect_all_checks(sample_finalize());
    expect_all_checks(sample_register_events());
    expect_all_checks(sample_deregister_events());
    expect_all_checks(sample_notify_event());
    expect_all_checks(sample_query());
    expect_all_checks(sample_connect());
    expect_all_checks(sample_disconnect());
    expect_all_checks(sample_status_reply());
    FenceReply plain_fence_reply = sample_fence_reply();
    plain_fence_reply.shared.clear();  // its optional tail: see the next test
    expect_all_checks(plain_fence_reply);
    expect_all_checks(sample_get_reply());
    expect_all_checks(sample_register_events_reply());
    expect_all_checks(sample_query_reply());
    expect_all_checks(sample_event());
    SessionControlRequest control;
    control.session_id = 7;
    control.directives = sample_info("control");
    expect_all_checks(control);
    AllocateRequest allocate;
    allocate.info = sample_info("allocate");
    expect_all_checks(allocate);
    SpawnReply spawn_reply;
    spawn_reply.nspace = "child@1";
    expect_all_checks(spawn_reply);
    GetCredentialRequest get_credential;
    get_credential.directives = sample_info("get");
    expect_all_checks(get_credential);
    // A validation always carries a credential, so an empty one cannot be
    // encoded to compare with (as a spawn without apps): prefixes by hand.
    ValidateCredentialRequest validate_credential;
    validate_credential.credential = {'c', 'r', 'e', 'd'};
    validate_credential.directives = sample_info("check");
    const Bytes full = encoded(validate_credential);
    for (size_t len = 0; len < full.size(); ++len) {
        ValidateCredentialRequest out;
        const Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len));
        cr_expect_neq(decode_bytes(prefix, &out), PMIX_SUCCESS, "prefix of %zu bytes decoded", len);
        cr_expect(out.credential.empty() && out.directives.empty(), "failed decode modified its output");
    }
    expect_trailing_byte_fails(validate_credential);
    GetCredentialReply credential_reply;
    credential_reply.credential = {'c', 'r', 'e', 'd'};
    credential_reply.info = sample_info("made");
    expect_all_checks(credential_reply);
}

// A fence reply may end after its data (no shared list: an older server's
// reply); any other cut inside the shared list is malformed.
Test(wire_hostile, a_cut_inside_the_shared_fence_list_fails)
{
    FenceReply plain = sample_fence_reply();
    plain.shared.clear();
    const size_t boundary = encoded(plain).size();
    Bytes full = encoded(sample_fence_reply());
    cr_assert_gt(full.size(), boundary);
    for (size_t len = boundary + 1; len < full.size(); ++len) {
        Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len));
        FenceReply out;
        cr_expect_neq(decode_bytes(prefix, &out), PMIX_SUCCESS, "prefix of %zu of %zu bytes decoded", len, full.size());
    }
    Bytes longer = full;
    longer.push_back(0);
    FenceReply out;
    cr_expect_neq(decode_bytes(longer, &out), PMIX_SUCCESS, "a trailing byte after the shared list decoded");
}

Test(wire_hostile, wrong_command_code_is_malformed)
{
    FenceRequest fence;
    cr_expect_eq(decode_bytes(encoded(sample_commit()), &fence), PMIX_ERR_UNPACK_FAILURE);
    GetRequest get;
    cr_expect_eq(decode_bytes(encoded(sample_abort()), &get), PMIX_ERR_UNPACK_FAILURE);
    // Same fields, different commands: neither reads as the other.
    DisconnectRequest disconnect;
    cr_expect_eq(decode_bytes(encoded(sample_connect()), &disconnect), PMIX_ERR_UNPACK_FAILURE);
    ConnectRequest connect;
    cr_expect_eq(decode_bytes(encoded(sample_disconnect()), &connect), PMIX_ERR_UNPACK_FAILURE);

    Bytes bytes = encoded(sample_commit());
    bytes[0] = 0xe7;  // code 999: nobody's command
    bytes[1] = 0x03;
    CommitRequest commit;
    cr_expect_eq(decode_bytes(bytes, &commit), PMIX_ERR_UNPACK_FAILURE);
    Command cmd{};
    cr_assert_eq(peek_command(bytes, &cmd), PMIX_SUCCESS);
    cr_expect_eq(static_cast<uint16_t>(cmd), 999);
    cr_expect_not(is_known_command(999));
    cr_expect_str_eq(command_name(cmd), "unknown");
    cr_expect(is_known_command(static_cast<uint16_t>(Command::Spawn)));
    cr_expect_neq(peek_command(Bytes{0x01}, &cmd), PMIX_SUCCESS);
}

Test(wire_hostile, handshake_messages_are_not_interchangeable)
{
    Hello hello;
    cr_expect_eq(decode_bytes(encoded(sample_welcome()), &hello), PMIX_ERR_UNPACK_FAILURE);
    Welcome welcome;
    cr_expect_eq(decode_bytes(encoded(sample_refuse()), &welcome), PMIX_ERR_UNPACK_FAILURE);
    Event event;
    cr_expect_eq(decode_bytes(encoded(sample_notify_event()), &event), PMIX_ERR_UNPACK_FAILURE);

    HandshakeMessage type{};
    Bytes bogus = build([](Packer &p) { p.put_u16(7); });
    cr_expect_eq(peek_handshake(bogus, &type), PMIX_ERR_UNPACK_FAILURE);
}

Test(wire_hostile, hello_with_unknown_peer_type_is_rejected)
{
    for (uint8_t bad : {uint8_t{0}, uint8_t{6}, uint8_t{255}}) {
        Bytes bytes = encoded(sample_hello());
        bytes[6] = bad;  // code, min, max (2 bytes each), then the peer type
        Hello hello;
        cr_expect_eq(decode_bytes(bytes, &hello), PMIX_ERR_UNPACK_FAILURE, "peer type %u", bad);
    }
    Hello unknown = sample_hello();
    unknown.peer_type = static_cast<PeerType>(9);
    Bytes out;
    cr_expect_eq(encode_to_bytes(unknown, &out), PMIX_ERR_BAD_PARAM);
    cr_expect_str_eq(peer_type_name(unknown.peer_type), "unknown");
}

Test(wire_hostile, hello_with_an_empty_version_range_is_rejected)
{
    Bytes bytes = encoded(sample_hello());
    bytes[2] = 3;  // min 3 > max 1
    Hello hello;
    cr_expect_eq(decode_bytes(bytes, &hello), PMIX_ERR_UNPACK_FAILURE);
    bytes[2] = 0;  // min 0 is no version
    cr_expect_eq(decode_bytes(bytes, &hello), PMIX_ERR_UNPACK_FAILURE);

    Hello bad = sample_hello();
    bad.min_version = 2;
    bad.max_version = 1;
    Bytes out;
    cr_expect_eq(encode_to_bytes(bad, &out), PMIX_ERR_BAD_PARAM);

    Bytes welcome = encoded(sample_welcome());
    welcome[2] = 0;  // chosen version 0
    Welcome w;
    cr_expect_eq(decode_bytes(welcome, &w), PMIX_ERR_UNPACK_FAILURE);
}

Test(wire_hostile, oversized_counts_fail_before_allocating)
{
    for (uint32_t huge : {0xffffffffu, 0x7fffffffu, 1000000u}) {
        Bytes commit = encoded(sample_commit());
        patch_u32(&commit, 2, huge);  // local info count
        CommitRequest c;
        cr_expect_neq(decode_bytes(commit, &c), PMIX_SUCCESS);

        Bytes fence = encoded(sample_fence());
        patch_u32(&fence, 2, huge);  // procs count
        FenceRequest f;
        cr_expect_neq(decode_bytes(fence, &f), PMIX_SUCCESS);

        Bytes query = encoded(sample_query());
        patch_u32(&query, 2, huge);
        QueryRequest q;
        cr_expect_neq(decode_bytes(query, &q), PMIX_SUCCESS);

        Bytes reply = encoded(sample_get_reply());
        patch_u32(&reply, 4, huge);  // after the status
        GetReply g;
        cr_expect_neq(decode_bytes(reply, &g), PMIX_SUCCESS);

        Bytes hello = encoded(sample_hello());
        patch_u32(&hello, hello_gds_count_offset(), huge);
        Hello h;
        cr_expect_neq(decode_bytes(hello, &h), PMIX_SUCCESS);
    }
    Bytes fence_reply = encoded(sample_fence_reply());
    patch_u64(&fence_reply, 4, ~uint64_t{0});  // blob size
    FenceReply fr;
    cr_expect_neq(decode_bytes(fence_reply, &fr), PMIX_SUCCESS);
}

Test(wire_hostile, counts_above_protocol_limits_are_malformed)
{
    // 33 gds names, each present: within the bytes but over kMaxGdsModules.
    Bytes hello = encoded(sample_hello());
    Hello many = sample_hello();
    many.gds_modules.assign(kMaxGdsModules + 1, "hash");
    Bytes out;
    cr_expect_eq(encode_to_bytes(many, &out), PMIX_ERR_BAD_PARAM);
    many.gds_modules.resize(kMaxGdsModules);
    Bytes at_limit = encoded(many);
    patch_u32(&at_limit, hello_gds_count_offset(), kMaxGdsModules + 1);
    Hello h;
    cr_expect_eq(decode_bytes(at_limit, &h), PMIX_ERR_UNPACK_FAILURE);

    Bytes codes = build([](Packer &p) {
        p.put_u16(static_cast<uint16_t>(Command::RegisterEvents));
        p.put_count(kMaxEventCodes + 1);
        for (size_t i = 0; i <= kMaxEventCodes; ++i) {
            p.put_i32(PMIX_ERR_PROC_ABORTED);
        }
        p.put_count(0);
    });
    RegisterEventsRequest reg;
    cr_expect_eq(decode_bytes(codes, &reg), PMIX_ERR_UNPACK_FAILURE);
}

Test(wire_hostile, empty_gds_name_is_malformed)
{
    Bytes bytes = build([](Packer &p) {
        p.put_u16(static_cast<uint16_t>(HandshakeMessage::Hello));
        p.put_u16(1);
        p.put_u16(1);
        p.put_u8(static_cast<uint8_t>(PeerType::Client));
        p.put_string("ns");
        p.put_u32(0);
        p.put_i32(1);
        p.put_string("native");
        p.put_bytes(nullptr, 0);
        p.put_count(1);
        p.put_string("");
        p.put_string("usock");
        p.put_string("v");
        p.put_count(0);
    });
    Hello h;
    cr_expect_eq(decode_bytes(bytes, &h), PMIX_ERR_UNPACK_FAILURE);
}

Test(wire_hostile, strings_over_their_limit)
{
    std::string long_reason(kMaxMessageLength + 1, 'x');
    Refuse refuse{PMIX_ERR_INVALID_CRED, long_reason};
    Bytes out;
    cr_expect_eq(encode_to_bytes(refuse, &out), PMIX_ERR_BAD_PARAM);
    Bytes raw = build([&](Packer &p) {
        p.put_u16(static_cast<uint16_t>(HandshakeMessage::Refuse));
        p.put_i32(PMIX_ERR_INVALID_CRED);
        p.put_string(long_reason.c_str());
    });
    Refuse r;
    cr_expect_eq(decode_bytes(raw, &r), PMIX_ERR_UNPACK_FAILURE);

    GetRequest get = sample_get();
    get.key.assign(PMIX_MAX_KEYLEN + 1, 'k');
    cr_expect_eq(encode_to_bytes(get, &out), PMIX_ERR_BAD_PARAM);

    Hello hello = sample_hello();
    hello.nspace.assign(PMIX_MAX_NSLEN + 1, 'n');
    cr_expect_eq(encode_to_bytes(hello, &out), PMIX_ERR_BAD_PARAM);

    Refuse nul{PMIX_ERROR, std::string("a\0b", 3)};
    cr_expect_eq(encode_to_bytes(nul, &out), PMIX_ERR_BAD_PARAM);
}

Test(wire_hostile, unknown_event_range)
{
    Event event = sample_event();
    event.range = 42;
    Bytes out;
    cr_expect_eq(encode_to_bytes(event, &out), PMIX_ERR_BAD_PARAM);

    Bytes bytes = encoded(sample_event());
    // code, status, source nspace ("job-1"), source rank, then the range.
    size_t range_offset = 2 + 4 + text_size("job-1") + 4;
    cr_assert_eq(bytes[range_offset], PMIX_RANGE_NAMESPACE);
    bytes[range_offset] = 42;
    Event e;
    cr_expect_eq(decode_bytes(bytes, &e), PMIX_ERR_UNPACK_FAILURE);
}

Test(wire_hostile, broken_modex_blobs)
{
    Bytes blob;
    cr_assert_eq(encode_modex(sample_modex(), &blob), PMIX_SUCCESS);
    for (size_t len = 1; len < blob.size(); ++len) {
        std::vector<ProcData> procs;
        pmix_status_t rc = decode_modex(blob.data(), len, &procs);
        // A cut exactly between records is a shorter valid blob.
        if (rc == PMIX_SUCCESS) {
            cr_expect(procs.size() < 3, "prefix of %zu bytes decoded all records", len);
            continue;
        }
        cr_expect(procs.empty(), "failed decode filled its output");
    }
    Bytes bad_tag = blob;
    bad_tag[0] = 2;
    std::vector<ProcData> procs;
    cr_expect_eq(decode_modex(bad_tag.data(), bad_tag.size(), &procs), PMIX_ERR_UNPACK_FAILURE);
    cr_expect_eq(decode_modex(nullptr, 4, &procs), PMIX_ERR_BAD_PARAM);
}

Test(wire_hostile, failed_encode_leaves_the_buffer_as_it_was)
{
    pmix_data_buffer_t buf{};
    cr_assert_eq(encode_payload(sample_status_reply(), &buf), PMIX_SUCCESS);
    size_t used = buf.bytes_used;
    Hello bad = sample_hello();
    bad.library_version.assign(kMaxNameLength + 1, 'v');
    cr_expect_eq(encode_payload(bad, &buf), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(buf.bytes_used, used);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}

Test(wire_hostile, failed_decode_leaves_the_buffer_unread)
{
    Bytes bytes = encoded(sample_fence());
    bytes.resize(bytes.size() - 1);
    pmix_data_buffer_t view = borrow_bytes(bytes.data(), bytes.size());
    FenceRequest out;
    cr_expect_neq(decode_payload(&view, &out), PMIX_SUCCESS);
    cr_expect_eq(view.unpack_ptr, view.base_ptr);
    cr_expect_eq(decode_payload(static_cast<pmix_data_buffer_t *>(nullptr), &out), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(decode_payload(nullptr, 3, &out), PMIX_ERR_BAD_PARAM);
}

Test(wire_hostile, fabric_messages_fail_cleanly)
{
    FabricRegisterRequest reg;
    reg.directives = sample_info("fabric");
    expect_all_checks(reg);
    FabricUpdateRequest update;
    update.index = 9;
    expect_all_checks(update);
    FabricDeregisterRequest gone;
    gone.index = 9;
    expect_all_checks(gone);
    FabricReply reply;
    reply.index = 9;
    reply.name = "simfab0";
    reply.info = sample_info("described");
    expect_all_checks(reply);
    reply.name.assign(kMaxNameLength + 1, 'n');
    Bytes bytes;
    cr_expect_eq(encode_to_bytes(reply, &bytes), PMIX_ERR_BAD_PARAM);
}
