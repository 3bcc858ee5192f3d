// Packing every type OpenPMIx's v3/v4/v41 modules carry, in their layouts
// (bfrops.h; docs/wire-protocol.md, OpenPMIx dialect).
#include <hwloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/openpmix/bfrops_codec.h"
#include "common/values/type_table.h"

namespace pmixpp::openpmix::codec {

namespace {

template <typename T> const T *elements_of(const void *values)
{
    return static_cast<const T *>(values);
}

size_t argv_count(char *const *argv)
{
    size_t n = 0;
    while (nullptr != argv && nullptr != argv[n]) {
        ++n;
    }
    return n;
}

void pack_strings(Sink &sink, char *const *strings, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        sink.string(strings[i]);
    }
}

void pack_bytes(Sink &sink, const void *bytes, size_t size)
{
    sink.size(size);
    sink.raw(bytes, size);
}

// OpenPMIx writes floating point as the text printf's "%f" makes of it.
void pack_decimal(Sink &sink, double v)
{
    char *text = nullptr;
    if (asprintf(&text, "%f", v) < 0) {
        text = nullptr;
    }
    sink.string(nullptr == text ? "0.000000" : text);
    std::free(text);
}

void pack_proc(Sink &sink, const pmix_proc_t &proc)
{
    sink.bounded_string(proc.nspace, PMIX_MAX_NSLEN);
    sink.uint32(proc.rank);
}

void pack_coord(Sink &sink, const pmix_coord_t &coord)
{
    sink.u8(coord.view);
    sink.size(coord.dims);
    for (size_t i = 0; i < coord.dims; ++i) {
        sink.uint32(coord.coord[i]);
    }
}

pmix_status_t pack_cpuset(Sink &sink, const pmix_cpuset_t &cpuset)
{
    if (nullptr != cpuset.source && 0 != strncasecmp(cpuset.source, "hwloc", 5)) {
        return sink.refuse(PMIX_ERR_NOT_SUPPORTED, std::string("cpuset from source ") + cpuset.source +
                                                       ": OpenPMIx carries only hwloc cpusets");
    }
    if (nullptr == cpuset.bitmap) {
        sink.string(nullptr);
        return PMIX_SUCCESS;
    }
    char *list = nullptr;
    if (hwloc_bitmap_list_asprintf(&list, static_cast<hwloc_const_bitmap_t>(cpuset.bitmap)) < 0) {
        return sink.refuse(PMIX_ERR_NOMEM, "cpuset: cannot print the bitmap");
    }
    sink.string(list);
    std::free(list);
    return PMIX_SUCCESS;
}

// A regex is held as a byte object whose bytes are a NUL-terminated text.
// OpenPMIx's preg components write their own forms bare, with the NUL and
// without a length ("pmix[...]", "raw:..."); anything else goes as STRING.
pmix_status_t pack_regex(Sink &sink, const pmix_byte_object_t &bo)
{
    if (nullptr == bo.bytes || 0 == bo.size) {
        sink.string(nullptr);
        return PMIX_SUCCESS;
    }
    const size_t len = strnlen(bo.bytes, bo.size);
    if (len == bo.size) {
        return sink.refuse(PMIX_ERR_BAD_PARAM, "regex: bytes are not NUL-terminated");
    }
    if (len >= 4 && 0 == std::strncmp(bo.bytes, "blob", 4)) {
        return sink.refuse(PMIX_ERR_NOT_SUPPORTED, "regex: compressed (blob) regexes are not supported");
    }
    if (len >= 4 && (0 == std::strncmp(bo.bytes, "pmix", 4) || 0 == std::strncmp(bo.bytes, "raw:", 4))) {
        sink.raw(bo.bytes, len + 1);
        return PMIX_SUCCESS;
    }
    sink.string(bo.bytes);
    return PMIX_SUCCESS;
}

// Types whose element is one fixed-size integer.
bool pack_enum(Sink &sink, pmix_data_type_t type, const void *values, size_t n)
{
    pmix_data_type_t wire = 0;
    switch (type) {
    case PMIX_INFO_DIRECTIVES:
    case PMIX_PROC_RANK: wire = PMIX_UINT32; break;
    case PMIX_DATA_TYPE:
    case PMIX_IOF_CHANNEL:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE: wire = PMIX_UINT16; break;
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST: wire = PMIX_UINT64; break;
    case PMIX_STATUS: wire = PMIX_INT32; break;
    default: return false;
    }
    for (size_t i = 0; i < n; ++i) {
        switch (wire) {
        case PMIX_UINT16: sink.integer(wire, elements_of<uint16_t>(values)[i]); break;
        case PMIX_UINT32: sink.integer(wire, elements_of<uint32_t>(values)[i]); break;
        case PMIX_UINT64: sink.integer(wire, elements_of<uint64_t>(values)[i]); break;
        default: sink.int32(elements_of<int32_t>(values)[i]); break;
        }
    }
    return true;
}

bool pack_scalar(Sink &sink, pmix_data_type_t type, const void *values, size_t n)
{
    switch (type) {
    case PMIX_BOOL:
        for (size_t i = 0; i < n; ++i) {
            sink.u8(elements_of<bool>(values)[i] ? 1 : 0);
        }
        return true;
    case PMIX_BYTE:
    case PMIX_INT8:
    case PMIX_UINT8:
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_COMMAND:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE: sink.raw(values, n); return true;
    case PMIX_INT16:
        for (size_t i = 0; i < n; ++i) {
            sink.integer(type, static_cast<uint64_t>(int64_t{elements_of<int16_t>(values)[i]}));
        }
        return true;
    case PMIX_INT32:
        for (size_t i = 0; i < n; ++i) {
            sink.int32(elements_of<int32_t>(values)[i]);
        }
        return true;
    case PMIX_INT64:
        for (size_t i = 0; i < n; ++i) {
            sink.integer(type, static_cast<uint64_t>(elements_of<int64_t>(values)[i]));
        }
        return true;
    case PMIX_UINT16: return pack_enum(sink, PMIX_DATA_TYPE, values, n);
    case PMIX_UINT32: return pack_enum(sink, PMIX_PROC_RANK, values, n);
    case PMIX_UINT64: return pack_enum(sink, PMIX_DEVTYPE, values, n);
    // The system types carry one width tag per group in the fixed encodings.
    case PMIX_SIZE:
        if (!sink.encoding.varints()) {
            sink.tag(PMIX_UINT64);
        }
        for (size_t i = 0; i < n; ++i) {
            sink.integer(PMIX_UINT64, elements_of<size_t>(values)[i]);
        }
        return true;
    case PMIX_INT:
        if (!sink.encoding.varints()) {
            sink.tag(PMIX_INT32);
        }
        for (size_t i = 0; i < n; ++i) {
            sink.int32(elements_of<int>(values)[i]);
        }
        return true;
    case PMIX_UINT:
        // OpenPMIx packs UINT exactly as INT: the same INT32 tag and width.
        if (!sink.encoding.varints()) {
            sink.tag(PMIX_INT32);
        }
        for (size_t i = 0; i < n; ++i) {
            sink.int32(static_cast<int32_t>(elements_of<unsigned>(values)[i]));
        }
        return true;
    case PMIX_PID:
        sink.tag(PMIX_UINT32);
        for (size_t i = 0; i < n; ++i) {
            sink.uint32(static_cast<uint32_t>(elements_of<pid_t>(values)[i]));
        }
        return true;
    case PMIX_FLOAT:
        for (size_t i = 0; i < n; ++i) {
            pack_decimal(sink, double{elements_of<float>(values)[i]});
        }
        return true;
    case PMIX_DOUBLE:
        for (size_t i = 0; i < n; ++i) {
            pack_decimal(sink, elements_of<double>(values)[i]);
        }
        return true;
    case PMIX_TIMEVAL:
        for (size_t i = 0; i < n; ++i) {
            sink.integer(PMIX_INT64, static_cast<uint64_t>(int64_t{elements_of<timeval>(values)[i].tv_sec}));
            sink.integer(PMIX_INT64, static_cast<uint64_t>(int64_t{elements_of<timeval>(values)[i].tv_usec}));
        }
        return true;
    case PMIX_TIME:
        for (size_t i = 0; i < n; ++i) {
            sink.integer(PMIX_UINT64, static_cast<uint64_t>(elements_of<time_t>(values)[i]));
        }
        return true;
    default: return pack_enum(sink, type, values, n);
    }
}

pmix_status_t pack_infos(Sink &sink, const pmix_info_t *infos, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        sink.bounded_string(infos[i].key, PMIX_MAX_KEYLEN + 1);
        sink.uint32(infos[i].flags);
        if (pmix_status_t rc = pack_value_payload(sink, infos[i].value); PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t pack_app(Sink &sink, const pmix_app_t &app)
{
    sink.string(app.cmd);
    const size_t argc = argv_count(app.argv);
    sink.int_(static_cast<int>(argc));
    pack_strings(sink, app.argv, argc);
    const size_t envc = argv_count(app.env);
    sink.int32(static_cast<int32_t>(envc));
    pack_strings(sink, app.env, envc);
    sink.string(app.cwd);
    sink.int_(app.maxprocs);
    sink.size(app.ninfo);
    return pack_infos(sink, app.info, app.ninfo);
}

pmix_status_t pack_query(Sink &sink, const pmix_query_t &query)
{
    const size_t nkeys = argv_count(query.keys);
    sink.int32(static_cast<int32_t>(nkeys));
    pack_strings(sink, query.keys, nkeys);
    sink.size(query.nqual);
    return pack_infos(sink, query.qualifiers, query.nqual);
}

pmix_status_t pack_one(Sink &sink, pmix_data_type_t type, const void *values, size_t i)
{
    switch (type) {
    case PMIX_STRING: sink.string(elements_of<char *>(values)[i]); return PMIX_SUCCESS;
    case PMIX_VALUE: return pack_value_payload(sink, elements_of<pmix_value_t>(values)[i]);
    case PMIX_PROC: pack_proc(sink, elements_of<pmix_proc_t>(values)[i]); return PMIX_SUCCESS;
    case PMIX_APP: return pack_app(sink, elements_of<pmix_app_t>(values)[i]);
    case PMIX_INFO: return pack_infos(sink, elements_of<pmix_info_t>(values) + i, 1);
    case PMIX_PDATA: {
        const pmix_pdata_t &pd = elements_of<pmix_pdata_t>(values)[i];
        pack_proc(sink, pd.proc);
        sink.bounded_string(pd.key, PMIX_MAX_KEYLEN + 1);
        return pack_value_payload(sink, pd.value);
    }
    case PMIX_BUFFER:
    case PMIX_DATA_BUFFER: {
        const pmix_data_buffer_t &buf = elements_of<pmix_data_buffer_t>(values)[i];
        if (PMIX_BUFFER == type) {
            sink.u8(static_cast<uint8_t>(sink.encoding.type));
        }
        pack_bytes(sink, buf.base_ptr, buf.bytes_used);
        return PMIX_SUCCESS;
    }
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT: {
        const pmix_byte_object_t &bo = elements_of<pmix_byte_object_t>(values)[i];
        pack_bytes(sink, bo.bytes, bo.size);
        return PMIX_SUCCESS;
    }
    case PMIX_PROC_INFO: {
        const pmix_proc_info_t &pi = elements_of<pmix_proc_info_t>(values)[i];
        pack_proc(sink, pi.proc);
        sink.string(pi.hostname);
        sink.string(pi.executable_name);
        pack_scalar(sink, PMIX_PID, &pi.pid, 1);
        sink.u8(pi.state);
        return PMIX_SUCCESS;
    }
    case PMIX_DATA_ARRAY: {
        const pmix_data_array_t &da = elements_of<pmix_data_array_t>(values)[i];
        sink.tag(da.type);
        sink.size(da.size);
        if (0 == da.size || PMIX_UNDEF == da.type) {
            return PMIX_SUCCESS;
        }
        return pack_values(sink, da.type, da.array, da.size);
    }
    case PMIX_QUERY: return pack_query(sink, elements_of<pmix_query_t>(values)[i]);
    case PMIX_ENVAR: {
        const pmix_envar_t &e = elements_of<pmix_envar_t>(values)[i];
        sink.string(e.envar);
        sink.string(e.value);
        sink.u8(static_cast<uint8_t>(e.separator));
        return PMIX_SUCCESS;
    }
    case PMIX_COORD: pack_coord(sink, elements_of<pmix_coord_t>(values)[i]); return PMIX_SUCCESS;
    case PMIX_REGATTR: {
        const pmix_regattr_t &ra = elements_of<pmix_regattr_t>(values)[i];
        sink.string(ra.name);
        sink.bounded_string(ra.string, PMIX_MAX_KEYLEN + 1);
        sink.tag(ra.type);
        const size_t nd = argv_count(ra.description);
        sink.int32(static_cast<int32_t>(nd));
        pack_strings(sink, ra.description, nd);
        return PMIX_SUCCESS;
    }
    case PMIX_REGEX: return pack_regex(sink, elements_of<pmix_byte_object_t>(values)[i]);
    case PMIX_PROC_CPUSET: return pack_cpuset(sink, elements_of<pmix_cpuset_t>(values)[i]);
    case PMIX_GEOMETRY: {
        const pmix_geometry_t &g = elements_of<pmix_geometry_t>(values)[i];
        sink.size(g.fabric);
        sink.string(g.uuid);
        sink.string(g.osname);
        sink.size(g.ncoords);
        for (size_t c = 0; c < g.ncoords; ++c) {
            pack_coord(sink, g.coordinates[c]);
        }
        return PMIX_SUCCESS;
    }
    case PMIX_DEVICE_DIST: {
        const pmix_device_distance_t &d = elements_of<pmix_device_distance_t>(values)[i];
        sink.string(d.uuid);
        sink.string(d.osname);
        sink.integer(PMIX_UINT64, d.type);
        sink.integer(PMIX_UINT16, d.mindist);
        sink.integer(PMIX_UINT16, d.maxdist);
        return PMIX_SUCCESS;
    }
    case PMIX_ENDPOINT: {
        const pmix_endpoint_t &e = elements_of<pmix_endpoint_t>(values)[i];
        sink.string(e.uuid);
        sink.string(e.osname);
        pack_bytes(sink, e.endpt.bytes, e.endpt.size);
        return PMIX_SUCCESS;
    }
    case PMIX_PROC_NSPACE:
        sink.bounded_string(elements_of<pmix_nspace_t>(values)[i], PMIX_MAX_NSLEN);
        return PMIX_SUCCESS;
    default: break;
    }
    return sink.refuse(PMIX_ERR_UNKNOWN_DATA_TYPE,
                       "type " + std::string(PMIx_Data_type_string(type)) + " cannot be packed for OpenPMIx");
}

}  // namespace

pmix_status_t pack_values(Sink &sink, pmix_data_type_t type, const void *values, size_t n)
{
    if (!type_supported(sink.encoding.bfrops, type) || PMIX_KVAL == type || PMIX_POINTER == type || PMIX_TOPO == type) {
        return sink.refuse(PMIX_ERR_UNKNOWN_DATA_TYPE, "type " + std::string(PMIx_Data_type_string(type)) +
                                                           " is not packed for an OpenPMIx peer speaking " +
                                                           bfrops_name(sink.encoding.bfrops));
    }
    if (n > 0 && nullptr == values) {
        return sink.refuse(PMIX_ERR_BAD_PARAM, "no values to pack");
    }
    if (pack_scalar(sink, type, values, n)) {
        return PMIX_SUCCESS;
    }
    for (size_t i = 0; i < n; ++i) {
        if (pmix_status_t rc = pack_one(sink, type, values, i); PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t pack_value_payload(Sink &sink, const pmix_value_t &value)
{
    pmix_value_t older{};
    if (!type_supported(sink.encoding.bfrops, value.type) && older_equivalent(sink.encoding.bfrops, value, &older)) {
        return pack_value_payload(sink, older);
    }
    sink.tag(value.type);
    if (PMIX_UNDEF == value.type) {
        return PMIX_SUCCESS;
    }
    if (PMIX_POINTER == value.type) {
        sink.u8(1);  // the sentinel OpenPMIx sends in place of a pointer
        return PMIX_SUCCESS;
    }
    const values::TypeTraits *traits = values::find_element_type(value.type);
    if (nullptr == traits || values::ValueHolding::kNotHeld == traits->holding) {
        return sink.refuse(PMIX_ERR_UNKNOWN_DATA_TYPE,
                           "a value of type " + std::string(PMIx_Data_type_string(value.type)) + " cannot be packed");
    }
    const void *payload = values::value_payload(const_cast<pmix_value_t *>(&value), nullptr);
    if (nullptr == payload) {
        return sink.refuse(PMIX_ERR_BAD_PARAM,
                           "a value of type " + std::string(PMIx_Data_type_string(value.type)) + " holds no data");
    }
    return pack_values(sink, value.type, payload, 1);
}

}  // namespace pmixpp::openpmix::codec
