// Writes the seed corpus of every fuzz target (tests/fuzz/corpus/<target>/)
// with our own encoders, so the seeds are what pmixpp really sends and
// parses. Run it after a wire-format change and commit what it writes:
//   build/tests/bin/pmixpp_fuzz_seedgen tests/fuzz/corpus
// The first byte of a messages / data_unpack / regex / cleanup seed selects
// the target's mode; the tables here follow those in the targets.
#include <pmix.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/connect.h"
#include "common/openpmix/frame.h"
#include "common/regex/regex.h"
#include "common/rendezvous/rendezvous.h"
#include "common/values/type_ops.h"
#include "common/values/type_table.h"
#include "common/values/value_ops.h"
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace fs = std::filesystem;
using namespace pmixpp::wire;

namespace {

fs::path g_root;

void write(const std::string &target, const std::string &name, const std::vector<uint8_t> &bytes)
{
    const fs::path dir = g_root / target;
    fs::create_directories(dir);
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        std::fprintf(stderr, "seedgen: cannot write %s\n", (dir / name).c_str());
        std::exit(1);
    }
}

std::vector<uint8_t> with_prefix(std::initializer_list<uint8_t> prefix, const std::vector<uint8_t> &rest)
{
    std::vector<uint8_t> bytes(prefix);
    bytes.insert(bytes.end(), rest.begin(), rest.end());
    return bytes;
}

std::vector<uint8_t> text_bytes(const std::string &text)
{
    return {text.begin(), text.end()};
}

void must(pmix_status_t rc, const char *what)
{
    if (rc != PMIX_SUCCESS) {
        std::fprintf(stderr, "seedgen: %s failed: %s\n", what, PMIx_Error_string(rc));
        std::exit(1);
    }
}

pmix_proc_t proc(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t p{};
    std::snprintf(p.nspace, sizeof(p.nspace), "%s", nspace);
    p.rank = rank;
    return p;
}

// An info list built entry by entry; nested() wraps a list as a data array.
class Infos {
public:
    Infos &add(const char *key, const void *data, pmix_data_type_t type)
    {
        list_.emplace_back();
        std::memset(&list_.back(), 0, sizeof(pmix_info_t));
        must(pmixpp::values::info_load(&list_.back(), key, data, type), key);
        return *this;
    }
    Infos &u32(const char *key, uint32_t v) { return add(key, &v, PMIX_UINT32); }
    Infos &rank(const char *key, pmix_rank_t v) { return add(key, &v, PMIX_PROC_RANK); }
    Infos &str(const char *key, const char *v) { return add(key, v, PMIX_STRING); }
    Infos &flag(const char *key, bool v) { return add(key, &v, PMIX_BOOL); }
    pmix_info_t *data() { return list_.data(); }
    size_t size() const { return list_.size(); }
    Infos &nested(const char *key, const Infos &inner)
    {
        pmix_data_array_t array{};
        array.type = PMIX_INFO;
        array.size = inner.list_.size();
        array.array = const_cast<pmix_info_t *>(inner.list_.data());
        return add(key, &array, PMIX_DATA_ARRAY);
    }
    InfoArray array() const
    {
        InfoArray out;
        must(out.assign_copy(list_.data(), list_.size()), "copy infos");
        return out;
    }
    // u32 count + infos, the encoding decode_info_array reads.
    std::vector<uint8_t> encoded() const
    {
        pmix_data_buffer_t buf{};
        pmixpp::buffer::Packer p(&buf);
        must(fields::put_array(p, array()), "pack infos");
        std::vector<uint8_t> bytes(reinterpret_cast<uint8_t *>(buf.base_ptr),
                                   reinterpret_cast<uint8_t *>(buf.base_ptr) + buf.bytes_used);
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
        return bytes;
    }
    ~Infos()
    {
        for (pmix_info_t &info : list_) PMIX_INFO_DESTRUCT(&info);
    }

private:
    std::vector<pmix_info_t> list_;
};

template <typename Message> std::vector<uint8_t> bytes_of(const Message &msg)
{
    Bytes bytes;
    must(encode_to_bytes(msg, &bytes), "encode");
    return bytes;
}

InfoArray sample_infos()
{
    Infos inner;
    inner.u32("pmix.test.inner", 7);
    Infos infos;
    pmix_proc_t p = proc("ns-sample", 3);
    double d = 2.5;
    infos.str("pmix.test.str", "a value")
        .u32("pmix.test.u32", 42)
        .flag(PMIX_COLLECT_DATA, true)
        .add("pmix.test.proc", &p, PMIX_PROC)
        .add("pmix.test.double", &d, PMIX_DOUBLE)
        .nested("pmix.test.array", inner);
    return infos.array();
}

// ------------------------------------------------------------------ messages

// Indices of kDecoders in messages_fuzz.cc.
enum : uint8_t {
    kHeader,
    kModex,
    kPeeks,
    kHello,
    kWelcome,
    kRefuse,
    kCommit,
    kFence,
    kGet,
    kAbort,
    kFinalize,
    kRegisterEvents,
    kDeregisterEvents,
    kNotifyEvent,
    kQuery,
    kJobDataRequest,
    kPublish,
    kLookup,
    kUnpublish,
    kSpawn,
    kConnect,
    kDisconnect,
    kJobControl,
    kAllocate,
    kSessionControl,
    kLog,
    kStatusReply,
    kFenceReply,
    kGetReply,
    kRegisterEventsReply,
    kQueryReply,
    kLookupReply,
    kJobControlReply,
    kSpawnReply,
    kInfoReply,
    kJobDataReply,
    kEvent,
    kGetCredential,
    kValidateCredential,
    kGetCredentialReply,
    kFabricRegister,
    kFabricUpdate,
    kFabricDeregister,
    kFabricReply,
    kMonitor,
    kHeartbeat,
    kIofPull,
    kIofDeregister,
    kIofPush,
    kIofPullReply,
    kIofData,
    kGroupConstruct,
    kGroupDestruct,
    kGroupLeave,
    kGroupInvite,
    kGroupJoin,
};

