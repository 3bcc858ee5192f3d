// register_nspace: what the host gives is stored by level, and everything a
// client expects is derived from it.
#include "jobdata_helpers.h"
#include "support/process_usage.h"

#include <criterion/criterion.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace jobdata_test;
using pmixpp::store::InfoArray;
using pmixpp::store::Store;

namespace {

constexpr const char *kNs = "job.2x4";

Infos two_by_four()
{
    Infos infos;
    infos.str(PMIX_NODE_MAP, "n0,n1").str(PMIX_PROC_MAP, "0,1,2,3;4,5,6,7");
    return infos;
}

std::string text_of(const pmix_value_t &v)
{
    switch (v.type) {
    case PMIX_STRING: return std::string("s:") + v.data.string;
    case PMIX_UINT32: return "u32:" + std::to_string(v.data.uint32);
    case PMIX_UINT16: return "u16:" + std::to_string(v.data.uint16);
    case PMIX_PROC_RANK: return "rank:" + std::to_string(v.data.rank);
    case PMIX_BOOL: return v.data.flag ? "true" : "false";
    default: return "type" + std::to_string(v.type);
    }
}

// Every key of every place of a namespace, for comparing two registrations.
std::string dump(const Store &store, const char *nspace)
{
    std::string out;
    const struct {
        pmixpp_gds_level_t level;
        uint32_t id;
    } places[] = {{PMIXPP_GDS_LEVEL_SESSION, 0}, {PMIXPP_GDS_LEVEL_JOB, 0},  {PMIXPP_GDS_LEVEL_APP, 0},
                  {PMIXPP_GDS_LEVEL_NODE, 0},    {PMIXPP_GDS_LEVEL_NODE, 1}, {PMIXPP_GDS_LEVEL_PROC, 0},
                  {PMIXPP_GDS_LEVEL_PROC, 5}};
    for (const auto &p : places) {
        InfoArray all;
        if (store.fetch_all(nspace, p.level, p.id, &all) != PMIX_SUCCESS) continue;
        std::vector<std::string> lines;
        for (const pmix_info_t &info : all) {
            lines.push_back(std::string(info.key) + "=" + text_of(info.value));
        }
        std::sort(lines.begin(), lines.end());
        out += "[" + std::to_string(p.level) + ":" + std::to_string(p.id) + "]";
        for (const auto &l : lines) out += l + ";";
    }
    return out;
}

// TSan's shadow memory is resident too (several bytes per byte the program
// writes): under TSan the bound measures the sanitizer, so it is widened.
#if defined(PMIXPP_UNDER_TSAN)
constexpr long kRssFactor = 3;
#else
constexpr long kRssFactor = 1;
#endif

}  // namespace

Test(jobdata, derives_every_key_of_a_two_node_job)
{
    auto store = hash_store();
    Infos infos = two_by_four();
    const auto summary = register_ok(*store, kNs, infos, "n1");
    cr_assert_eq(summary.job_size, 8u);
    cr_assert_eq(summary.num_nodes, 2u);
    cr_assert(summary.local_node_known);
    cr_assert_eq(summary.local_nodeid, 1u);
    cr_assert_eq(summary.local_ranks, (std::vector<pmix_rank_t>{4, 5, 6, 7}));

    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_SIZE), 8u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_MAX_PROCS), 8u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NUM_NODES), 2u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_NUM_APPS), 1u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NPROC_OFFSET), 0u);
    cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOBID), kNs);
    cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NSPACE), kNs);
    cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NODE_LIST), "n0,n1");
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_SESSION, 0, PMIX_UNIV_SIZE), 8u);

    for (uint32_t node = 0; node < 2; ++node) {
        cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_NODE, node, PMIX_HOSTNAME), node ? "n1" : "n0");
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_NODE, node, PMIX_NODEID), node);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_NODE, node, PMIX_LOCAL_SIZE), 4u);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_NODE, node, PMIX_NODE_SIZE), 4u);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_NODE, node, PMIX_LOCALLDR), 4 * node);
    }
    cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_NODE, 0, PMIX_LOCAL_PEERS), "0,1,2,3");
    cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_NODE, 1, PMIX_LOCAL_PEERS), "4,5,6,7");

    for (pmix_rank_t r = 0; r < 8; ++r) {
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_RANK), r);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_GLOBAL_RANK), r);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_LOCAL_RANK), r % 4);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_NODE_RANK), r % 4);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_NODEID), r / 4);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_APPNUM), 0u);
        cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_APP_RANK), r);
        cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, r, PMIX_HOSTNAME), r < 4 ? "n0" : "n1");
    }
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_APP, 0, PMIX_APP_SIZE), 8u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_APP, 0, PMIX_APPLDR), 0u);
    // Declared types, as Open MPI reads them.
    pmixpp::store::ValuePtr v;
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 5, PMIX_LOCAL_RANK, &v), PMIX_SUCCESS);
    cr_assert_eq(v->type, PMIX_UINT16);
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 5, PMIX_GLOBAL_RANK, &v), PMIX_SUCCESS);
    cr_assert_eq(v->type, PMIX_PROC_RANK);
}

