// Every message survives encode -> decode with its fields intact.
#include <cstring>

#include "common/buffer/codec.h"
#include "wire/samples.h"

using namespace wire_test;

namespace {

void expect_info_matches(const InfoArray &got, const char *tag)
{
    InfoArray want = sample_info(tag);
    cr_assert_eq(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        cr_expect_str_eq(got[i].key, want[i].key);
        cr_expect_eq(
            PMIx_Value_compare(const_cast<pmix_value_t *>(&got[i].value), const_cast<pmix_value_t *>(&want[i].value)),
            PMIX_EQUAL, "value of %s differs", want[i].key);
    }
}

bool same_proc(const pmix_proc_t &a, const pmix_proc_t &b)
{
    return std::strcmp(a.nspace, b.nspace) == 0 && a.rank == b.rank;
}

template <typename Message> Message roundtrip(const Message &msg)
{
    expect_stable_roundtrip(msg);
    Message back;
    cr_assert_eq(decode_bytes(encoded(msg), &back), PMIX_SUCCESS);
    return back;
}

}  // namespace

Test(wire_roundtrip, hello)
{
    Hello back = roundtrip(sample_hello());
    cr_expect_eq(back.min_version, kMinProtocolVersion);
    cr_expect_eq(back.max_version, kMaxProtocolVersion);
    cr_expect(back.peer_type == PeerType::Client);
    cr_expect(back.nspace == "job-1");
    cr_expect_eq(back.rank, 3u);
    cr_expect_eq(back.pid, 4242);
    cr_expect(back.psec_module == "munge");
    cr_expect(back.credential == sample_hello().credential);
    cr_expect(back.gds_modules == (std::vector<std::string>{"shmem", "hash"}));
    cr_expect(back.ptl_module == "usock");
    cr_expect(back.library_version == "pmixpp 4.2.2");
    expect_info_matches(back.info, "hello");
}

Test(wire_roundtrip, hello_of_a_tool_without_identity)
{
    Hello tool;
    tool.peer_type = PeerType::Tool;
    tool.psec_module = "native";
    Hello back = roundtrip(tool);
    cr_expect(back.peer_type == PeerType::Tool);
    cr_expect(back.nspace.empty());
    cr_expect_eq(back.rank, PMIX_RANK_UNDEF);
    cr_expect(back.credential.empty());
    cr_expect(back.gds_modules.empty());
    cr_expect(back.info.empty());
}

Test(wire_roundtrip, welcome)
{
    Welcome back = roundtrip(sample_welcome());
    cr_expect_eq(back.version, 1);
    cr_expect_eq(back.status, PMIX_SUCCESS);
    cr_expect(back.gds_module == "hash");
    cr_expect(back.server_nspace == "server-ns");
    cr_expect_eq(back.server_rank, 0u);
    cr_expect(back.peer_nspace == "job-1");
    cr_expect_eq(back.peer_rank, 3u);
    cr_expect(back.job_data == sample_welcome().job_data);
    expect_info_matches(back.info, "welcome");
}

Test(wire_roundtrip, refuse)
{
    Refuse back = roundtrip(sample_refuse());
    cr_expect_eq(back.status, PMIX_ERR_INVALID_CRED);
    cr_expect(back.reason == sample_refuse().reason);
}

Test(wire_roundtrip, commit)
{
    CommitRequest back = roundtrip(sample_commit());
    expect_info_matches(back.local, "local");
    expect_info_matches(back.remote, "remote");
    expect_info_matches(back.global, "global");
}

Test(wire_roundtrip, empty_commit)
{
    CommitRequest back = roundtrip(CommitRequest{});
    cr_expect(back.local.empty() && back.remote.empty() && back.global.empty());
}

Test(wire_roundtrip, commit_reply_flag)
{
    CommitRequest quiet = sample_commit();
    quiet.reply_wanted = false;
    CommitRequest back = roundtrip(quiet);
    cr_expect(!back.reply_wanted);
    expect_info_matches(back.global, "global");
    cr_expect(roundtrip(sample_commit()).reply_wanted);
}