Hello sample_hello(PeerType type)
{
    Hello hello;
    hello.peer_type = type;
    hello.nspace = type == PeerType::Tool ? "" : "job-1";
    hello.rank = type == PeerType::Tool ? PMIX_RANK_UNDEF : 3;
    hello.pid = 4242;
    hello.psec_module = "native";
    hello.gds_modules = {"shmem", "hash"};
    hello.ptl_module = "usock";
    hello.library_version = "4.2.2";
    hello.info = sample_infos();
    return hello;
}

template <typename Message> void message_seed(uint8_t index, const char *name, const Message &msg)
{
    write("messages", name, with_prefix({index}, bytes_of(msg)));
}

void messages()
{
    write("messages", "header_request", with_prefix({kHeader}, [] {
              const HeaderBytes h = encode_header(FrameHeader{kProtocolVersion, FrameKind::request, 7, 100});
              return std::vector<uint8_t>(h.begin(), h.end());
          }()));
    write("messages", "header_too_long", with_prefix({kHeader}, [] {
              const HeaderBytes h = encode_header(FrameHeader{kProtocolVersion, FrameKind::reply, 1, 0xffffffffu});
              return std::vector<uint8_t>(h.begin(), h.end());
          }()));
    std::vector<ProcData> procs(2);
    procs[0].proc = proc("job-1", 0);
    procs[0].info = sample_infos();
    procs[1].proc = proc("job-1", 1);
    Bytes blob;
    must(encode_modex(procs, &blob), "encode_modex");
    write("messages", "modex", with_prefix({kModex}, blob));
    write("messages", "peek_fence", with_prefix({kPeeks}, bytes_of(FenceRequest{})));

    message_seed(kHello, "hello_client", sample_hello(PeerType::Client));
    Welcome welcome;
    welcome.gds_module = "hash";
    welcome.server_nspace = "server";
    welcome.peer_nspace = "job-1";
    welcome.peer_rank = 3;
    welcome.job_data = {1, 2, 3, 4};
    welcome.info = sample_infos();
    message_seed(kWelcome, "welcome", welcome);
    message_seed(kRefuse, "refuse", Refuse{PMIX_ERR_INVALID_CRED, "uid 1001 does not match"});
    CommitRequest commit;
    commit.local = sample_infos();
    commit.global = sample_infos();
    commit.reply_wanted = false;
    message_seed(kCommit, "commit", commit);
    FenceRequest fence;
    fence.procs = {proc("job-1", 0), proc("job-1", PMIX_RANK_WILDCARD)};
    fence.directives = sample_infos();
    message_seed(kFence, "fence", fence);
    GetRequest get;
    get.proc = proc("job-1", 2);
    get.key = "pmix.test.key";
    get.directives = sample_infos();
    message_seed(kGet, "get", get);
    AbortRequest abort_request;
    abort_request.message = "giving up";
    abort_request.procs = {proc("job-1", 1)};
    message_seed(kAbort, "abort", abort_request);
    FinalizeRequest finalize;
    finalize.directives = sample_infos();
    message_seed(kFinalize, "finalize", finalize);
    RegisterEventsRequest reg;
    reg.codes = {PMIX_ERR_PROC_ABORTED, PMIX_ERR_LOST_CONNECTION};
    reg.info = sample_infos();
    message_seed(kRegisterEvents, "register_events", reg);
    message_seed(kDeregisterEvents, "deregister_events", DeregisterEventsRequest{12});
    NotifyEventRequest notify;
    notify.event.status = PMIX_ERR_PROC_ABORTED;
    notify.event.source = proc("job-1", 0);
    notify.event.range = PMIX_RANGE_SESSION;
    notify.event.info = sample_infos();
    message_seed(kNotifyEvent, "notify_event", notify);
    QueryRequest query;
    must(query.queries.allocate(1), "alloc query");
    query.queries[0].keys = static_cast<char **>(std::calloc(3, sizeof(char *)));
    query.queries[0].keys[0] = strdup(PMIX_QUERY_NAMESPACES);
    query.queries[0].keys[1] = strdup(PMIX_JOB_SIZE);
    message_seed(kQuery, "query", query);
    message_seed(kJobDataRequest, "job_data_request", JobDataRequest{"job-1"});
    PublishRequest publish;
    publish.info = sample_infos();
    message_seed(kPublish, "publish", publish);
    LookupRequest lookup;
    lookup.keys = {"pmix.test.str", "other"};
    lookup.directives = sample_infos();
    message_seed(kLookup, "lookup", lookup);
    UnpublishRequest unpublish;
    unpublish.keys = {"pmix.test.str"};
    message_seed(kUnpublish, "unpublish", unpublish);
    SpawnRequest spawn;
    spawn.job_info = sample_infos();
    must(spawn.apps.allocate(1), "alloc app");
    spawn.apps[0].cmd = strdup("/bin/true");
    spawn.apps[0].argv = static_cast<char **>(std::calloc(3, sizeof(char *)));
    spawn.apps[0].argv[0] = strdup("true");
    spawn.apps[0].argv[1] = strdup("--flag");
    spawn.apps[0].maxprocs = 2;
    message_seed(kSpawn, "spawn", spawn);
    ConnectRequest connect;
    connect.procs = {proc("job-1", PMIX_RANK_WILDCARD), proc("job-2", 0)};
    connect.info = sample_infos();
    message_seed(kConnect, "connect", connect);
    DisconnectRequest disconnect;
    disconnect.procs = {proc("job-2", 0)};
    message_seed(kDisconnect, "disconnect", disconnect);
    JobControlRequest control;
    control.targets = {proc("job-1", 0)};
    {
        Infos d;
        d.str(PMIX_REGISTER_CLEANUP, "/tmp/job-1/a,/tmp/job-1/b")
            .str(PMIX_REGISTER_CLEANUP_DIR, "/tmp/job-1/dir")
            .flag(PMIX_CLEANUP_RECURSIVE, true)
            .str(PMIX_CLEANUP_IGNORE, "/tmp/job-1/dir/keep");
        control.directives = d.array();
    }
    message_seed(kJobControl, "job_control_cleanup", control);
    AllocateRequest allocate;
    allocate.directive = PMIX_ALLOC_EXTEND;
    allocate.info = sample_infos();
    message_seed(kAllocate, "allocate", allocate);
    SessionControlRequest session;
    session.session_id = 5;
    session.directives = sample_infos();
    message_seed(kSessionControl, "session_control", session);
    LogRequest log;
    log.data = sample_infos();
    message_seed(kLog, "log", log);
    message_seed(kStatusReply, "status_reply", StatusReply{PMIX_ERR_TIMEOUT});
    FenceReply fence_reply;
    fence_reply.data = blob;
    fence_reply.shared = {SharedModex{"job-1", {9, 8, 7}}};
    message_seed(kFenceReply, "fence_reply", fence_reply);
    GetReply get_reply;
    get_reply.data = sample_infos();
    message_seed(kGetReply, "get_reply", get_reply);
    message_seed(kRegisterEventsReply, "register_events_reply", RegisterEventsReply{PMIX_SUCCESS, 99});
    QueryReply query_reply;
    query_reply.results = sample_infos();
    message_seed(kQueryReply, "query_reply", query_reply);
    LookupReply lookup_reply;
    must(lookup_reply.data.allocate(1), "alloc pdata");
    lookup_reply.data[0].proc = proc("job-1", 0);
    std::snprintf(lookup_reply.data[0].key, sizeof(lookup_reply.data[0].key), "%s", "pmix.test.str");
    uint32_t v = 5;
    must(pmixpp::values::value_load(&lookup_reply.data[0].value, &v, PMIX_UINT32), "value_load");
    message_seed(kLookupReply, "lookup_reply", lookup_reply);
    message_seed(kJobControlReply, "job_control_reply", JobControlReply{PMIX_ERR_BAD_PARAM, "not absolute"});
    message_seed(kSpawnReply, "spawn_reply", SpawnReply{PMIX_SUCCESS, "job-2"});
    InfoReply info_reply;
    info_reply.info = sample_infos();
    message_seed(kInfoReply, "info_reply", info_reply);
    message_seed(kJobDataReply, "job_data_reply", JobDataReply{PMIX_SUCCESS, {1, 2, 3}});
    message_seed(kEvent, "event", notify.event);
    GetCredentialRequest get_credential;
    get_credential.directives = sample_infos();
    message_seed(kGetCredential, "get_credential", get_credential);
    ValidateCredentialRequest validate_credential;
    validate_credential.credential = {'M', 'U', 'N', 'G', 'E', ':', 'x'};
    message_seed(kValidateCredential, "validate_credential", validate_credential);
    GetCredentialReply credential_reply;
    credential_reply.credential = {'c', 'r', 'e', 'd'};
    credential_reply.info = sample_infos();
    message_seed(kGetCredentialReply, "get_credential_reply", credential_reply);
    FabricRegisterRequest fabric_register;
    fabric_register.directives = sample_infos();
    message_seed(kFabricRegister, "fabric_register", fabric_register);
    message_seed(kFabricUpdate, "fabric_update", FabricUpdateRequest{3});
    message_seed(kFabricDeregister, "fabric_deregister", FabricDeregisterRequest{3});
    FabricReply fabric_reply;
    fabric_reply.index = 3;
    fabric_reply.name = "simfab0";
    fabric_reply.info = sample_infos();
    message_seed(kFabricReply, "fabric_reply", fabric_reply);
    MonitorRequest monitor;
    Infos watched;
    watched.str(PMIX_MONITOR_FILE, "/tmp/watched");
    monitor.monitor = watched.array();
    monitor.error = PMIX_MONITOR_FILE_ALERT;
    monitor.directives = sample_infos();
    message_seed(kMonitor, "monitor", monitor);
    message_seed(kHeartbeat, "heartbeat", HeartbeatRequest{});
    IofPullRequest iof_pull;
    iof_pull.procs = {proc("job-1", PMIX_RANK_WILDCARD)};
    iof_pull.channels = PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL;
    iof_pull.directives = sample_infos();
    message_seed(kIofPull, "iof_pull", iof_pull);
    message_seed(kIofDeregister, "iof_deregister", IofDeregisterRequest{4, {}});
    IofPushRequest iof_push;
    iof_push.targets = {proc("job-1", 0)};
    iof_push.data = {'i', 'n', '\n'};
    iof_push.eof = true;
    message_seed(kIofPush, "iof_push", iof_push);
    message_seed(kIofPullReply, "iof_pull_reply", IofPullReply{PMIX_SUCCESS, 4});
    IofData iof_data;
    iof_data.id = 4;
    iof_data.source = proc("job-1", 1);
    iof_data.channel = PMIX_FWD_STDERR_CHANNEL;
    iof_data.data = {'o', 'u', 't', '\n'};
    iof_data.dropped = 12;
    iof_data.info = sample_infos();
    message_seed(kIofData, "iof_data", iof_data);
    GroupConstructRequest construct;
    construct.group = "ourgroup";
    construct.procs = {proc("job-1", 0), proc("job-1", 2)};
    message_seed(kGroupConstruct, "group_construct", construct);
    GroupDestructRequest destruct;
    destruct.group = "ourgroup";
    message_seed(kGroupDestruct, "group_destruct", destruct);
    GroupLeaveRequest leave;
    leave.group = "ourgroup";
    message_seed(kGroupLeave, "group_leave", leave);
    GroupInviteRequest invite;
    invite.group = "ourgroup";
    invite.procs = {proc("job-1", 2), proc("job-1", 3)};
    message_seed(kGroupInvite, "group_invite", invite);
    GroupJoinRequest join;
    join.group = "ourgroup";
    join.leader = proc("job-1", 0);
    join.answer = GroupAnswer::claim_leader;
    message_seed(kGroupJoin, "group_join", join);
    write("messages", "empty_hello", {kHello});
}

