// PACK calls whose bytes the real OpenPMIx library (golden_gen.cc, built
// against Debian's headers) and our Writer (test_golden_real.cc, built
// against ours) must agree on. Plain struct fields only: the two header sets
// share the ABI, not the helper macros.
#ifndef PMIXPP_TESTS_OPENPMIX_GOLDEN_CASES_H
#define PMIXPP_TESTS_OPENPMIX_GOLDEN_CASES_H

#include <sys/time.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace golden {

inline void set_proc(pmix_proc_t *p, const char *ns, pmix_rank_t rank)
{
    std::memset(p, 0, sizeof *p);
    std::strncpy(p->nspace, ns, PMIX_MAX_NSLEN);
    p->rank = rank;
}

inline void set_info_u32(pmix_info_t *info, const char *key, uint32_t v)
{
    std::memset(info, 0, sizeof *info);
    std::strncpy(info->key, key, PMIX_MAX_KEYLEN);
    info->value.type = PMIX_UINT32;
    info->value.data.uint32 = v;
}

inline void set_info_str(pmix_info_t *info, const char *key, char *s)
{
    std::memset(info, 0, sizeof *info);
    std::strncpy(info->key, key, PMIX_MAX_KEYLEN);
    info->value.type = PMIX_STRING;
    info->value.data.string = s;
}