// Keys that follow from the rank and the job's other data are derived by the
// store on fetch instead of being kept per proc; the answers are the same,
// also in a proc's whole data (a NULL-key get) and never past the job.
Test(jobdata, derivable_proc_keys_are_not_stored_per_proc)
{
    auto store = hash_store();
    Infos infos = two_by_four();
    infos.u32(PMIX_NPROC_OFFSET, 100);
    register_ok(*store, kNs, infos, "n0");
    const pmixpp_gds_module_t &module = store->module();
    for (const char *key : {PMIX_RANK, PMIX_GLOBAL_RANK, PMIX_APPNUM, PMIX_APP_RANK, PMIX_HOSTNAME}) {
        // The module itself holds no such value ...
        pmix_value_t *raw = nullptr;
        const pmixpp_gds_address_t addr{kNs, PMIXPP_GDS_LEVEL_PROC, 6};
        cr_assert_eq(module.fetch(store->handle(), &addr, key, &raw), PMIX_ERR_NOT_FOUND, "%s is stored", key);
    }
    // ... but the store answers for it.
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 6, PMIX_RANK), 6u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 6, PMIX_GLOBAL_RANK), 106u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 6, PMIX_APPNUM), 0u);
    cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 6, PMIX_HOSTNAME), "n1");
    InfoArray all;
    cr_assert_eq(store->fetch_all(kNs, PMIXPP_GDS_LEVEL_PROC, 6, &all), PMIX_SUCCESS);
    std::vector<std::string> keys;
    for (const pmix_info_t &info : all) keys.emplace_back(info.key);
    for (const char *key : {PMIX_RANK, PMIX_GLOBAL_RANK, PMIX_APPNUM, PMIX_APP_RANK, PMIX_HOSTNAME, PMIX_NODEID,
                            PMIX_LOCAL_RANK, PMIX_NODE_RANK}) {
        cr_assert_eq(std::count(keys.begin(), keys.end(), key), 1, "%s in the proc's data", key);
    }
    pmixpp::store::ValuePtr v;
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 8, PMIX_RANK, &v), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch_all(kNs, PMIXPP_GDS_LEVEL_PROC, 8, &all), PMIX_ERR_NOT_FOUND);
}

Test(jobdata, get_resolves_levels_like_a_client)
{
    auto store = hash_store();
    Infos infos = two_by_four();
    register_ok(*store, kNs, infos, "n1");
    // Wildcard + node key: the asking process's node.
    cr_assert_eq(get(*store, kNs, PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, 5)->data.uint32, 4u);
    cr_assert_eq(get_str(*store, kNs, PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, 5), "4,5,6,7");
    cr_assert_eq(get_str(*store, kNs, PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, 1), "0,1,2,3");
    // Qualifiers pick another node.
    Infos by_name;
    by_name.str(PMIX_HOSTNAME, "n0");
    cr_assert_eq(get_str(*store, kNs, PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, 5, &by_name), "0,1,2,3");
    Infos by_id;
    by_id.u32(PMIX_NODEID, 1);
    cr_assert_eq(get_str(*store, kNs, PMIX_RANK_WILDCARD, PMIX_HOSTNAME, 0, &by_id), "n1");
    // A job key asked of a rank falls back to the job level.
    cr_assert_eq(get(*store, kNs, 3, PMIX_JOB_SIZE, 0)->data.uint32, 8u);
    cr_assert_eq(get(*store, kNs, 6, PMIX_LOCAL_RANK, 0)->data.uint16, 2u);
    cr_assert_eq(get(*store, kNs, PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, 0)->data.uint32, 8u);
    Infos app;
    app.flag(PMIX_APP_INFO, true);
    cr_assert_eq(get(*store, kNs, PMIX_RANK_WILDCARD, PMIX_APP_SIZE, 0, &app)->data.uint32, 8u);
    // Wrongly typed qualifier: a clear error, no guess.
    Infos bad;
    bad.str(PMIX_NODEID, "one");
    pmix_proc_t target;
    PMIX_LOAD_PROCID(&target, kNs, PMIX_RANK_WILDCARD);
    pmixpp::store::GetRequest request;
    request.target = &target;
    request.key = PMIX_LOCAL_SIZE;
    request.qualifiers = bad.data();
    request.nqualifiers = bad.size();
    pmixpp::store::ValuePtr value;
    cr_assert_eq(pmixpp::store::get(*store, request, &value), PMIX_ERR_BAD_PARAM);
}