// ------------------------------------------------------------------ handshake

std::vector<uint8_t> hello_frame(const Hello &hello)
{
    std::vector<uint8_t> frame;
    must(encode_frame(FrameKind::handshake, kNoTag, bytes_of(hello), &frame), "encode_frame");
    return frame;
}

void handshake()
{
    write("handshake", "hello_client", hello_frame(sample_hello(PeerType::Client)));
    write("handshake", "hello_tool", hello_frame(sample_hello(PeerType::Tool)));
    write("handshake", "hello_launcher", hello_frame(sample_hello(PeerType::Launcher)));
    Hello future = sample_hello(PeerType::Client);
    future.min_version = 7;
    future.max_version = 9;
    write("handshake", "hello_no_common_version", hello_frame(future));
    std::vector<uint8_t> two = hello_frame(sample_hello(PeerType::Singleton));
    const std::vector<uint8_t> second = hello_frame(sample_hello(PeerType::Server));
    two.insert(two.end(), second.begin(), second.end());
    write("handshake", "two_hellos", two);
    std::vector<uint8_t> half = hello_frame(sample_hello(PeerType::Client));
    half.resize(kFrameHeaderSize + 5);
    write("handshake", "half_hello", half);
}

// ------------------------------------------------------------------ data_unpack

// The same list as data_unpack_fuzz.cc's types().
std::vector<pmix_data_type_t> unpack_types()
{
    std::vector<pmix_data_type_t> found;
    for (unsigned t = 0; t < 1024; ++t) {
        if (pmixpp::values::find_element_type(static_cast<pmix_data_type_t>(t)) != nullptr) {
            found.push_back(static_cast<pmix_data_type_t>(t));
        }
    }
    found.push_back(0x7ffe);
    found.push_back(0x7fff);
    return found;
}