// Calls pack(name, type, values, n) once per case.
template <typename Pack> void run_cases(Pack &&pack)
{
    static char s_hello[] = "hello";
    static char s_host[] = "node01";
    static char s_exe[] = "/bin/app";
    static char s_arg1[] = "-v";
    static char s_env1[] = "A=1";
    static char s_key1[] = "pmix.hname";
    static char s_uuid[] = "uuid-1";
    static char s_os[] = "mlx5_0";
    static char s_desc[] = "what it is";
    static char s_bytes[] = "\x01\x02\x03\xff";

    char *str = s_hello;
    pack("string", PMIX_STRING, &str, 1);
    char *null_str = nullptr;
    pack("null_string", PMIX_STRING, &null_str, 1);
    bool flags[2] = {true, false};
    pack("bool", PMIX_BOOL, flags, 2);
    size_t sizes[2] = {0, 123456789012ULL};
    pack("size", PMIX_SIZE, sizes, 2);
    int ints[2] = {-5, 70000};
    pack("int", PMIX_INT, ints, 2);
    unsigned uints[1] = {4000000000U};
    pack("uint", PMIX_UINT, uints, 1);
    pid_t pids[2] = {1234, 99999};
    pack("pid", PMIX_PID, pids, 2);
    int8_t i8 = -3;
    pack("int8", PMIX_INT8, &i8, 1);
    int16_t i16[2] = {-300, 300};
    pack("int16", PMIX_INT16, i16, 2);
    int32_t i32[3] = {-1, INT32_MIN, INT32_MAX};
    pack("int32", PMIX_INT32, i32, 3);
    int64_t i64[2] = {INT64_MIN, 1LL << 40};
    pack("int64", PMIX_INT64, i64, 2);
    uint16_t u16 = 65535;
    pack("uint16", PMIX_UINT16, &u16, 1);
    uint32_t u32 = PMIX_RANK_WILDCARD;
    pack("uint32", PMIX_UINT32, &u32, 1);
    uint64_t u64[2] = {UINT64_MAX, 1ULL << 56};
    pack("uint64", PMIX_UINT64, u64, 2);
    float f = 1.25f;
    pack("float", PMIX_FLOAT, &f, 1);
    double d = -1234.5678;
    pack("double", PMIX_DOUBLE, &d, 1);
    struct timeval tv = {1700000000, 123456};
    pack("timeval", PMIX_TIMEVAL, &tv, 1);
    time_t t = 1700000000;
    pack("time", PMIX_TIME, &t, 1);
    pmix_status_t st[2] = {PMIX_SUCCESS, PMIX_ERR_NOT_FOUND};
    pack("status", PMIX_STATUS, st, 2);
    pmix_proc_t procs[2];
    set_proc(&procs[0], "probe.ns", PMIX_RANK_WILDCARD);
    set_proc(&procs[1], "other", 7);
    pack("proc", PMIX_PROC, procs, 2);
    pmix_rank_t rank = 3;
    pack("rank", PMIX_PROC_RANK, &rank, 1);
    pmix_byte_object_t bo = {s_bytes, 4};
    pack("byte_object", PMIX_BYTE_OBJECT, &bo, 1);
    uint8_t small[4] = {PMIX_REMOTE, PMIX_RANGE_SESSION, PMIX_PERSIST_SESSION, 5};
    pack("scope", PMIX_SCOPE, &small[0], 1);
    pack("range", PMIX_DATA_RANGE, &small[1], 1);
    pack("persist", PMIX_PERSIST, &small[2], 1);
    pack("command", PMIX_COMMAND, &small[3], 1);
    pmix_info_directives_t dir = PMIX_INFO_REQD;
    pack("directives", PMIX_INFO_DIRECTIVES, &dir, 1);
    pmix_data_type_t dt = PMIX_INFO;
    pack("data_type", PMIX_DATA_TYPE, &dt, 1);

    pmix_info_t infos[3];
    set_info_u32(&infos[0], "pmix.job.size", 4);
    set_info_str(&infos[1], "pmix.hname", s_host);
    std::memset(&infos[2], 0, sizeof infos[2]);
    std::strncpy(infos[2].key, "pmix.proc", PMIX_MAX_KEYLEN);
    infos[2].flags = PMIX_INFO_REQD;
    infos[2].value.type = PMIX_PROC;
    infos[2].value.data.proc = &procs[1];
    pack("info", PMIX_INFO, infos, 3);

    pmix_data_array_t darray = {PMIX_INFO, 2, infos};
    pmix_value_t vals[3];
    std::memset(vals, 0, sizeof vals);
    vals[0].type = PMIX_DATA_ARRAY;
    vals[0].data.darray = &darray;
    vals[1].type = PMIX_SIZE;
    vals[1].data.size = 42;
    vals[2].type = PMIX_BYTE_OBJECT;
    vals[2].data.bo = bo;
    pack("value", PMIX_VALUE, vals, 3);
    pack("data_array", PMIX_DATA_ARRAY, &darray, 1);

    pmix_pdata_t pd;
    std::memset(&pd, 0, sizeof pd);
    set_proc(&pd.proc, "probe.ns", 1);
    std::strncpy(pd.key, "pub.key", PMIX_MAX_KEYLEN);
    pd.value.type = PMIX_STRING;
    pd.value.data.string = s_hello;
    pack("pdata", PMIX_PDATA, &pd, 1);

    char *argv[] = {s_exe, s_arg1, nullptr};
    char *env[] = {s_env1, nullptr};
    pmix_app_t app;
    std::memset(&app, 0, sizeof app);
    app.cmd = s_exe;
    app.argv = argv;
    app.env = env;
    app.cwd = nullptr;
    app.maxprocs = 2;
    app.info = infos;
    app.ninfo = 1;
    pack("app", PMIX_APP, &app, 1);

    char *keys[] = {s_key1, nullptr};
    pmix_query_t q;
    std::memset(&q, 0, sizeof q);
    q.keys = keys;
    q.qualifiers = infos;
    q.nqual = 2;
    pack("query", PMIX_QUERY, &q, 1);

    pmix_proc_info_t pi;
    std::memset(&pi, 0, sizeof pi);
    set_proc(&pi.proc, "probe.ns", 0);
    pi.hostname = s_host;
    pi.executable_name = s_exe;
    pi.pid = 4321;
    pi.state = PMIX_PROC_STATE_RUNNING;
    pack("proc_info", PMIX_PROC_INFO, &pi, 1);

    pmix_envar_t ev = {s_env1, s_hello, ':'};
    pack("envar", PMIX_ENVAR, &ev, 1);
    uint8_t alloc_dir = PMIX_ALLOC_EXTEND;
    pack("alloc_directive", PMIX_ALLOC_DIRECTIVE, &alloc_dir, 1);
    pmix_iof_channel_t ch = PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL;
    pack("iof_channel", PMIX_IOF_CHANNEL, &ch, 1);

    uint32_t coords[3] = {1, 2, 300};
    pmix_coord_t coord = {PMIX_COORD_LOGICAL_VIEW, coords, 3};
    pack("coord", PMIX_COORD, &coord, 1);
    char *desc[] = {s_desc, nullptr};
    pmix_regattr_t ra;
    std::memset(&ra, 0, sizeof ra);
    ra.name = s_key1;
    std::strncpy(ra.string, "pmix.hname", PMIX_MAX_KEYLEN);
    ra.type = PMIX_STRING;
    ra.description = desc;
    pack("regattr", PMIX_REGATTR, &ra, 1);
    uint8_t js = PMIX_JOB_STATE_RUNNING;
    pack("job_state", PMIX_JOB_STATE, &js, 1);
    uint8_t ls = PMIX_LINK_UP;
    pack("link_state", PMIX_LINK_STATE, &ls, 1);
    pmix_geometry_t geo = {7, s_uuid, s_os, &coord, 1};
    pack("geometry", PMIX_GEOMETRY, &geo, 1);
    pmix_device_distance_t dd = {s_uuid, s_os, PMIX_DEVTYPE_NETWORK, 10, 20};
    pack("device_dist", PMIX_DEVICE_DIST, &dd, 1);
    pmix_endpoint_t ep = {s_uuid, s_os, bo};
    pack("endpoint", PMIX_ENDPOINT, &ep, 1);
    pmix_device_type_t devtype = PMIX_DEVTYPE_GPU;
    pack("devtype", PMIX_DEVTYPE, &devtype, 1);
    pmix_locality_t loc = PMIX_LOCALITY_SHARE_NODE;
    pack("loctype", PMIX_LOCTYPE, &loc, 1);
    pack("compressed_string", PMIX_COMPRESSED_STRING, &bo, 1);
    pack("compressed_byte_object", PMIX_COMPRESSED_BYTE_OBJECT, &bo, 1);
    pmix_nspace_t ns;
    std::memset(ns, 0, sizeof ns);
    std::strncpy(ns, "probe.ns", PMIX_MAX_NSLEN);
    pack("proc_nspace", PMIX_PROC_NSPACE, &ns, 1);
    pmix_data_buffer_t dbuf;
    std::memset(&dbuf, 0, sizeof dbuf);
    dbuf.base_ptr = s_bytes;
    dbuf.bytes_used = 4;
    dbuf.bytes_allocated = 4;
    pack("data_buffer", PMIX_DATA_BUFFER, &dbuf, 1);
    pmix_value_t rv;
    std::memset(&rv, 0, sizeof rv);
    rv.type = PMIX_PROC_NSPACE;
    rv.data.nspace = &ns;
    pack("value_nspace", PMIX_VALUE, &rv, 1);
}

}  // namespace golden

#endif