Test(jobdata, flat_and_nested_registrations_store_the_same)
{
    auto flat_store = hash_store();
    Infos flat = two_by_four();
    flat.u32(PMIX_SESSION_ID, 0).u32(PMIX_UNIV_SIZE, 16).u32(PMIX_JOB_SIZE, 8).str(PMIX_TMPDIR, "/tmp/x");
    flat.str(PMIX_WDIR, "/home/u").str(PMIX_APP_ARGV, "a.out -v").u32(PMIX_LOCAL_SIZE, 4);
    register_ok(*flat_store, kNs, flat, "n1");

    auto nested_store = hash_store();
    Infos session;
    session.u32(PMIX_SESSION_ID, 0).u32(PMIX_UNIV_SIZE, 16);
    Infos app;
    app.u32(PMIX_APPNUM, 0).str(PMIX_WDIR, "/home/u").str(PMIX_APP_ARGV, "a.out -v");
    Infos node;
    node.str(PMIX_HOSTNAME, "n1").u32(PMIX_LOCAL_SIZE, 4);
    Infos job = two_by_four();
    job.u32(PMIX_JOB_SIZE, 8).str(PMIX_TMPDIR, "/tmp/x").nested(PMIX_APP_INFO_ARRAY, app);
    job.nested(PMIX_NODE_INFO_ARRAY, node);
    Infos outer;
    outer.nested(PMIX_SESSION_INFO_ARRAY, session).nested(PMIX_JOB_INFO_ARRAY, job);
    register_ok(*nested_store, kNs, outer, "n1");

    const std::string a = dump(*flat_store, kNs);
    const std::string b = dump(*nested_store, kNs);
    cr_assert_str_eq(a.c_str(), b.c_str());
    cr_assert(a.find("pmix.univ.size=") != std::string::npos);
    cr_assert_eq(u32_at(*nested_store, kNs, PMIXPP_GDS_LEVEL_SESSION, 0, PMIX_UNIV_SIZE), 16u);
    cr_assert_eq(u32_at(*nested_store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_MAX_PROCS), 16u);
    cr_assert_eq(get_str(*nested_store, kNs, PMIX_RANK_WILDCARD, PMIX_WDIR, 4), "/home/u");
    cr_assert_eq(get_str(*nested_store, kNs, PMIX_RANK_WILDCARD, PMIX_TMPDIR, 4), "/tmp/x");
}