uint8_t type_index(pmix_data_type_t type)
{
    const std::vector<pmix_data_type_t> types = unpack_types();
    for (size_t i = 0; i < types.size(); ++i) {
        if (types[i] == type) return static_cast<uint8_t>(i);
    }
    std::fprintf(stderr, "seedgen: type %u is not in the list\n", type);
    std::exit(1);
}

void pack_seed(const std::string &name, const void *src, int32_t n, pmix_data_type_t type)
{
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    must(PMIx_Data_pack(nullptr, &buf, const_cast<void *>(src), n, type), name.c_str());
    const std::vector<uint8_t> bytes(reinterpret_cast<uint8_t *>(buf.base_ptr),
                                     reinterpret_cast<uint8_t *>(buf.base_ptr) + buf.bytes_used);
    write("data_unpack", name, with_prefix({type_index(type), static_cast<uint8_t>(n - 1)}, bytes));
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}

void data_unpack()
{
    // A zeroed element of every type the codec packs.
    for (pmix_data_type_t type : unpack_types()) {
        void *zero = pmixpp::values::alloc_elements(type, 1);
        if (zero == nullptr) continue;
        pmix_data_buffer_t buf;
        PMIX_DATA_BUFFER_CONSTRUCT(&buf);
        if (PMIx_Data_pack(nullptr, &buf, zero, 1, type) == PMIX_SUCCESS) {
            const std::vector<uint8_t> bytes(reinterpret_cast<uint8_t *>(buf.base_ptr),
                                             reinterpret_cast<uint8_t *>(buf.base_ptr) + buf.bytes_used);
            write("data_unpack", std::string("zero_") + PMIx_Data_type_string(type),
                  with_prefix({type_index(type), 0}, bytes));
        }
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
        pmixpp::values::free_elements(zero, 1, type);
    }
    const char *strings[] = {"hello", "", "third"};
    pack_seed("strings", strings, 3, PMIX_STRING);
    const uint32_t numbers[] = {1, 0xffffffffu};
    pack_seed("uint32s", numbers, 2, PMIX_UINT32);
    const pmix_proc_t procs[] = {proc("job-1", 0), proc("job-1", PMIX_RANK_WILDCARD)};
    pack_seed("procs", procs, 2, PMIX_PROC);
    InfoArray infos = sample_infos();
    pack_seed("infos", infos.data(), static_cast<int32_t>(infos.size() > 4 ? 4 : infos.size()), PMIX_INFO);
    pmix_value_t value{};
    pmix_data_array_t array{};
    array.type = PMIX_INFO;
    array.size = infos.size();
    array.array = infos.data();
    must(pmixpp::values::value_load(&value, &array, PMIX_DATA_ARRAY), "value_load");
    pack_seed("value_info_array", &value, 1, PMIX_VALUE);
    pack_seed("data_array", &array, 1, PMIX_DATA_ARRAY);
    PMIX_VALUE_DESTRUCT(&value);
    pmix_byte_object_t bo{const_cast<char *>("bytes\0here"), 10};
    pack_seed("byte_object", &bo, 1, PMIX_BYTE_OBJECT);
    pmix_envar_t envar{const_cast<char *>("PATH"), const_cast<char *>("/bin"), ':'};
    pack_seed("envar", &envar, 1, PMIX_ENVAR);
    const char text[] = "a text that compresses, a text that compresses, a text that compresses";
    uint8_t *compressed = nullptr;
    size_t n = 0;
    if (PMIx_Data_compress(reinterpret_cast<const uint8_t *>(text), sizeof(text), &compressed, &n)) {
        write("data_unpack", "compressed",
              with_prefix({type_index(0x7fff), 0}, std::vector<uint8_t>(compressed, compressed + n)));
        std::free(compressed);
    }
}

// ------------------------------------------------------------------ regex

