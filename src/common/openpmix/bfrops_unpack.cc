// Unpacking OpenPMIx's layouts into the public PMIx structs. Every count is
// checked against the bytes left before anything is allocated from it, and
// containers nest at most buffer::kMaxUnpackDepth deep.
#include <hwloc.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "common/buffer/packer.h"
#include "common/openpmix/bfrops_codec.h"
#include "common/values/cpu_list.h"
#include "common/values/type_ops.h"
#include "common/values/type_table.h"

namespace pmixpp::openpmix::codec {

namespace {

template <typename T> T *slots_of(void *values)
{
    return static_cast<T *>(values);
}

class DepthGuard {
public:
    explicit DepthGuard(Source &source) : source_(source) { ++source_.depth; }
    ~DepthGuard() { --source_.depth; }
    DepthGuard(const DepthGuard &) = delete;
    DepthGuard &operator=(const DepthGuard &) = delete;
    bool too_deep() const { return source_.depth > buffer::kMaxUnpackDepth; }

private:
    Source &source_;
};

// A NULL-terminated argv of n strings.
pmix_status_t unpack_argv(Source &source, int64_t n, char ***argv_p, const char *what)
{
    if (n < 0) {
        return source.fail(PMIX_ERR_UNPACK_FAILURE, std::string(what) + ": negative count");
    }
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    if (pmix_status_t rc = source.check_count(static_cast<uint64_t>(n), 1, what); PMIX_SUCCESS != rc) {
        return rc;
    }
    auto **argv = static_cast<char **>(std::calloc(static_cast<size_t>(n) + 1, sizeof(char *)));
    if (nullptr == argv) {
        return source.fail(PMIX_ERR_NOMEM, std::string(what) + ": no memory");
    }
    *argv_p = argv;  // owned by the caller's element from here on
    for (int64_t i = 0; i < n; ++i) {
        char *s = nullptr;
        if (pmix_status_t rc = source.string(&s); PMIX_SUCCESS != rc) {
            return rc;
        }
        if (nullptr == s) {
            return source.fail(PMIX_ERR_UNPACK_FAILURE, std::string(what) + ": null string in a list");
        }
        argv[i] = s;
    }
    return PMIX_SUCCESS;
}

pmix_status_t unpack_bytes(Source &source, char **bytes_p, size_t *size_p, const char *what)
{
    size_t n = 0;
    if (pmix_status_t rc = source.size(&n); PMIX_SUCCESS != rc) {
        return rc;
    }
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    if (pmix_status_t rc = source.need(n, what); PMIX_SUCCESS != rc) {
        return rc;
    }
    auto *bytes = static_cast<char *>(std::malloc(n));
    if (nullptr == bytes) {
        return source.fail(PMIX_ERR_NOMEM, std::string(what) + ": no memory");
    }
    source.raw(bytes, n);
    *bytes_p = bytes;
    *size_p = n;
    return PMIX_SUCCESS;
}

pmix_status_t unpack_decimal(Source &source, double *v_p)
{
    char *text = nullptr;
    if (pmix_status_t rc = source.string(&text); PMIX_SUCCESS != rc) {
        return rc;
    }
    if (nullptr == text) {
        return source.fail(PMIX_ERR_UNPACK_FAILURE, "floating point: null string");
    }
    char *end = nullptr;
    *v_p = std::strtod(text, &end);
    const bool whole = (end != text && '\0' == *end);
    std::free(text);
    return whole ? PMIX_SUCCESS : source.fail(PMIX_ERR_UNPACK_FAILURE, "floating point: not a number");
}

pmix_status_t unpack_proc(Source &source, pmix_proc_t *proc)
{
    if (pmix_status_t rc = source.fixed_string(proc->nspace, sizeof(proc->nspace), "proc nspace"); PMIX_SUCCESS != rc) {
        return rc;
    }
    return source.uint32(&proc->rank);
}

pmix_status_t unpack_coord(Source &source, pmix_coord_t *coord)
{
    size_t dims = 0;
    pmix_status_t rc = source.u8(&coord->view);
    if (PMIX_SUCCESS == rc) {
        rc = source.size(&dims);
    }
    if (PMIX_SUCCESS == rc) {
        rc = source.check_count(dims, 1, "coord dims");
    }
    if (PMIX_SUCCESS != rc || 0 == dims) {
        return rc;
    }
    coord->coord = static_cast<uint32_t *>(std::calloc(dims, sizeof(uint32_t)));
    if (nullptr == coord->coord) {
        return source.fail(PMIX_ERR_NOMEM, "coord: no memory");
    }
    coord->dims = dims;
    for (size_t i = 0; i < dims && PMIX_SUCCESS == rc; ++i) {
        rc = source.uint32(&coord->coord[i]);
    }
    return rc;
}

pmix_status_t unpack_cpuset(Source &source, pmix_cpuset_t *cpuset)
{
    char *list = nullptr;
    if (pmix_status_t rc = source.string(&list); PMIX_SUCCESS != rc) {
        return rc;
    }
    cpuset->source = strdup("hwloc");
    if (nullptr == list) {
        return PMIX_SUCCESS;
    }
    // A peer's text: bounded before hwloc sizes a bitmap after it (cpu
    // 2000000000 alone would cost 250 MB), as common/buffer's codec does,
    // so whatever we take in our own peers can be sent.
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    const bool parsed =
        nullptr != bitmap && values::is_bounded_cpu_list(list) && 0 == hwloc_bitmap_list_sscanf(bitmap, list);
    std::free(list);
    cpuset->bitmap = bitmap;
    return parsed ? PMIX_SUCCESS
                  : source.fail(PMIX_ERR_UNPACK_FAILURE,
                                "cpuset: not a cpu list with cpus up to " + std::to_string(values::kMaxCpuIndex));
}

// See pack_regex: a preg form is a bare NUL-terminated text.
pmix_status_t unpack_regex(Source &source, pmix_byte_object_t *bo)
{
    const uint8_t *p = source.bytes.data() + source.offset;
    const size_t left = source.remaining();
    char *text = nullptr;
    if (left >= 4 && (0 == std::memcmp(p, "pmix", 4) || 0 == std::memcmp(p, "raw:", 4))) {
        const void *nul = std::memchr(p, 0, left);
        if (nullptr == nul) {
            return source.fail(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, "regex: no terminating NUL");
        }
        const size_t len = static_cast<size_t>(static_cast<const uint8_t *>(nul) - p);
        text = strndup(reinterpret_cast<const char *>(p), len);
        if (nullptr == text) {
            return source.fail(PMIX_ERR_NOMEM, "regex: no memory");
        }
        source.offset += len + 1;
    } else if (left >= 4 && 0 == std::memcmp(p, "blob", 4)) {
        return source.fail(PMIX_ERR_NOT_SUPPORTED, "regex: compressed (blob) regexes are not supported");
    } else if (pmix_status_t rc = source.string(&text); PMIX_SUCCESS != rc) {
        return rc;
    }
    bo->bytes = text;
    bo->size = (nullptr == text) ? 0 : std::strlen(text) + 1;
    return PMIX_SUCCESS;
}

pmix_status_t unpack_counted_infos(Source &source, size_t n, pmix_info_t **infos_p, size_t *n_p)
{
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    if (pmix_status_t rc = source.check_count(n, min_encoded_size(PMIX_INFO), "infos"); PMIX_SUCCESS != rc) {
        return rc;
    }
    auto *infos = static_cast<pmix_info_t *>(values::alloc_elements(PMIX_INFO, n));
    if (nullptr == infos) {
        return source.fail(PMIX_ERR_NOMEM, "infos: no memory");
    }
    if (pmix_status_t rc = unpack_values(source, PMIX_INFO, infos, n); PMIX_SUCCESS != rc) {
        std::free(infos);
        return rc;
    }
    *infos_p = infos;
    *n_p = n;
    return PMIX_SUCCESS;
}

pmix_status_t unpack_integers(Source &source, pmix_data_type_t type, void *dest, size_t n)
{
    pmix_data_type_t wire = type;
    switch (type) {
    case PMIX_STATUS: wire = PMIX_INT32; break;
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
    default: break;
    }
    for (size_t i = 0; i < n; ++i) {
        uint64_t v = 0;
        if (pmix_status_t rc = source.integer(wire, &v); PMIX_SUCCESS != rc) {
            return rc;
        }
        switch (wire) {
        case PMIX_INT16: slots_of<int16_t>(dest)[i] = static_cast<int16_t>(v); break;
        case PMIX_UINT16: slots_of<uint16_t>(dest)[i] = static_cast<uint16_t>(v); break;
        case PMIX_INT32: slots_of<int32_t>(dest)[i] = static_cast<int32_t>(v); break;
        case PMIX_UINT32: slots_of<uint32_t>(dest)[i] = static_cast<uint32_t>(v); break;
        case PMIX_INT64: slots_of<int64_t>(dest)[i] = static_cast<int64_t>(v); break;
        default: slots_of<uint64_t>(dest)[i] = v; break;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t unpack_scalars(Source &source, pmix_data_type_t type, void *dest, size_t n, bool *handled_p)
{
    *handled_p = true;
    switch (type) {
    case PMIX_BOOL:
        for (size_t i = 0; i < n; ++i) {
            uint8_t b = 0;
            if (pmix_status_t rc = source.u8(&b); PMIX_SUCCESS != rc) {
                return rc;
            }
            slots_of<bool>(dest)[i] = (0 != b);
        }
        return PMIX_SUCCESS;
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
    case PMIX_LINK_STATE: return source.raw(dest, n);
    case PMIX_SIZE:
    case PMIX_INT:
    case PMIX_UINT:
    case PMIX_PID: return source.system_group(type, dest, n);
    case PMIX_INT16:
    case PMIX_INT32:
    case PMIX_INT64:
    case PMIX_UINT16:
    case PMIX_UINT32:
    case PMIX_UINT64:
    case PMIX_STATUS:
    case PMIX_INFO_DIRECTIVES:
    case PMIX_PROC_RANK:
    case PMIX_DATA_TYPE:
    case PMIX_IOF_CHANNEL:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE:
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST: return unpack_integers(source, type, dest, n);
    case PMIX_FLOAT:
    case PMIX_DOUBLE:
        for (size_t i = 0; i < n; ++i) {
            double v = 0;
            if (pmix_status_t rc = unpack_decimal(source, &v); PMIX_SUCCESS != rc) {
                return rc;
            }
            if (PMIX_FLOAT == type) {
                slots_of<float>(dest)[i] = static_cast<float>(v);
            } else {
                slots_of<double>(dest)[i] = v;
            }
        }
        return PMIX_SUCCESS;
    case PMIX_TIMEVAL:
        for (size_t i = 0; i < n; ++i) {
            uint64_t sec = 0;
            uint64_t usec = 0;
            pmix_status_t rc = source.integer(PMIX_INT64, &sec);
            if (PMIX_SUCCESS == rc) {
                rc = source.integer(PMIX_INT64, &usec);
            }
            if (PMIX_SUCCESS != rc) {
                return rc;
            }
            slots_of<timeval>(dest)[i].tv_sec = static_cast<time_t>(sec);
            slots_of<timeval>(dest)[i].tv_usec = static_cast<suseconds_t>(usec);
        }
        return PMIX_SUCCESS;
    case PMIX_TIME:
        for (size_t i = 0; i < n; ++i) {
            uint64_t v = 0;
            if (pmix_status_t rc = source.uint64(&v); PMIX_SUCCESS != rc) {
                return rc;
            }
            slots_of<time_t>(dest)[i] = static_cast<time_t>(v);
        }
        return PMIX_SUCCESS;
    default: *handled_p = false; return PMIX_SUCCESS;
    }
}

pmix_status_t unpack_one(Source &source, pmix_data_type_t type, void *values, size_t i)
{
    switch (type) {
    case PMIX_STRING: return source.string(&slots_of<char *>(values)[i]);
    case PMIX_VALUE: return unpack_value(source, &slots_of<pmix_value_t>(values)[i]);
    case PMIX_PROC: return unpack_proc(source, &slots_of<pmix_proc_t>(values)[i]);
    case PMIX_INFO: {
        pmix_info_t &info = slots_of<pmix_info_t>(values)[i];
        pmix_status_t rc = source.fixed_string(info.key, sizeof(info.key), "info key");
        if (PMIX_SUCCESS == rc) {
            rc = source.uint32(&info.flags);
        }
        // The sender's "persistent" (someone else frees the data) described
        // the sender's memory. The value unpacked here belongs to the
        // receiver and PMIX_INFO_DESTRUCT must free it, so the flag never
        // survives the wire (as in common/buffer's unpack_info).
        info.flags &= ~static_cast<pmix_info_directives_t>(PMIX_INFO_PERSISTENT);
        return PMIX_SUCCESS == rc ? unpack_value(source, &info.value) : rc;
    }
    case PMIX_PDATA: {
        pmix_pdata_t &pd = slots_of<pmix_pdata_t>(values)[i];
        pmix_status_t rc = unpack_proc(source, &pd.proc);
        if (PMIX_SUCCESS == rc) {
            rc = source.fixed_string(pd.key, sizeof(pd.key), "pdata key");
        }
        return PMIX_SUCCESS == rc ? unpack_value(source, &pd.value) : rc;
    }
    case PMIX_APP: {
        pmix_app_t &app = slots_of<pmix_app_t>(values)[i];
        int argc = 0;
        int32_t envc = 0;
        size_t ninfo = 0;
        pmix_status_t rc = source.string(&app.cmd);
        if (PMIX_SUCCESS == rc) rc = source.int_(&argc);
        if (PMIX_SUCCESS == rc) rc = unpack_argv(source, argc, &app.argv, "app argv");
        if (PMIX_SUCCESS == rc) rc = source.int32(&envc);
        if (PMIX_SUCCESS == rc) rc = unpack_argv(source, envc, &app.env, "app env");
        if (PMIX_SUCCESS == rc) rc = source.string(&app.cwd);
        if (PMIX_SUCCESS == rc) rc = source.int_(&app.maxprocs);
        if (PMIX_SUCCESS == rc) rc = source.size(&ninfo);
        if (PMIX_SUCCESS == rc) rc = unpack_counted_infos(source, ninfo, &app.info, &app.ninfo);
        return rc;
    }
    case PMIX_QUERY: {
        pmix_query_t &q = slots_of<pmix_query_t>(values)[i];
        int32_t nkeys = 0;
        size_t nqual = 0;
        pmix_status_t rc = source.int32(&nkeys);
        if (PMIX_SUCCESS == rc) rc = unpack_argv(source, nkeys, &q.keys, "query keys");
        if (PMIX_SUCCESS == rc) rc = source.size(&nqual);
        if (PMIX_SUCCESS == rc) rc = unpack_counted_infos(source, nqual, &q.qualifiers, &q.nqual);
        return rc;
    }
    case PMIX_BUFFER:
    case PMIX_DATA_BUFFER: {
        pmix_data_buffer_t &buf = slots_of<pmix_data_buffer_t>(values)[i];
        uint8_t kind = 0;
        if (PMIX_BUFFER == type) {
            if (pmix_status_t rc = source.u8(&kind); PMIX_SUCCESS != rc) {
                return rc;
            }
        }
        size_t n = 0;
        pmix_status_t rc = unpack_bytes(source, &buf.base_ptr, &n, "buffer");
        buf.bytes_allocated = n;
        buf.bytes_used = n;
        buf.pack_ptr = buf.base_ptr + n;
        buf.unpack_ptr = buf.base_ptr;
        return rc;
    }
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT: {
        pmix_byte_object_t &bo = slots_of<pmix_byte_object_t>(values)[i];
        return unpack_bytes(source, &bo.bytes, &bo.size, "byte object");
    }
    case PMIX_PROC_INFO: {
        pmix_proc_info_t &pi = slots_of<pmix_proc_info_t>(values)[i];
        pmix_status_t rc = unpack_proc(source, &pi.proc);
        if (PMIX_SUCCESS == rc) rc = source.string(&pi.hostname);
        if (PMIX_SUCCESS == rc) rc = source.string(&pi.executable_name);
        if (PMIX_SUCCESS == rc) rc = source.pid(&pi.pid);
        if (PMIX_SUCCESS == rc) rc = source.u8(&pi.state);
        return rc;
    }
    case PMIX_DATA_ARRAY: {
        pmix_data_array_t &da = slots_of<pmix_data_array_t>(values)[i];
        size_t n = 0;
        pmix_status_t rc = source.tag(&da.type);
        if (PMIX_SUCCESS == rc) rc = source.size(&n);
        if (PMIX_SUCCESS != rc || 0 == n || PMIX_UNDEF == da.type) {
            return rc;
        }
        if (!type_supported(source.encoding.bfrops, da.type) || nullptr == values::find_element_type(da.type) ||
            PMIX_KVAL == da.type || PMIX_POINTER == da.type || PMIX_TOPO == da.type) {
            return source.fail(PMIX_ERR_UNKNOWN_DATA_TYPE, "data array of unknown type " + std::to_string(da.type));
        }
        if (rc = source.check_count(n, min_encoded_size(da.type), "data array"); PMIX_SUCCESS != rc) {
            return rc;
        }
        da.array = values::alloc_elements(da.type, n);
        if (nullptr == da.array) {
            return source.fail(PMIX_ERR_NOMEM, "data array: no memory");
        }
        rc = unpack_values(source, da.type, da.array, n);
        if (PMIX_SUCCESS != rc) {
            std::free(da.array);
            da.array = nullptr;
            return rc;
        }
        da.size = n;
        return PMIX_SUCCESS;
    }
    case PMIX_ENVAR: {
        pmix_envar_t &e = slots_of<pmix_envar_t>(values)[i];
        uint8_t sep = 0;
        pmix_status_t rc = source.string(&e.envar);
        if (PMIX_SUCCESS == rc) rc = source.string(&e.value);
        if (PMIX_SUCCESS == rc) rc = source.u8(&sep);
        e.separator = static_cast<char>(sep);
        return rc;
    }
    case PMIX_COORD: return unpack_coord(source, &slots_of<pmix_coord_t>(values)[i]);
    case PMIX_REGATTR: {
        pmix_regattr_t &ra = slots_of<pmix_regattr_t>(values)[i];
        int32_t nd = 0;
        pmix_status_t rc = source.string(&ra.name);
        if (PMIX_SUCCESS == rc) rc = source.fixed_string(ra.string, sizeof(ra.string), "regattr key");
        if (PMIX_SUCCESS == rc) rc = source.tag(&ra.type);
        if (PMIX_SUCCESS == rc) rc = source.int32(&nd);
        if (PMIX_SUCCESS == rc) rc = unpack_argv(source, nd, &ra.description, "regattr description");
        return rc;
    }
    case PMIX_REGEX: return unpack_regex(source, &slots_of<pmix_byte_object_t>(values)[i]);
    case PMIX_PROC_CPUSET: return unpack_cpuset(source, &slots_of<pmix_cpuset_t>(values)[i]);
    case PMIX_GEOMETRY: {
        pmix_geometry_t &g = slots_of<pmix_geometry_t>(values)[i];
        size_t ncoords = 0;
        pmix_status_t rc = source.size(&g.fabric);
        if (PMIX_SUCCESS == rc) rc = source.string(&g.uuid);
        if (PMIX_SUCCESS == rc) rc = source.string(&g.osname);
        if (PMIX_SUCCESS == rc) rc = source.size(&ncoords);
        if (PMIX_SUCCESS == rc) rc = source.check_count(ncoords, 2, "geometry coordinates");
        if (PMIX_SUCCESS != rc || 0 == ncoords) {
            return rc;
        }
        g.coordinates = static_cast<pmix_coord_t *>(values::alloc_elements(PMIX_COORD, ncoords));
        if (nullptr == g.coordinates) {
            return source.fail(PMIX_ERR_NOMEM, "geometry: no memory");
        }
        g.ncoords = ncoords;
        for (size_t c = 0; c < ncoords && PMIX_SUCCESS == rc; ++c) {
            rc = unpack_coord(source, &g.coordinates[c]);
        }
        return rc;
    }
    case PMIX_DEVICE_DIST: {
        pmix_device_distance_t &d = slots_of<pmix_device_distance_t>(values)[i];
        pmix_status_t rc = source.string(&d.uuid);
        if (PMIX_SUCCESS == rc) rc = source.string(&d.osname);
        if (PMIX_SUCCESS == rc) rc = source.uint64(&d.type);
        if (PMIX_SUCCESS == rc) rc = source.uint16(&d.mindist);
        if (PMIX_SUCCESS == rc) rc = source.uint16(&d.maxdist);
        return rc;
    }
    case PMIX_ENDPOINT: {
        pmix_endpoint_t &e = slots_of<pmix_endpoint_t>(values)[i];
        pmix_status_t rc = source.string(&e.uuid);
        if (PMIX_SUCCESS == rc) rc = source.string(&e.osname);
        if (PMIX_SUCCESS == rc) rc = unpack_bytes(source, &e.endpt.bytes, &e.endpt.size, "endpoint");
        return rc;
    }
    case PMIX_PROC_NSPACE:
        return source.fixed_string(slots_of<pmix_nspace_t>(values)[i], sizeof(pmix_nspace_t), "nspace");
    default: break;
    }
    return source.fail(PMIX_ERR_UNKNOWN_DATA_TYPE,
                       "type " + std::string(PMIx_Data_type_string(type)) + " cannot be unpacked from OpenPMIx");
}

bool refused_type(Bfrops bfrops, pmix_data_type_t type)
{
    return !type_supported(bfrops, type) || PMIX_KVAL == type || PMIX_POINTER == type || PMIX_TOPO == type;
}

}  // namespace

pmix_status_t unpack_values(Source &source, pmix_data_type_t type, void *dest, size_t n)
{
    if (refused_type(source.encoding.bfrops, type)) {
        return source.fail(PMIX_ERR_UNKNOWN_DATA_TYPE, "type " + std::string(PMIx_Data_type_string(type)) +
                                                           " is not unpacked from an OpenPMIx peer speaking " +
                                                           bfrops_name(source.encoding.bfrops));
    }
    DepthGuard guard(source);
    if (guard.too_deep()) {
        return source.fail(PMIX_ERR_UNPACK_FAILURE,
                           "containers nest deeper than " + std::to_string(buffer::kMaxUnpackDepth) + " levels");
    }
    // PMIX_BUFFER has no element ops of its own; its storage is a data buffer's.
    const pmix_data_type_t slot = (PMIX_BUFFER == type) ? PMIX_DATA_BUFFER : type;
    bool handled = false;
    pmix_status_t rc = unpack_scalars(source, type, dest, n, &handled);
    if (PMIX_SUCCESS != rc) {
        std::memset(dest, 0, n * values::element_size(slot));
        return rc;
    }
    if (handled) {
        return PMIX_SUCCESS;
    }
    for (size_t i = 0; i < n; ++i) {
        rc = unpack_one(source, type, dest, i);
        if (PMIX_SUCCESS != rc) {
            // element i may be partly filled: destruct it and those before
            const size_t width = values::element_size(slot);
            for (size_t j = 0; j <= i; ++j) {
                values::destruct_element(static_cast<char *>(dest) + j * width, slot);
            }
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t unpack_value(Source &source, pmix_value_t *value)
{
    pmix_data_type_t type = PMIX_UNDEF;
    if (pmix_status_t rc = source.tag(&type); PMIX_SUCCESS != rc) {
        return rc;
    }
    if (PMIX_UNDEF == type) {
        value->type = PMIX_UNDEF;
        return PMIX_SUCCESS;
    }
    if (PMIX_POINTER == type) {
        // A pointer means nothing in another process: OpenPMIx sends a
        // one-byte sentinel, and the value arrives as a NULL pointer.
        uint8_t sentinel = 0;
        pmix_status_t rc = source.u8(&sentinel);
        if (PMIX_SUCCESS == rc) {
            value->type = PMIX_POINTER;
            value->data.ptr = nullptr;
        }
        return rc;
    }
    const values::TypeTraits *traits = values::find_element_type(type);
    if (nullptr == traits || refused_type(source.encoding.bfrops, type) ||
        (values::ValueHolding::kInline != traits->holding && values::ValueHolding::kBoxed != traits->holding)) {
        return source.fail(PMIX_ERR_UNKNOWN_DATA_TYPE, "value of unknown type " + std::to_string(type));
    }
    if (values::ValueHolding::kInline == traits->holding) {
        pmix_status_t rc = unpack_values(source, type, &value->data, 1);
        if (PMIX_SUCCESS == rc) {
            value->type = type;
        }
        return rc;
    }
    void *box = values::alloc_elements(type, 1);
    if (nullptr == box) {
        return source.fail(PMIX_ERR_NOMEM, "value: no memory");
    }
    pmix_status_t rc = unpack_values(source, type, box, 1);
    if (PMIX_SUCCESS != rc) {
        std::free(box);
        return rc;
    }
    value->type = type;
    value->data.ptr = box;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::openpmix::codec