Test(wire_roundtrip, commit_without_the_flag_byte_wants_a_reply)
{
    Bytes loud;
    Bytes quiet;
    CommitRequest request;
    cr_assert_eq(encode_to_bytes(request, &loud), PMIX_SUCCESS);
    request.reply_wanted = false;
    cr_assert_eq(encode_to_bytes(request, &quiet), PMIX_SUCCESS);
    cr_assert_eq(quiet.size(), loud.size() + 1);  // one trailing byte, nothing else changes
    CommitRequest back;
    cr_assert_eq(decode_payload(loud.data(), loud.size(), &back), PMIX_SUCCESS);
    cr_expect(back.reply_wanted);
    quiet.back() = 7;  // only 1 is defined
    cr_expect_neq(decode_payload(quiet.data(), quiet.size(), &back), PMIX_SUCCESS);
}

Test(wire_roundtrip, fence_and_reply)
{
    FenceRequest back = roundtrip(sample_fence());
    cr_assert_eq(back.procs.size(), 2u);
    cr_expect(same_proc(back.procs[1], make_proc("job-1", PMIX_RANK_WILDCARD)));
    expect_info_matches(back.directives, "fence");

    FenceReply reply = roundtrip(sample_fence_reply());
    cr_expect_eq(reply.status, PMIX_SUCCESS);
    std::vector<ProcData> procs;
    cr_assert_eq(decode_modex(reply.data.data(), reply.data.size(), &procs), PMIX_SUCCESS);
    cr_expect_eq(procs.size(), 3u);
    cr_assert_eq(reply.shared.size(), 2u);
    cr_expect(reply.shared[0].nspace == "job-2" && reply.shared[0].blob == (Bytes{1, 2, 3, 4}));
    cr_expect(reply.shared[1].nspace == "job-3" && reply.shared[1].blob.empty());

    // A reply without the shared list (an older server's) still decodes.
    FenceReply plain = sample_fence_reply();
    plain.shared.clear();
    FenceReply back_plain = roundtrip(plain);
    cr_expect(back_plain.shared.empty());
    cr_expect_eq(back_plain.data.size(), plain.data.size());
}

Test(wire_roundtrip, get_and_reply)
{
    GetRequest back = roundtrip(sample_get());
    cr_expect(same_proc(back.proc, make_proc("job-1", 2)));
    cr_expect(back.key == "opal.puri");
    expect_info_matches(back.directives, "get");

    GetReply reply = roundtrip(sample_get_reply());
    expect_info_matches(reply.data, "reply");
}

Test(wire_roundtrip, abort_and_finalize)
{
    AbortRequest back = roundtrip(sample_abort());
    cr_expect_eq(back.status, PMIX_ERR_TIMEOUT);
    cr_expect(back.message == "rank 2 gave up");
    cr_assert_eq(back.procs.size(), 1u);
    cr_expect(same_proc(back.procs[0], make_proc("job-1", 1)));

    FinalizeRequest fin = roundtrip(sample_finalize());
    expect_info_matches(fin.directives, "finalize");
    roundtrip(FinalizeRequest{});
}

Test(wire_roundtrip, event_registration)
{
    RegisterEventsRequest back = roundtrip(sample_register_events());
    cr_expect(back.codes == sample_register_events().codes);
    expect_info_matches(back.info, "register");

    RegisterEventsReply reply = roundtrip(sample_register_events_reply());
    cr_expect_eq(reply.reference, 17u);

    DeregisterEventsRequest dereg = roundtrip(sample_deregister_events());
    cr_expect_eq(dereg.reference, 0x0102030405060708ull);
}

Test(wire_roundtrip, events_both_directions)
{
    Event back = roundtrip(sample_event());
    cr_expect_eq(back.status, PMIX_ERR_PROC_ABORTED);
    cr_expect(same_proc(back.source, make_proc("job-1", 5)));
    cr_expect_eq(back.range, PMIX_RANGE_NAMESPACE);
    expect_info_matches(back.info, "event");

    NotifyEventRequest req = roundtrip(sample_notify_event());
    cr_expect_eq(req.event.range, PMIX_RANGE_NAMESPACE);
    expect_info_matches(req.event.info, "event");
}