Test(jobdata, mpmd_job_of_three_apps)
{
    auto store = hash_store();
    Infos infos;
    infos.str(PMIX_NODE_MAP, "n0,n1").str(PMIX_PROC_MAP, "0,1,2;3,4,5").u32(PMIX_JOB_NUM_APPS, 3);
    const uint32_t sizes[] = {2, 3, 1};
    const char *argv[] = {"first", "second", "third"};
    for (uint32_t a = 0; a < 3; ++a) {
        Infos app;
        app.u32(PMIX_APPNUM, a).u32(PMIX_APP_SIZE, sizes[a]).str(PMIX_APP_ARGV, argv[a]).str(PMIX_WDIR, "/w");
        infos.nested(PMIX_APP_INFO_ARRAY, app);
    }
    register_ok(*store, "mpmd", infos, "n0");
    cr_assert_eq(u32_at(*store, "mpmd", PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_NUM_APPS), 3u);
    const uint32_t appnum[] = {0, 0, 1, 1, 1, 2};
    const uint32_t apprank[] = {0, 1, 0, 1, 2, 0};
    for (pmix_rank_t r = 0; r < 6; ++r) {
        cr_assert_eq(u32_at(*store, "mpmd", PMIXPP_GDS_LEVEL_PROC, r, PMIX_APPNUM), appnum[r], "rank %u", r);
        cr_assert_eq(u32_at(*store, "mpmd", PMIXPP_GDS_LEVEL_PROC, r, PMIX_APP_RANK), apprank[r], "rank %u", r);
    }
    cr_assert_eq(u32_at(*store, "mpmd", PMIXPP_GDS_LEVEL_APP, 1, PMIX_APPLDR), 2u);
    cr_assert_eq(u32_at(*store, "mpmd", PMIXPP_GDS_LEVEL_APP, 1, PMIX_APP_SIZE), 3u);
    cr_assert_eq(u32_at(*store, "mpmd", PMIXPP_GDS_LEVEL_APP, 2, PMIX_APPLDR), 5u);
    // Each process sees its own application's argv without a qualifier.
    cr_assert_eq(get_str(*store, "mpmd", PMIX_RANK_WILDCARD, PMIX_APP_ARGV, 3), "second");
    cr_assert_eq(get_str(*store, "mpmd", PMIX_RANK_WILDCARD, PMIX_APP_ARGV, 5), "third");
    Infos q;
    q.u32(PMIX_APPNUM, 0);
    cr_assert_eq(get_str(*store, "mpmd", PMIX_RANK_WILDCARD, PMIX_APP_ARGV, 5, &q), "first");
}

Test(jobdata, per_proc_arrays_give_appnum_and_win_over_derived_values)
{
    auto store = hash_store();
    Infos infos = two_by_four();
    for (pmix_rank_t r = 0; r < 8; ++r) {
        Infos proc;
        proc.rank(PMIX_RANK, r).u32(PMIX_APPNUM, r < 6 ? 0 : 1).str(PMIX_PROCDIR, "/tmp/p");
        if (r == 7) proc.u32(PMIX_LOCAL_RANK, 9);  // a host may know better: kept as given (as uint16)
        infos.nested(PMIX_PROC_INFO_ARRAY, proc);
    }
    register_ok(*store, kNs, infos, "n0");
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 7, PMIX_APPNUM), 1u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 7, PMIX_APP_RANK), 1u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_APP, 1, PMIX_APP_SIZE), 2u);
    cr_assert_eq(u32_at(*store, kNs, PMIXPP_GDS_LEVEL_APP, 1, PMIX_APPLDR), 6u);
    pmixpp::store::ValuePtr v;
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 7, PMIX_LOCAL_RANK, &v), PMIX_SUCCESS);
    cr_assert_eq(v->type, PMIX_UINT16);
    cr_assert_eq(v->data.uint16, 9);
    cr_assert_eq(str_at(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 2, PMIX_PROCDIR), "/tmp/p");
}

Test(jobdata, nodata_registers_the_namespace_only)
{
    auto store = hash_store();
    Infos infos;
    infos.flag(PMIX_REGISTER_NODATA, true);
    const auto summary = register_ok(*store, "empty", infos, "n0");
    cr_assert(summary.nodata);
    cr_assert(store->has_nspace("empty"));
    cr_assert_not(has(*store, "empty", PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_SIZE));
    cr_assert_eq(pmixpp::jobdata::deregister_nspace("empty", *store), PMIX_SUCCESS);
    cr_assert_not(store->has_nspace("empty"));
}

Test(jobdata, a_large_job_registers_with_bounded_memory)
{
    auto store = hash_store();
    constexpr uint32_t kNodes = 1024, kPerNode = 64;
    std::string nodes, procs;
    for (uint32_t n = 0; n < kNodes; ++n) {
        if (n) {
            nodes += ',';
            procs += ';';
        }
        nodes += "node" + std::to_string(n);
        procs += std::to_string(n * kPerNode) + "-" + std::to_string(n * kPerNode + kPerNode - 1);
    }
    Infos infos;
    infos.str(PMIX_NODE_MAP, nodes.c_str()).str(PMIX_PROC_MAP, procs.c_str());
    const long before = pmixpp_test::resident_kb();
    const auto summary = register_ok(*store, "big", infos, "node1023");
    const long grown = pmixpp_test::resident_kb() - before;
    cr_assert_eq(summary.job_size, 65536u);
    cr_assert_eq(summary.local_ranks.size(), kPerNode);
    cr_assert_eq(u32_at(*store, "big", PMIXPP_GDS_LEVEL_PROC, 65535, PMIX_LOCAL_RANK), 63u);
    cr_assert_eq(u32_at(*store, "big", PMIXPP_GDS_LEVEL_NODE, 1023, PMIX_LOCAL_SIZE), 64u);
    cr_assert_eq(str_at(*store, "big", PMIXPP_GDS_LEVEL_PROC, 65535, PMIX_HOSTNAME), "node1023");
    // About 1 KB per process at most (OpenPMIx keeps a similar amount).
    cr_assert_lt(grown, 65536L * kRssFactor, "registration grew the process by %ld KB", grown);
    cr_assert_eq(pmixpp::jobdata::deregister_nspace("big", *store), PMIX_SUCCESS);
}