void regex()
{
    std::string map;
    must(pmixpp::regex::generate_node_regex("n001,n002,n003,n010,login,10.0.0.1,10.0.0.2", &map), "node regex");
    write("regex", "node_map", with_prefix({0}, text_bytes(map)));
    write("regex", "node_plain", with_prefix({0}, text_bytes("n1,n2,n3")));
    write("regex", "node_escaped", with_prefix({0}, text_bytes("pmixpp1:a%20b,x[1-3].r3,n[0098-0100]")));
    must(pmixpp::regex::generate_ppn_regex("0,1,2,3;4,5,6,7;8,9,10,11;12,13,14,15", &map), "ppn regex");
    write("regex", "proc_map_block", with_prefix({1}, text_bytes(map)));
    must(pmixpp::regex::generate_ppn_regex("0,4,8;1,5,9;2,6,10;3,7,11", &map), "ppn regex");
    write("regex", "proc_map_cyclic", with_prefix({1}, text_bytes(map)));
    write("regex", "proc_map_delta", with_prefix({1}, text_bytes("pmixpp1:0-150/10*10+1;12-15*4-4")));
    write("regex", "proc_plain", with_prefix({1}, text_bytes("raw:0,1;2-3;9")));
    write("regex", "generate_nodes", with_prefix({2}, text_bytes("c1,c2,c3,c10,gpu-a01,gpu-a02")));
    write("regex", "generate_ppn", with_prefix({3}, text_bytes("0,1;2,3;4;5,6,7")));
}

// ------------------------------------------------------------------ register_nspace

void register_nspace()
{
    std::string nodes, procs;
    must(pmixpp::regex::generate_node_regex("node0,node1", &nodes), "node regex");
    must(pmixpp::regex::generate_ppn_regex("0,1;2,3", &procs), "ppn regex");
    {
        Infos job;
        job.u32(PMIX_JOB_SIZE, 4)
            .u32(PMIX_UNIV_SIZE, 4)
            .u32(PMIX_JOB_NUM_APPS, 1)
            .str(PMIX_NODE_MAP, nodes.c_str())
            .str(PMIX_PROC_MAP, procs.c_str())
            .str(PMIX_JOBID, "job-1")
            .u32(PMIX_MAX_PROCS, 4);
        for (pmix_rank_t r = 0; r < 4; ++r) {
            Infos proc_info;
            proc_info.rank(PMIX_RANK, r)
                .u32(PMIX_APPNUM, 0)
                .u32(PMIX_NODEID, r / 2)
                .str(PMIX_HOSTNAME, r < 2 ? "node0" : "node1");
            job.nested(PMIX_PROC_DATA, proc_info);
        }
        Infos node;
        node.str(PMIX_HOSTNAME, "node0").u32(PMIX_NODEID, 0).str(PMIX_LOCAL_PEERS, "0,1").u32(PMIX_LOCAL_SIZE, 2);
        job.nested(PMIX_NODE_INFO_ARRAY, node);
        Infos app;
        app.u32(PMIX_APPNUM, 0).u32(PMIX_APP_SIZE, 4).str(PMIX_APP_ARGV, "./a.out");
        job.nested(PMIX_APP_INFO_ARRAY, app);
        write("register_nspace", "full_job", job.encoded());
    }
    {
        Infos job;
        job.u32(PMIX_JOB_SIZE, 2).str(PMIX_NODE_MAP, "node0").str(PMIX_PROC_MAP, "0,1");
        write("register_nspace", "plain_maps", job.encoded());
    }
    {
        Infos job;
        job.flag(PMIX_REGISTER_NODATA, true);
        write("register_nspace", "nodata", job.encoded());
    }
    {
        Infos session;
        session.u32(PMIX_SESSION_ID, 3).u32(PMIX_MAX_PROCS, 16);
        Infos job;
        job.nested(PMIX_SESSION_INFO_ARRAY, session).u32(PMIX_JOB_SIZE, 3).str(PMIX_NODE_MAP, nodes.c_str());
        Infos a0, a1;
        a0.u32(PMIX_APPNUM, 0).u32(PMIX_APP_SIZE, 1);
        a1.u32(PMIX_APPNUM, 1).u32(PMIX_APP_SIZE, 2);
        job.nested(PMIX_APP_INFO_ARRAY, a0).nested(PMIX_APP_INFO_ARRAY, a1);
        write("register_nspace", "session_two_apps", job.encoded());
    }
    write("register_nspace", "empty_array", Infos().encoded());
}

// ------------------------------------------------------------------ rendezvous

void rendezvous()
{
    pmixpp::rendezvous::Contact contact;
    contact.uris = {"pmix-server.4242;tcp4://127.0.0.1:5000", "pmix-server.4242;usock:/tmp/pmix-4242"};
    contact.server_nspace = "pmix-server.4242";
    contact.server_rank = 0;
    contact.library_version = "4.2.2";
    contact.pid = 4242;
    contact.uid = 1000;
    contact.gid = 1000;
    contact.start_time = "123456";
    write("rendezvous", "two_uris", text_bytes(pmixpp::rendezvous::format(contact)));
    contact.uris.resize(1);
    contact.start_time.clear();
    write("rendezvous", "one_uri", text_bytes(pmixpp::rendezvous::format(contact)));
    write("rendezvous", "openpmix_line_only", text_bytes("pmix-server.99;tcp4://10.0.0.1:1234\n"));
}

// ------------------------------------------------------------------ cleanup

void cleanup()
{
    write("cleanup", "paths", with_prefix({0, 0}, text_bytes("/tmp/a, /tmp//b/./c/ ,,/var/tmp/x")));
    write("cleanup", "dotdot", with_prefix({0, 0}, text_bytes("/tmp/../etc/passwd,relative/path,/")));
    Infos files;
    files.str(PMIX_REGISTER_CLEANUP, "/tmp/job-1/a,/tmp/job-1/b")
        .str(PMIX_REGISTER_CLEANUP_DIR, "/tmp/job-1/d")
        .flag(PMIX_CLEANUP_RECURSIVE, true)
        .flag(PMIX_CLEANUP_LEAVE_TOPDIR, true)
        .str(PMIX_CLEANUP_IGNORE, "/tmp/job-1/d/keep")
        .str(PMIX_REGISTER_CLEANUP, "/tmp/job-1/a")
        .flag(PMIX_CLEANUP_EMPTY, false);
    write("cleanup", "directives", with_prefix({1, 3}, files.encoded()));
    Infos conflict;
    conflict.str(PMIX_REGISTER_CLEANUP, "/tmp/x").str(PMIX_CLEANUP_IGNORE, "/tmp/x");
    write("cleanup", "conflict", with_prefix({1, 1}, conflict.encoded()));
    Infos wrong_type;
    wrong_type.u32(PMIX_REGISTER_CLEANUP, 7).str(PMIX_CLEANUP_RECURSIVE, "yes");
    write("cleanup", "wrong_types", with_prefix({1, 0}, wrong_type.encoded()));
}

