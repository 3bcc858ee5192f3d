// Writes the seed corpus of every fuzz target (tests/fuzz/corpus/<target>/)
// with our own encoders, so the seeds are what pmixpp really sends and
// parses. Run it after a wire-format change and commit what it writes:
//   build/tests/bin/pmixpp_fuzz_seedgen tests/fuzz/corpus
// The first byte of a messages / data_unpack / regex / cleanup seed selects
// the target's mode; the tables here follow those in the targets.
#include "seedgen.h"

using namespace seedgen;

namespace {

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
    // OpenPMIx's own files, as 4.2 and 3.x servers write them.
    write("rendezvous", "openpmix_4_2",
          text_bytes("ppx-vm-30574.0;tcp4://127.0.0.1:49931\n4.2.2rc2\n30574\n0:0\nSat Nov 28 21:35:39 2026\n\n"));
    write("rendezvous", "openpmix_3_x", text_bytes("prterun.vm.1.7;tcp4://10.0.0.1:1234\nv3.2.5\n"));
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