Test(jobdata, malformed_info_is_refused_with_the_attribute_named)
{
    auto store = hash_store();
    pmixpp::jobdata::Options options;
    options.local_hostname = "n0";
    std::string error;
    Infos wrong_type = two_by_four();
    wrong_type.str(PMIX_JOB_SIZE, "eight");
    cr_assert_eq(pmixpp::jobdata::register_nspace("bad", 0, wrong_type.data(), wrong_type.size(), options, *store,
                                                  nullptr, &error),
                 PMIX_ERR_TYPE_MISMATCH);
    cr_assert(error.find("pmix.job.size") != std::string::npos, "message: %s", error.c_str());
    cr_assert_not(store->has_nspace("bad"));

    Infos no_rank;
    Infos proc;
    proc.str(PMIX_HOSTNAME, "n0");
    no_rank.nested(PMIX_PROC_INFO_ARRAY, proc);
    error.clear();
    cr_assert_eq(
        pmixpp::jobdata::register_nspace("bad", 0, no_rank.data(), no_rank.size(), options, *store, nullptr, &error),
        PMIX_ERR_BAD_PARAM);
    cr_assert(error.find("PMIX_RANK") != std::string::npos, "message: %s", error.c_str());

    Infos not_array;
    not_array.str(PMIX_NODE_INFO_ARRAY, "n0");
    cr_assert_eq(pmixpp::jobdata::register_nspace("bad", 0, not_array.data(), not_array.size(), options, *store,
                                                  nullptr, &error),
                 PMIX_ERR_TYPE_MISMATCH);

    Infos mismatch;
    mismatch.str(PMIX_NODE_MAP, "n0,n1").str(PMIX_PROC_MAP, "0;1;2");
    cr_assert_eq(
        pmixpp::jobdata::register_nspace("bad", 0, mismatch.data(), mismatch.size(), options, *store, nullptr, &error),
        PMIX_ERR_BAD_PARAM);
    cr_assert(error.find("PMIX_PROC_MAP") != std::string::npos, "message: %s", error.c_str());

    Infos too_big = two_by_four();
    too_big.u32(PMIX_JOB_SIZE, 4);
    cr_assert_eq(
        pmixpp::jobdata::register_nspace("bad", 0, too_big.data(), too_big.size(), options, *store, nullptr, &error),
        PMIX_ERR_BAD_PARAM);

    // Nesting without end is refused, not recursed into.
    Infos deep;
    deep.u32(PMIX_JOB_SIZE, 1);
    for (int i = 0; i < 20; ++i) {
        Infos outer;
        outer.nested(PMIX_JOB_INFO_ARRAY, deep);
        deep = std::move(outer);
    }
    cr_assert_eq(pmixpp::jobdata::register_nspace("bad", 0, deep.data(), deep.size(), options, *store, nullptr, &error),
                 PMIX_ERR_BAD_PARAM);
    cr_assert_not(store->has_nspace("bad"));
}

// Open MPI registers PMIX_LOCALITY_STRING as a string without text for a
// process it did not bind: that says nothing, it is not a malformed entry.
Test(jobdata, a_string_without_text_is_skipped)
{
    auto store = hash_store();
    Infos infos = two_by_four();
    Infos proc;
    proc.rank(PMIX_RANK, 0);
    proc.str(PMIX_LOCALITY_STRING, nullptr);
    cr_assert_eq(proc.data()[1].value.type, PMIX_STRING);
    cr_assert_null(proc.data()[1].value.data.string);
    infos.nested(PMIX_PROC_DATA, proc);
    register_ok(*store, "nulls", infos, "n0");
    cr_expect_not(has(*store, "nulls", PMIXPP_GDS_LEVEL_PROC, 0, PMIX_LOCALITY_STRING));
}