// ------------------------------------------------------------------ topology

void topology()
{
    write("topology", "cpuset", with_prefix({0}, text_bytes("hwloc:0-3,6")));
    write("topology", "cpuset_bad", with_prefix({0}, text_bytes("hwloc:3-1,x")));
    write("topology", "cpuset_other", with_prefix({0}, text_bytes("netloc:0")));
    write("topology", "locality_pair", with_prefix({1}, text_bytes("SK0:L30:L20:L10:CR0:HT0-1\nhwloc:SK0:CR1:HT2")));
    write("topology", "locality_numa", with_prefix({1}, text_bytes("NM0:SK0:CR0-1:HT0-3\nNM1:SK1:CR4:HT8")));
    write("topology", "locality_bad", with_prefix({1}, text_bytes("SK0:XX1\nCR")));
    write("topology", "written_list", with_prefix({2}, text_bytes("hwloc:1-2,5")));
    write("topology", "written_mask", with_prefix({2}, text_bytes("0x000000f0")));
    write("topology", "distances", with_prefix({3}, text_bytes("hwloc:0,7")));
    write("topology", "distances_elsewhere", with_prefix({3}, text_bytes("hwloc:64-65")));
}

}  // namespace

// ------------------------------------------------------------------ openpmix_bfrops
// Byte 0: bit 0 v3, bit 1 fully described; byte 1 indexes the target's
// kTypes (the indexes below follow that table).
void openpmix_bfrops()
{
    using namespace pmixpp::openpmix;
    const uint8_t kProc = 7, kInfo = 9, kValue = 6, kApp = 8, kCounted = 27;
    for (uint8_t mode = 0; mode < 4; ++mode) {
        const Encoding enc{(mode & 1) ? Bfrops::v3 : Bfrops::v41,
                           (mode & 2) ? BufferType::fully_desc : BufferType::non_desc};
        const std::string suffix = std::string((mode & 1) ? "_v3" : "_v41") + ((mode & 2) ? "_desc" : "");
        pmix_proc_t p = proc("probe.ns", PMIX_RANK_WILDCARD);
        Writer procs(enc);
        must(procs.pack(PMIX_PROC, &p, 1), "openpmix proc");
        write("openpmix_bfrops", "proc" + suffix, with_prefix({mode, kProc}, procs.bytes()));

        Infos list;
        const uint32_t size = 4;
        const bool flag = true;
        list.add("pmix.job.size", &size, PMIX_UINT32)
            .add("pmix.collect", &flag, PMIX_BOOL)
            .add("pmix.hname", "node01", PMIX_STRING);
        Writer infos(enc);
        must(infos.pack(PMIX_INFO, list.data(), static_cast<int32_t>(list.size())), "openpmix infos");
        write("openpmix_bfrops", "info" + suffix, with_prefix({mode, kInfo}, infos.bytes()));
        Writer counted(enc);
        must(counted.pack_counted(PMIX_INFO, list.data(), list.size()), "openpmix counted infos");
        write("openpmix_bfrops", "counted_info" + suffix, with_prefix({mode, kCounted}, counted.bytes()));

        pmix_data_array_t darray{PMIX_INFO, list.size(), list.data()};
        pmix_value_t v{};
        v.type = PMIX_DATA_ARRAY;
        v.data.darray = &darray;
        Writer value(enc);
        must(value.pack(PMIX_VALUE, &v, 1), "openpmix value");
        write("openpmix_bfrops", "value_darray" + suffix, with_prefix({mode, kValue}, value.bytes()));

        char cmd[] = "/bin/true";
        char *argv[] = {cmd, nullptr};
        pmix_app_t app{};
        app.cmd = cmd;
        app.argv = argv;
        app.maxprocs = 2;
        app.info = list.data();
        app.ninfo = 1;
        Writer apps(enc);
        must(apps.pack(PMIX_APP, &app, 1), "openpmix app");
        write("openpmix_bfrops", "app" + suffix, with_prefix({mode, kApp}, apps.bytes()));
    }
}

// ------------------------------------------------------------------ openpmix_connect
// The body of a connect request (the target reads its first 16 bytes as
// the header too).
void openpmix_connect()
{
    using namespace pmixpp::openpmix;
    const auto make_client = [] {
        pmixpp::openpmix::ConnectRequest client;
        client.psec = "native";
        const uint32_t ids[2] = {1000, 1000};
        client.credential.assign(reinterpret_cast<const uint8_t *>(ids), reinterpret_cast<const uint8_t *>(ids) + 8);
        client.flag = ConnectFlag::simple_client;
        client.has_proc = true;
        client.nspace = "job1";
        client.rank = 0;
        client.version = "4.2.2";
        client.bfrops = "v41";
        client.gds = "hash";
        return client;
    };
    const pmixpp::openpmix::ConnectRequest client = make_client();
    write("openpmix_connect", "client_v41", encode_connect_request(client));
    std::vector<uint8_t> stray = encode_connect_request(client);
    stray.push_back(0);  // 4.1.x to 4.2.2 clients add one 0x00
    write("openpmix_connect", "client_stray_byte", stray);
    pmixpp::openpmix::ConnectRequest v3 = make_client();
    v3.version = "3.2.3";
    v3.bfrops = "v3";
    v3.buffer_type = BufferType::fully_desc;
    write("openpmix_connect", "client_v3_desc", encode_connect_request(v3));
    pmixpp::openpmix::ConnectRequest tool = make_client();
    tool.flag = ConnectFlag::tool_given_id;
    tool.has_ids = true;
    tool.uid = 1000;
    tool.gid = 1000;
    tool.version = "5.0.1";
    tool.info = Infos().str("pmix.tool.nspace", "tool.1").u32("pmix.tool.rank", 0).array();
    write("openpmix_connect", "tool_with_info", encode_connect_request(tool));
    pmixpp::openpmix::ConnectRequest needs_id = make_client();
    needs_id.flag = ConnectFlag::tool_needs_id;
    needs_id.has_proc = false;
    needs_id.nspace.clear();
    needs_id.has_ids = true;
    write("openpmix_connect", "tool_needs_id", encode_connect_request(needs_id));
    pmixpp::openpmix::ConnectRequest old = make_client();
    old.version = "1.2.5";
    old.bfrops = "v12";
    write("openpmix_connect", "too_old", encode_connect_request(old));
    const HeaderBytes head = encode_connect_header(static_cast<uint32_t>(stray.size()));
    std::vector<uint8_t> framed(head.begin(), head.end());
    framed.insert(framed.end(), stray.begin(), stray.end());
    write("openpmix_connect", "header_and_body", framed);
    const HeaderBytes huge = encode_connect_header(kMaxConnectBody + 1);
    write("openpmix_connect", "header_oversized", std::vector<uint8_t>(huge.begin(), huge.end()));
}