Test(wire_roundtrip, query_and_reply)
{
    QueryRequest back = roundtrip(sample_query());
    cr_assert_eq(back.queries.size(), 2u);
    cr_expect_str_eq(back.queries[0].keys[0], PMIX_QUERY_NAMESPACES);
    cr_expect_null(back.queries[0].keys[1]);
    cr_expect_str_eq(back.queries[1].keys[1], PMIX_QUERY_NUM_PSETS);
    cr_expect_eq(back.queries[1].nqual, 3u);

    QueryReply reply = roundtrip(sample_query_reply());
    cr_expect_eq(reply.status, PMIX_ERR_PARTIAL_SUCCESS);
    expect_info_matches(reply.results, "query");
}

Test(wire_roundtrip, status_reply)
{
    StatusReply back = roundtrip(sample_status_reply());
    cr_expect_eq(back.status, PMIX_ERR_NOT_FOUND);
}

Test(wire_roundtrip, modex_blob)
{
    Bytes blob;
    cr_assert_eq(encode_modex(sample_modex(), &blob), PMIX_SUCCESS);
    std::vector<ProcData> back;
    cr_assert_eq(decode_modex(blob.data(), blob.size(), &back), PMIX_SUCCESS);
    cr_assert_eq(back.size(), 3u);
    for (size_t i = 0; i < back.size(); ++i) {
        cr_expect(same_proc(back[i].proc, make_proc("job-1", static_cast<pmix_rank_t>(i))));
    }
    expect_info_matches(back[0].info, "modex0");
    cr_expect(back[1].info.empty());
    expect_info_matches(back[2].info, "modex2");
}

Test(wire_roundtrip, concatenated_modex_blobs_are_one_blob)
{
    // What a host's fence hands back: each server's contribution, back to back.
    Bytes blob;
    cr_assert_eq(encode_modex(sample_modex(), &blob), PMIX_SUCCESS);
    cr_assert_eq(append_modex(sample_modex(), &blob), PMIX_SUCCESS);
    std::vector<ProcData> back;
    cr_assert_eq(decode_modex(blob.data(), blob.size(), &back), PMIX_SUCCESS);
    cr_expect_eq(back.size(), 6u);
    expect_info_matches(back[5].info, "modex2");

    std::vector<ProcData> none;
    cr_expect_eq(decode_modex(nullptr, 0, &none), PMIX_SUCCESS);
    cr_expect(none.empty());
}

Test(wire_roundtrip, payload_appends_after_existing_content_and_is_consumed)
{
    pmix_data_buffer_t buf{};
    cr_assert_eq(encode_payload(sample_refuse(), &buf), PMIX_SUCCESS);
    size_t first = buf.bytes_used;
    Refuse back;
    cr_assert_eq(decode_payload(&buf, &back), PMIX_SUCCESS);
    cr_expect_eq(static_cast<size_t>(buf.unpack_ptr - buf.base_ptr), first);
    cr_expect(back.reason == sample_refuse().reason);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}

Test(wire_roundtrip, peeks_name_the_payload)
{
    Command cmd{};
    cr_assert_eq(peek_command(encoded(sample_fence()), &cmd), PMIX_SUCCESS);
    cr_expect(cmd == Command::Fence);
    cr_expect_str_eq(command_name(cmd), "fence");

    HandshakeMessage hs{};
    cr_assert_eq(peek_handshake(encoded(sample_welcome()), &hs), PMIX_SUCCESS);
    cr_expect(hs == HandshakeMessage::Welcome);

    Notification note{};
    cr_assert_eq(peek_notification(encoded(sample_event()), &note), PMIX_SUCCESS);
    cr_expect(note == Notification::Event);

    pmix_status_t status = PMIX_SUCCESS;
    cr_assert_eq(peek_reply_status(encoded(sample_query_reply()), &status), PMIX_SUCCESS);
    cr_expect_eq(status, PMIX_ERR_PARTIAL_SUCCESS);
}

