// Seeds of the OpenPMIx dialect's fuzz targets (openpmix_*_fuzz.cc),
// written with the OpenPMIx codec (src/common/openpmix/).
#include "seedgen.h"

namespace seedgen {

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

}  // namespace seedgen