// ------------------------------------------------------------------ openpmix_requests
// Byte 0: bit 0 v3, bit 1 fully described; then a request as OpenPMIx's
// 4.2 client packs it (/work/notes, docs/wire-protocol.md), [cmd] first.
void openpmix_requests()
{
    using namespace pmixpp::openpmix;
    using OpCommand = pmixpp::openpmix::Command;
    for (uint8_t mode = 0; mode < 4; ++mode) {
        const Encoding enc{(mode & 1) ? Bfrops::v3 : Bfrops::v41,
                           (mode & 2) ? BufferType::fully_desc : BufferType::non_desc};
        const std::string suffix = std::string((mode & 1) ? "_v3" : "_v41") + ((mode & 2) ? "_desc" : "");
        Infos info;
        info.flag("pmix.collect", true).u32("pmix.timeout", 5);
        pmix_proc_t procs[2] = {proc("job1", 0), proc("job1", 1)};
        const auto seed = [&](OpCommand command, const char *name, const auto &fill) {
            Writer w(enc);
            must(w.pack_command(static_cast<uint8_t>(command)), name);
            fill(w);
            write("openpmix_requests", name + suffix, with_prefix({mode}, w.bytes()));
        };
        const auto nothing = [](Writer &) {};
        const auto counted_info = [&](Writer &w) { must(w.pack_counted(PMIX_INFO, info.data(), info.size()), "info"); };
        const auto procs_and_info = [&](Writer &w) {
            must(w.pack_counted(PMIX_PROC, procs, 2), "procs");
            counted_info(w);
        };
        seed(OpCommand::req, "req", nothing);
        seed(OpCommand::finalize, "finalize", nothing);
        seed(OpCommand::abort, "abort", [&](Writer &w) {
            must(w.pack_status(3), "abort status");
            must(w.pack_string("it broke"), "abort msg");
            must(w.pack_counted(PMIX_PROC, procs, 1), "abort procs");
        });
        seed(OpCommand::commit, "commit", [&](Writer &w) {
            for (pmix_scope_t scope : {PMIX_LOCAL, PMIX_REMOTE}) {
                Writer kv(enc);
                pmix_value_t v{};
                v.type = PMIX_UINT32;
                v.data.uint32 = 42;
                must(kv.pack_kval("my.key", v), "commit kval");
                must(kv.pack_kval("both.key", v), "commit kval");
                pmix_data_buffer_t buffer{};
                buffer.base_ptr = reinterpret_cast<char *>(const_cast<uint8_t *>(kv.bytes().data()));
                buffer.bytes_used = kv.bytes().size();
                buffer.bytes_allocated = kv.bytes().size();
                must(w.pack(PMIX_SCOPE, &scope, 1), "commit scope");
                must(w.pack(PMIX_BUFFER, &buffer, 1), "commit buffer");
            }
        });
        seed(OpCommand::fence, "fence", procs_and_info);
        seed(OpCommand::get, "get", [&](Writer &w) {
            must(w.pack_string("job1"), "get nspace");
            must(w.pack_rank(1), "get rank");
            counted_info(w);
            must(w.pack_string("my.key"), "get key");
        });
        seed(OpCommand::get, "get_foreign_wildcard", [&](Writer &w) {
            must(w.pack_string("job2"), "get nspace");
            must(w.pack_rank(PMIX_RANK_WILDCARD), "get rank");
            must(w.pack_counted(PMIX_INFO, nullptr, 0), "get info");
        });
        seed(OpCommand::publish, "publish", [&](Writer &w) {
            must(w.pack_uint32(1000), "uid");
            counted_info(w);
        });
        const auto keyed = [&](Writer &w) {
            must(w.pack_uint32(1000), "uid");
            must(w.pack_size(2), "nkeys");
            must(w.pack_string("pmix.collect"), "key");
            must(w.pack_string("pmix.timeout"), "key");
            counted_info(w);
        };
        seed(OpCommand::lookup, "lookup", keyed);
        seed(OpCommand::unpublish, "unpublish", keyed);
        seed(OpCommand::spawn, "spawn", [&](Writer &w) {
            counted_info(w);
            char cmd[] = "/bin/true";
            char *argv[] = {cmd, nullptr};
            pmix_app_t app{};
            app.cmd = cmd;
            app.argv = argv;
            app.maxprocs = 2;
            must(w.pack_counted(PMIX_APP, &app, 1), "apps");
        });
        seed(OpCommand::connect, "connect", procs_and_info);
        seed(OpCommand::disconnect, "disconnect", procs_and_info);
        seed(OpCommand::notify, "notify", [&](Writer &w) {
            must(w.pack_status(-147), "notify status");
            pmix_data_range_t range = PMIX_RANGE_SESSION;
            must(w.pack(PMIX_DATA_RANGE, &range, 1), "range");
            counted_info(w);
        });
        seed(OpCommand::register_events, "register_events", [&](Writer &w) {
            pmix_status_t codes[2] = {-147, -101};
            must(w.pack_counted(PMIX_STATUS, codes, 2), "codes");
            counted_info(w);
        });
        seed(OpCommand::deregister_events, "deregister_events", [&](Writer &w) {
            must(w.pack_status(-147), "code");
            must(w.pack_status(-101), "code");
        });
        seed(OpCommand::query, "query", [&](Writer &w) {
            char key[] = "pmix.qry.nspaces";
            char *keys[] = {key, nullptr};
            pmix_query_t query{};
            query.keys = keys;
            must(w.pack_counted(PMIX_QUERY, &query, 1), "queries");
        });
        seed(OpCommand::log, "log", [&](Writer &w) {
            time_t stamp = 1700000000;
            must(w.pack(PMIX_TIME, &stamp, 1), "timestamp");
            Infos data;
            data.str("pmix.log.stderr", "hello");
            must(w.pack_counted(PMIX_INFO, data.data(), data.size()), "log data");
            counted_info(w);
        });
        seed(OpCommand::allocate, "allocate", [&](Writer &w) {
            pmix_alloc_directive_t directive = PMIX_ALLOC_NEW;
            must(w.pack(PMIX_ALLOC_DIRECTIVE, &directive, 1), "directive");
            counted_info(w);
        });
        seed(OpCommand::job_control, "job_control", procs_and_info);
        seed(OpCommand::monitor, "monitor", [&](Writer &w) {
            must(w.pack(PMIX_INFO, info.data(), 1), "monitor");
            must(w.pack_status(-1), "error");
            counted_info(w);
        });
        seed(OpCommand::iof_pull, "iof_pull", [&](Writer &w) {
            procs_and_info(w);
            pmix_iof_channel_t channel = PMIX_FWD_STDOUT_CHANNEL;
            must(w.pack(PMIX_IOF_CHANNEL, &channel, 1), "channel");
            must(w.pack_size(7), "peer id");
        });
        seed(OpCommand::iof_push, "iof_push", [&](Writer &w) {
            procs_and_info(w);
            must(w.pack_byte_object("input\n", 6), "data");
        });
        seed(OpCommand::iof_deregister, "iof_deregister", [&](Writer &w) {
            counted_info(w);
            must(w.pack_size(7), "id");
        });
        seed(OpCommand::get_credential, "get_credential", counted_info);
        seed(OpCommand::validate_credential, "validate_credential", [&](Writer &w) {
            must(w.pack_byte_object("cred", 4), "credential");
            counted_info(w);
        });
        seed(OpCommand::group_construct, "group_construct", [&](Writer &w) {
            must(w.pack_string("grp"), "group");
            procs_and_info(w);
        });
        seed(OpCommand::group_destruct, "group_destruct", [&](Writer &w) {
            must(w.pack_string("grp"), "group");
            counted_info(w);
        });
        seed(OpCommand::group_leave, "group_leave", [&](Writer &w) {
            must(w.pack_string("grp"), "group");
            counted_info(w);
        });
        seed(OpCommand::fabric_register, "fabric_register", counted_info);
        seed(OpCommand::fabric_update, "fabric_update", [&](Writer &w) { must(w.pack_size(3), "index"); });
        seed(static_cast<OpCommand>(99), "unknown_99", nothing);
    }
}

