#include "wire/samples.h"

#include <cstring>
#include <string>

#include "common/values/memory_helpers.h"
#include "common/values/value_ops.h"

namespace wire_test {

pmix_proc_t make_proc(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t proc{};
    std::strncpy(proc.nspace, nspace, PMIX_MAX_NSLEN);
    proc.rank = rank;
    return proc;
}

InfoArray sample_info(const char *tag)
{
    InfoArray info;
    cr_assert_eq(info.allocate(3), PMIX_SUCCESS);
    std::string prefix = std::string("pmix.test.") + tag;
    uint32_t number = 42;
    pmix_proc_t proc = make_proc("ns-sample", 7);
    cr_assert_eq(pmixpp::values::info_load(&info[0], (prefix + ".str").c_str(), "a value", PMIX_STRING), PMIX_SUCCESS);
    cr_assert_eq(pmixpp::values::info_load(&info[1], (prefix + ".u32").c_str(), &number, PMIX_UINT32), PMIX_SUCCESS);
    cr_assert_eq(pmixpp::values::info_load(&info[2], (prefix + ".proc").c_str(), &proc, PMIX_PROC), PMIX_SUCCESS);
    return info;
}

Hello sample_hello()
{
    Hello m;
    m.peer_type = PeerType::Client;
    m.nspace = "job-1";
    m.rank = 3;
    m.pid = 4242;
    m.psec_module = "munge";
    m.credential = {'M', 'U', 'N', 'G', 'E', 0, 1, 2};
    m.gds_modules = {"shmem", "hash"};
    m.ptl_module = "usock";
    m.library_version = "pmixpp 4.2.2";
    m.info = sample_info("hello");
    return m;
}

Welcome sample_welcome()
{
    Welcome m;
    m.version = 1;
    m.status = PMIX_SUCCESS;
    m.gds_module = "hash";
    m.server_nspace = "server-ns";
    m.server_rank = 0;
    m.peer_nspace = "job-1";
    m.peer_rank = 3;
    m.library_version = "pmixpp 4.2.2";
    m.job_data = {1, 2, 3, 4, 5, 0, 255};
    m.info = sample_info("welcome");
    return m;
}

Refuse sample_refuse()
{
    Refuse m;
    m.status = PMIX_ERR_INVALID_CRED;
    m.reason = "uid 1001 does not match uid 0 registered for nspace foo rank 3";
    return m;
}

CommitRequest sample_commit()
{
    CommitRequest m;
    m.local = sample_info("local");
    m.remote = sample_info("remote");
    m.global = sample_info("global");
    return m;
}

FenceRequest sample_fence()
{
    FenceRequest m;
    m.procs = {make_proc("job-1", 0), make_proc("job-1", PMIX_RANK_WILDCARD)};
    m.directives = sample_info("fence");
    return m;
}

ConnectRequest sample_connect()
{
    ConnectRequest m;
    m.procs = {make_proc("job-1", PMIX_RANK_WILDCARD), make_proc("job-2", 4)};
    m.info = sample_info("connect");
    return m;
}

DisconnectRequest sample_disconnect()
{
    DisconnectRequest m;
    m.procs = {make_proc("job-2", PMIX_RANK_WILDCARD)};
    m.info = sample_info("disconnect");
    return m;
}

GetRequest sample_get()
{
    GetRequest m;
    m.proc = make_proc("job-1", 2);
    m.key = "opal.puri";
    m.directives = sample_info("get");
    return m;
}

AbortRequest sample_abort()
{
    AbortRequest m;
    m.status = PMIX_ERR_TIMEOUT;
    m.message = "rank 2 gave up";
    m.procs = {make_proc("job-1", 1)};
    return m;
}

FinalizeRequest sample_finalize()
{
    FinalizeRequest m;
    m.directives = sample_info("finalize");
    return m;
}

RegisterEventsRequest sample_register_events()
{
    RegisterEventsRequest m;
    m.codes = {PMIX_ERR_PROC_ABORTED, PMIX_ERR_LOST_CONNECTION, PMIX_EVENT_JOB_END};
    m.info = sample_info("register");
    return m;
}

DeregisterEventsRequest sample_deregister_events()
{
    DeregisterEventsRequest m;
    m.reference = 0x0102030405060708ull;
    return m;
}

Event sample_event()
{
    Event m;
    m.status = PMIX_ERR_PROC_ABORTED;
    m.source = make_proc("job-1", 5);
    m.range = PMIX_RANGE_NAMESPACE;
    m.info = sample_info("event");
    return m;
}

NotifyEventRequest sample_notify_event()
{
    NotifyEventRequest m;
    m.event = sample_event();
    return m;
}

QueryRequest sample_query()
{
    QueryRequest m;
    cr_assert_eq(m.queries.allocate(2), PMIX_SUCCESS);
    char *keys0[] = {const_cast<char *>(PMIX_QUERY_NAMESPACES), nullptr};
    char *keys1[] = {const_cast<char *>(PMIX_QUERY_PROC_TABLE), const_cast<char *>(PMIX_QUERY_NUM_PSETS), nullptr};
    cr_assert_eq(pmixpp::values::dup_argv(&m.queries[0].keys, keys0), PMIX_SUCCESS);
    cr_assert_eq(pmixpp::values::dup_argv(&m.queries[1].keys, keys1), PMIX_SUCCESS);
    InfoArray qualifiers = sample_info("qualifier");
    m.queries[1].qualifiers = qualifiers.release(&m.queries[1].nqual);
    return m;
}

StatusReply sample_status_reply()
{
    return StatusReply{PMIX_ERR_NOT_FOUND};
}

FenceReply sample_fence_reply()
{
    FenceReply m;
    m.status = PMIX_SUCCESS;
    cr_assert_eq(encode_modex(sample_modex(), &m.data), PMIX_SUCCESS);
    m.shared.push_back(SharedModex{"job-2", Bytes{1, 2, 3, 4}});
    m.shared.push_back(SharedModex{"job-3", Bytes{}});
    return m;
}

GetReply sample_get_reply()
{
    GetReply m;
    m.status = PMIX_SUCCESS;
    m.data = sample_info("reply");
    return m;
}

RegisterEventsReply sample_register_events_reply()
{
    RegisterEventsReply m;
    m.status = PMIX_SUCCESS;
    m.reference = 17;
    return m;
}

QueryReply sample_query_reply()
{
    QueryReply m;
    m.status = PMIX_ERR_PARTIAL_SUCCESS;
    m.results = sample_info("query");
    return m;
}

std::vector<ProcData> sample_modex()
{
    std::vector<ProcData> procs(3);
    for (size_t i = 0; i < procs.size(); ++i) {
        procs[i].proc = make_proc("job-1", static_cast<pmix_rank_t>(i));
    }
    procs[0].info = sample_info("modex0");
    procs[2].info = sample_info("modex2");  // procs[1] contributed nothing
    return procs;
}

}  // namespace wire_test