Test(wire_roundtrip, version_negotiation)
{
    Hello hello;
    uint16_t version = 0;
    cr_expect_eq(negotiate_version(hello, &version), PMIX_SUCCESS);
    cr_expect_eq(version, kMaxProtocolVersion);
    hello.max_version = 9;  // a newer peer that still speaks ours
    cr_expect_eq(negotiate_version(hello, &version), PMIX_SUCCESS);
    cr_expect_eq(version, kMaxProtocolVersion);
    hello.min_version = kMaxProtocolVersion + 1;  // a peer too new for us
    version = 0;
    cr_expect_eq(negotiate_version(hello, &version), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(version, 0);
}

Test(wire_roundtrip, publish_lookup_unpublish)
{
    PublishRequest publish;
    publish.info = sample_info("publish");
    PublishRequest publish_back = roundtrip(publish);
    expect_info_matches(publish_back.info, "publish");

    LookupRequest lookup;
    lookup.keys = {"svc.a", "svc.b"};
    lookup.directives = sample_info("lookup");
    LookupRequest lookup_back = roundtrip(lookup);
    cr_assert_eq(lookup_back.keys.size(), 2u);
    cr_expect(lookup_back.keys[1] == "svc.b");
    expect_info_matches(lookup_back.directives, "lookup");

    UnpublishRequest unpublish;  // no keys: everything the caller published
    UnpublishRequest unpublish_back = roundtrip(unpublish);
    cr_expect(unpublish_back.keys.empty());

    LookupReply reply;
    reply.status = PMIX_SUCCESS;
    cr_assert_eq(reply.data.allocate(1), PMIX_SUCCESS);
    PMIX_LOAD_PROCID(&reply.data[0].proc, "job-1", 3);
    PMIX_LOAD_KEY(reply.data[0].key, "svc.a");
    PMIX_VALUE_LOAD(&reply.data[0].value, "port-1", PMIX_STRING);
    LookupReply reply_back = roundtrip(reply);
    cr_assert_eq(reply_back.data.size(), 1u);
    cr_expect_eq(reply_back.data[0].proc.rank, 3u);
    cr_expect_str_eq(reply_back.data[0].value.data.string, "port-1");

    // An empty key is malformed.
    lookup.keys = {""};
    Bytes bytes;
    cr_expect_neq(encode_to_bytes(lookup, &bytes) == PMIX_SUCCESS && decode_bytes(bytes, &lookup_back) == PMIX_SUCCESS,
                  true);
}

namespace {

SpawnRequest sample_spawn()
{
    SpawnRequest spawn;
    spawn.job_info = sample_info("spawn");
    cr_assert_eq(spawn.apps.allocate(2), PMIX_SUCCESS);
    spawn.apps[0].cmd = strdup("/bin/true");
    spawn.apps[0].maxprocs = 3;
    spawn.apps[1].cmd = strdup("worker");
    spawn.apps[1].argv = static_cast<char **>(calloc(3, sizeof(char *)));
    spawn.apps[1].argv[0] = strdup("worker");
    spawn.apps[1].argv[1] = strdup("--fast");
    spawn.apps[1].maxprocs = 1;
    return spawn;
}

}  // namespace

Test(wire_roundtrip, spawn_allocate_session_control_log)
{
    SpawnRequest spawn_back = roundtrip(sample_spawn());
    cr_assert_eq(spawn_back.apps.size(), 2u);
    cr_expect_str_eq(spawn_back.apps[0].cmd, "/bin/true");
    cr_expect_eq(spawn_back.apps[0].maxprocs, 3);
    cr_assert_not_null(spawn_back.apps[1].argv);
    cr_expect_str_eq(spawn_back.apps[1].argv[1], "--fast");
    expect_info_matches(spawn_back.job_info, "spawn");

    SpawnReply spawn_reply;
    spawn_reply.nspace = "child-job@2";
    SpawnReply spawn_reply_back = roundtrip(spawn_reply);
    cr_expect(spawn_reply_back.nspace == "child-job@2");

    AllocateRequest allocate;
    allocate.directive = PMIX_ALLOC_EXTEND;
    allocate.info = sample_info("allocate");
    AllocateRequest allocate_back = roundtrip(allocate);
    cr_expect_eq(allocate_back.directive, PMIX_ALLOC_EXTEND);
    expect_info_matches(allocate_back.info, "allocate");

    SessionControlRequest control;
    control.session_id = 42;
    control.directives = sample_info("control");
    SessionControlRequest control_back = roundtrip(control);
    cr_expect_eq(control_back.session_id, 42u);
    expect_info_matches(control_back.directives, "control");

    InfoReply info_reply;
    info_reply.status = PMIX_ERR_PARTIAL_SUCCESS;
    info_reply.info = sample_info("reply");
    InfoReply info_reply_back = roundtrip(info_reply);
    cr_expect_eq(info_reply_back.status, PMIX_ERR_PARTIAL_SUCCESS);
    expect_info_matches(info_reply_back.info, "reply");

    LogRequest log;
    log.data = sample_info("log");
    LogRequest log_back = roundtrip(log);
    expect_info_matches(log_back.data, "log");
}

Test(wire_roundtrip, spawn_without_apps_and_unknown_alloc_directive_are_refused)
{
    SpawnRequest empty;
    Bytes bytes;
    cr_expect_eq(encode_to_bytes(empty, &bytes), PMIX_ERR_BAD_PARAM);
    AllocateRequest allocate;
    allocate.directive = 0;
    cr_expect_eq(encode_to_bytes(allocate, &bytes), PMIX_ERR_BAD_PARAM);
    // A spawn that names no application is malformed. An empty log request
    // has the same shape (command, two empty arrays): relabel it a spawn.
    Bytes payload = encoded(LogRequest{});
    payload[0] = static_cast<uint8_t>(Command::Spawn);
    payload[1] = 0;
    SpawnRequest out;
    cr_expect_eq(decode_bytes(payload, &out), PMIX_ERR_UNPACK_FAILURE);
    cr_expect(out.apps.empty());
}

Test(wire_roundtrip, connect_and_disconnect)
{
    ConnectRequest connect = roundtrip(sample_connect());
    cr_assert_eq(connect.procs.size(), 2u);
    cr_expect(same_proc(connect.procs[0], make_proc("job-1", PMIX_RANK_WILDCARD)));
    cr_expect(same_proc(connect.procs[1], make_proc("job-2", 4)));
    expect_info_matches(connect.info, "connect");

    DisconnectRequest disconnect = roundtrip(sample_disconnect());
    cr_assert_eq(disconnect.procs.size(), 1u);
    cr_expect(same_proc(disconnect.procs[0], make_proc("job-2", PMIX_RANK_WILDCARD)));
    expect_info_matches(disconnect.info, "disconnect");

    // No procs is carried as such: the server, not the codec, refuses it.
    ConnectRequest empty = roundtrip(ConnectRequest{});
    cr_expect(empty.procs.empty());
    cr_expect(empty.info.empty());

    Command cmd{};
    cr_assert_eq(peek_command(encoded(sample_disconnect()), &cmd), PMIX_SUCCESS);
    cr_expect(cmd == Command::Disconnect);
    cr_expect_str_eq(command_name(cmd), "disconnect");
}

Test(wire_roundtrip, group_construct_and_destruct)
{
    GroupConstructRequest construct;
    construct.group = "ourgroup";
    construct.procs = {make_proc("job-1", 0), make_proc("job-2", 3)};
    construct.info = sample_info("group");
    GroupConstructRequest out = roundtrip(construct);
    cr_expect(out.group == "ourgroup");
    cr_assert_eq(out.procs.size(), 2u);
    cr_expect(same_proc(out.procs[1], make_proc("job-2", 3)));
    expect_info_matches(out.info, "group");

    GroupDestructRequest destruct;
    destruct.group = "ourgroup";
    GroupDestructRequest back = roundtrip(destruct);
    cr_expect(back.group == "ourgroup");
    cr_expect(back.info.empty());

    GroupLeaveRequest leave;
    leave.group = "ourgroup";
    cr_expect(roundtrip(leave).group == "ourgroup");
    GroupDestructRequest not_a_destruct;
    const Bytes leave_bytes = encoded(leave);
    cr_expect_neq(decode_payload(leave_bytes.data(), leave_bytes.size(), &not_a_destruct), PMIX_SUCCESS);

    // A destruct payload never decodes as a construct.
    GroupConstructRequest wrong;
    const Bytes destruct_bytes = encoded(destruct);
    cr_expect_neq(decode_payload(destruct_bytes.data(), destruct_bytes.size(), &wrong), PMIX_SUCCESS);
    Command cmd{};
    cr_assert_eq(peek_command(encoded(construct), &cmd), PMIX_SUCCESS);
    cr_expect(cmd == Command::GroupConstruct);
    cr_expect_str_eq(command_name(cmd), "group-construct");
}

Test(wire_roundtrip, group_invite_and_join)
{
    GroupInviteRequest invite;
    invite.group = "ourgroup";
    invite.procs = {make_proc("job-1", 2), make_proc("job-1", 3)};
    invite.info = sample_info("invite");
    GroupInviteRequest out = roundtrip(invite);
    cr_expect(out.group == "ourgroup");
    cr_assert_eq(out.procs.size(), 2u);
    cr_expect(same_proc(out.procs[1], make_proc("job-1", 3)));
    expect_info_matches(out.info, "invite");

    GroupJoinRequest join;
    join.group = "ourgroup";
    join.leader = make_proc("job-1", 0);
    join.answer = GroupAnswer::no_claim;
    GroupJoinRequest back = roundtrip(join);
    cr_expect(back.group == "ourgroup");
    cr_expect(same_proc(back.leader, make_proc("job-1", 0)));
    cr_expect(back.answer == GroupAnswer::no_claim);

    // An answer the server does not know is malformed, not guessed at.
    Bytes bytes = encoded(join);
    GroupJoinRequest bad;
    bool patched = false;
    for (size_t i = bytes.size(); i-- > 0;) {
        if (bytes[i] == static_cast<uint8_t>(GroupAnswer::no_claim)) {
            bytes[i] = 9;
            patched = true;
            break;
        }
    }
    cr_assert(patched);
    cr_expect_neq(decode_payload(bytes.data(), bytes.size(), &bad), PMIX_SUCCESS);

    // An invite never decodes as a construct (same fields, another command).
    GroupConstructRequest not_a_construct;
    const Bytes invite_bytes = encoded(invite);
    cr_expect_neq(decode_payload(invite_bytes.data(), invite_bytes.size(), &not_a_construct), PMIX_SUCCESS);
    Command cmd{};
    cr_assert_eq(peek_command(encoded(join), &cmd), PMIX_SUCCESS);
    cr_expect_str_eq(command_name(cmd), "group-join");
}

Test(wire_roundtrip, credentials)
{
    GetCredentialRequest get;
    get.directives = sample_info("get");
    GetCredentialRequest get_back = roundtrip(get);
    expect_info_matches(get_back.directives, "get");

    GetCredentialReply made;
    made.credential = {'M', 'U', 'N', 'G', 'E', ':', 0, 0xff};
    made.info = sample_info("made");
    GetCredentialReply made_back = roundtrip(made);
    cr_expect(made_back.credential == made.credential);
    expect_info_matches(made_back.info, "made");

    ValidateCredentialRequest check;
    check.credential = {1, 2, 3};
    check.directives = sample_info("check");
    ValidateCredentialRequest check_back = roundtrip(check);
    cr_expect(check_back.credential == check.credential);
    expect_info_matches(check_back.directives, "check");
}

// An empty or oversized credential is refused by the encoder and, when a
// peer sends one anyway, by the decoder.
Test(wire_roundtrip, credentials_out_of_bounds_are_refused)
{
    ValidateCredentialRequest check;
    Bytes bytes;
    cr_expect_eq(encode_to_bytes(check, &bytes), PMIX_ERR_BAD_PARAM);
    check.credential.assign(kMaxCredentialSize + 1, 'x');
    cr_expect_eq(encode_to_bytes(check, &bytes), PMIX_ERR_BAD_PARAM);
    GetCredentialReply made;
    made.credential.assign(kMaxCredentialSize + 1, 'x');
    cr_expect_eq(encode_to_bytes(made, &bytes), PMIX_ERR_BAD_PARAM);
    // A get-credential request with no directives, relabelled: a validation
    // of an empty credential (u64 size 0 where the info count was).
    check.credential = {7};
    Bytes payload = encoded(check);
    ValidateCredentialRequest out;
    cr_expect_eq(decode_bytes(payload, &out), PMIX_SUCCESS);
    payload[2] = 0;  // the credential's size: 1 -> 0
    cr_expect_eq(decode_bytes(payload, &out), PMIX_ERR_UNPACK_FAILURE);
}

Test(wire_roundtrip, fabric)
{
    FabricRegisterRequest reg;
    reg.directives = sample_info("fabric");
    FabricRegisterRequest reg_back = roundtrip(reg);
    expect_info_matches(reg_back.directives, "fabric");

    FabricUpdateRequest update;
    update.index = 0x1122334455667788ull;
    cr_expect_eq(roundtrip(update).index, update.index);
    FabricDeregisterRequest gone;
    gone.index = 3;
    cr_expect_eq(roundtrip(gone).index, 3u);

    FabricReply reply;
    reply.index = 42;
    reply.name = "simfab0";
    reply.info = sample_info("described");
    FabricReply reply_back = roundtrip(reply);
    cr_expect_eq(reply_back.index, 42u);
    cr_expect(reply_back.name == "simfab0");
    expect_info_matches(reply_back.info, "described");

    Command cmd{};
    cr_assert_eq(peek_command(encoded(gone), &cmd), PMIX_SUCCESS);
    cr_expect(cmd == Command::FabricDeregister);
    cr_expect_str_eq(command_name(cmd), "fabric-deregister");
    cr_expect(is_known_command(static_cast<uint16_t>(Command::FabricRegister)));
    // An update relabelled as a deregistration is not one.
    Bytes payload = encoded(update);
    payload[0] = static_cast<uint8_t>(Command::FabricDeregister);
    FabricUpdateRequest out;
    cr_expect_eq(decode_bytes(payload, &out), PMIX_ERR_UNPACK_FAILURE);
}

Test(wire_roundtrip, monitor_and_heartbeat)
{
    MonitorRequest monitor;
    cr_assert_eq(monitor.monitor.allocate(1), PMIX_SUCCESS);
    PMIX_INFO_LOAD(&monitor.monitor[0], PMIX_MONITOR_FILE, "/tmp/watched", PMIX_STRING);
    monitor.error = PMIX_MONITOR_FILE_ALERT;
    monitor.directives = sample_info("monitor");
    MonitorRequest back = roundtrip(monitor);
    cr_assert_eq(back.monitor.size(), 1u);
    cr_expect_str_eq(back.monitor[0].key, PMIX_MONITOR_FILE);
    cr_expect_str_eq(back.monitor[0].value.data.string, "/tmp/watched");
    cr_expect_eq(back.error, PMIX_MONITOR_FILE_ALERT);
    expect_info_matches(back.directives, "monitor");

    HeartbeatRequest beat;
    roundtrip(beat);
    cr_expect_str_eq(command_name(Command::Heartbeat), "heartbeat");
    Command cmd{};
    cr_assert_eq(peek_command(encoded(beat), &cmd), PMIX_SUCCESS);
    cr_expect(cmd == Command::Heartbeat);
}

Test(wire_roundtrip, monitor_names_exactly_one_monitor)
{
    MonitorRequest none;
    Bytes bytes;
    cr_expect_eq(encode_to_bytes(none, &bytes), PMIX_ERR_BAD_PARAM);
    MonitorRequest two;
    two.monitor = sample_info("two");
    cr_assert_gt(two.monitor.size(), 1u);
    cr_expect_eq(encode_to_bytes(two, &bytes), PMIX_ERR_BAD_PARAM);
    // A payload that carries two monitors in the right layout is malformed.
    pmix_data_buffer_t buf{};
    {
        pmixpp::buffer::Packer p(&buf);
        cr_assert_eq(p.put_u16(static_cast<uint16_t>(Command::Monitor)), PMIX_SUCCESS);
        cr_assert_eq(pmixpp::buffer::pack_array(p, two.monitor.data(), two.monitor.size(), PMIX_INFO), PMIX_SUCCESS);
        cr_assert_eq(p.put_i32(PMIX_SUCCESS), PMIX_SUCCESS);
        cr_assert_eq(pmixpp::buffer::pack_array(p, nullptr, 0, PMIX_INFO), PMIX_SUCCESS);
    }
    Bytes payload(reinterpret_cast<uint8_t *>(buf.base_ptr),
                  reinterpret_cast<uint8_t *>(buf.base_ptr) + buf.bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    MonitorRequest out;
    cr_expect_eq(decode_bytes(payload, &out), PMIX_ERR_UNPACK_FAILURE);
    cr_expect_eq(out.monitor.size(), 0u);
}