// ------------------------------------------------------------------ openpmix_job_data
// Byte 0: bit 0 v3, bit 1 fully described, bit 2 a get's answer; then the
// blob as src/server/openpmix/job_data.cc lays it out.
void openpmix_job_data()
{
    using namespace pmixpp::openpmix;
    for (uint8_t mode = 0; mode < 4; ++mode) {
        const Encoding enc{(mode & 1) ? Bfrops::v3 : Bfrops::v41,
                           (mode & 2) ? BufferType::fully_desc : BufferType::non_desc};
        const std::string suffix = std::string((mode & 1) ? "_v3" : "_v41") + ((mode & 2) ? "_desc" : "");
        Infos job;
        job.u32("pmix.job.size", 2).str("pmix.nmap", "testhost").str("pmix.pmap", "0,1");
        Infos node;
        node.u32("pmix.nodeid", 0).str("pmix.hname", "testhost").str("pmix.lpeers", "0,1");
        job.nested("pmix.node.arr", node);
        Writer level(enc);
        for (size_t i = 0; i < job.size(); ++i) must(level.pack_kval(job.data()[i].key, job.data()[i].value), "kval");
        // REQ's answer.
        Writer req(enc);
        must(req.pack_string("job1"), "nspace");
        req.append_raw(level.bytes().data(), level.bytes().size());
        for (pmix_rank_t rank = 0; rank < 2; ++rank) {
            Writer blob(enc);
            must(blob.pack_rank(rank), "rank");
            pmix_value_t local{};
            local.type = PMIX_UINT16;
            local.data.uint16 = static_cast<uint16_t>(rank);
            must(blob.pack_kval("pmix.lrank", local), "lrank");
            pmix_value_t v{};
            v.type = PMIX_BYTE_OBJECT;
            v.data.bo.bytes = reinterpret_cast<char *>(const_cast<uint8_t *>(blob.bytes().data()));
            v.data.bo.size = blob.bytes().size();
            must(req.pack_kval("pmix.pblob", v), "pblob");
        }
        write("openpmix_job_data", "req" + suffix, with_prefix({mode}, req.bytes()));
        // A foreign job's get: success, then [proc][KVAL...] per byte object.
        Writer get(enc);
        must(get.pack_status(PMIX_SUCCESS), "status");
        Writer object(enc);
        must(object.pack_proc(proc("job2", PMIX_RANK_WILDCARD)), "proc");
        object.append_raw(level.bytes().data(), level.bytes().size());
        must(get.pack_byte_object(object.bytes().data(), object.bytes().size()), "object");
        write("openpmix_job_data", "get_answer" + suffix, with_prefix({static_cast<uint8_t>(mode | 4)}, get.bytes()));
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <corpus-dir>   (writes <corpus-dir>/<target>/...)\n", argv[0]);
        return 2;
    }
    g_root = argv[1];
    messages();
    handshake();
    data_unpack();
    regex();
    register_nspace();
    rendezvous();
    cleanup();
    topology();
    openpmix_bfrops();
    openpmix_connect();
    openpmix_requests();
    openpmix_job_data();
    return 0;
}
