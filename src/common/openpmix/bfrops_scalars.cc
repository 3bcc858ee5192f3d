// Integers, strings and type tags of OpenPMIx's encodings: the flex128
// varints of v4/v41 and the fixed-width big-endian integers of v3 and older.
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "common/openpmix/bfrops_codec.h"

namespace pmixpp::openpmix::codec {

namespace {

// flex128 stores 7 bits per byte for eight bytes; a ninth byte carries the
// last 8 bits of a 64-bit value whole.
constexpr unsigned kFlexMaxBytes = 9;
constexpr unsigned kFlexGroupedBytes = 8;

unsigned integer_width(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_INT16:
    case PMIX_UINT16: return 2;
    case PMIX_INT32:
    case PMIX_UINT32: return 4;
    case PMIX_INT64:
    case PMIX_UINT64: return 8;
    default: return 0;
    }
}

bool integer_signed(pmix_data_type_t type)
{
    return PMIX_INT16 == type || PMIX_INT32 == type || PMIX_INT64 == type;
}

// The widths a peer of another word size may have tagged a system type with.
bool tag_is_integer(pmix_data_type_t type)
{
    return PMIX_INT8 == type || PMIX_UINT8 == type || 0 != integer_width(type);
}

}  // namespace

bool type_supported(Bfrops bfrops, pmix_data_type_t type)
{
    // Deprecated or internal types no module packs for a peer.
    if (0 == type || 29 == type || 44 == type || type > PMIX_STOR_ACCESS_TYPE) {
        return false;
    }
    switch (bfrops) {
    case Bfrops::v41: return true;
    case Bfrops::v4: return type <= PMIX_COMPRESSED_BYTE_OBJECT;
    default: return type <= PMIX_ENVAR;
    }
}

bool older_equivalent(Bfrops bfrops, const pmix_value_t &value, pmix_value_t *older_p)
{
    pmix_value_t older{};
    switch (value.type) {
    case PMIX_REGEX: {
        // pmix[...] and raw: regexes are text; a compressed one is not.
        const pmix_byte_object_t &bo = value.data.bo;
        if (nullptr == bo.bytes || 0 == bo.size || strnlen(bo.bytes, bo.size) == bo.size) return false;
        if (bo.size >= 4 && 0 == std::strncmp(bo.bytes, "blob", 4)) return false;
        older.type = PMIX_STRING;
        older.data.string = bo.bytes;
        break;
    }
    case PMIX_PROC_NSPACE:
        if (nullptr == value.data.nspace) return false;
        older.type = PMIX_STRING;
        older.data.string = *value.data.nspace;
        break;
    case PMIX_LOCTYPE:
        older.type = PMIX_UINT16;
        older.data.uint16 = value.data.locality;
        break;
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
        older.type = PMIX_UINT8;
        older.data.uint8 = PMIX_JOB_STATE == value.type ? value.data.jstate : value.data.linkstate;
        break;
    default: return false;
    }
    if (!type_supported(bfrops, older.type)) return false;
    *older_p = older;
    return true;
}

size_t min_encoded_size(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_INFO: return 3;  // key, directives, type tag
    case PMIX_PDATA: return 4;
    case PMIX_APP: return 6;  // cmd, argc, envc, cwd, maxprocs, ninfo: one byte each in v41
    case PMIX_PROC:
    case PMIX_QUERY:
    case PMIX_ENVAR:
    case PMIX_DATA_ARRAY:
    case PMIX_TIMEVAL: return 2;
    default: return 1;
    }
}

void Sink::raw(const void *bytes, size_t size)
{
    if (0 == size) {
        return;
    }
    const auto *p = static_cast<const uint8_t *>(bytes);
    out.insert(out.end(), p, p + size);
}

void Sink::integer(pmix_data_type_t type, uint64_t bits)
{
    const unsigned width = integer_width(type);
    if (!encoding.varints()) {
        for (unsigned i = width; i > 0; --i) {
            out.push_back(static_cast<uint8_t>(bits >> (8 * (i - 1))));
        }
        return;
    }
    uint64_t v = bits;
    if (width < 8) {
        v &= (uint64_t{1} << (8 * width)) - 1;
    }
    if (integer_signed(type)) {
        // zig-zag over the sign-extended 64-bit value
        const auto s = static_cast<int64_t>(bits);
        v = (s < 0) ? ((~bits) << 1) | 1 : bits << 1;
    }
    unsigned n = 0;
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        if (0 != v) {
            byte |= 0x80;
        }
        out.push_back(byte);
        ++n;
    } while (0 != v && n < kFlexGroupedBytes);
    if (0 != v) {
        out.push_back(static_cast<uint8_t>(v));
    }
}

void Sink::size(size_t v)
{
    if (!encoding.varints()) {
        tag(PMIX_UINT64);
    }
    integer(PMIX_UINT64, v);
}

void Sink::int_(int v)
{
    if (!encoding.varints()) {
        tag(PMIX_INT32);
    }
    int32(v);
}

void Sink::string(const char *s)
{
    if (nullptr == s) {
        int32(0);
        return;
    }
    bounded_string(s, std::numeric_limits<int32_t>::max() - 1);
}

void Sink::bounded_string(const char *s, size_t limit)
{
    const size_t len = strnlen(s, limit);
    int32(static_cast<int32_t>(len + 1));
    raw(s, len);
    out.push_back(0);
}

pmix_status_t Sink::refuse(pmix_status_t status, std::string why)
{
    reason = std::move(why);
    return status;
}

pmix_status_t Source::fail(pmix_status_t status, std::string why)
{
    if (reason.empty()) {
        reason = std::move(why);
    }
    return status;
}

pmix_status_t Source::need(size_t n, const char *what)
{
    if (n > remaining()) {
        return fail(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, std::string(what) + ": needs " + std::to_string(n) +
                                                                 " bytes, " + std::to_string(remaining()) + " left");
    }
    return PMIX_SUCCESS;
}

pmix_status_t Source::u8(uint8_t *v_p)
{
    return raw(v_p, 1);
}

pmix_status_t Source::raw(void *dest, size_t size)
{
    if (pmix_status_t rc = need(size, "bytes"); PMIX_SUCCESS != rc) {
        return rc;
    }
    if (0 != size) {
        std::memcpy(dest, bytes.data() + offset, size);
    }
    offset += size;
    return PMIX_SUCCESS;
}

pmix_status_t Source::integer(pmix_data_type_t type, uint64_t *bits_p)
{
    const unsigned width = integer_width(type);
    uint64_t v = 0;
    if (!encoding.varints()) {
        if (pmix_status_t rc = need(width, "integer"); PMIX_SUCCESS != rc) {
            return rc;
        }
        for (unsigned i = 0; i < width; ++i) {
            v = (v << 8) | bytes[offset + i];
        }
        offset += width;
        if (integer_signed(type) && width < 8 && 0 != (v >> (8 * width - 1))) {
            v |= ~((uint64_t{1} << (8 * width)) - 1);
        }
        *bits_p = v;
        return PMIX_SUCCESS;
    }
    unsigned n = 0;
    unsigned shift = 0;
    bool more = true;
    while (more) {
        if (n == remaining()) {
            return fail(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, "varint: truncated");
        }
        const uint8_t byte = bytes[offset + n];
        ++n;
        if (n == kFlexMaxBytes) {
            v |= uint64_t{byte} << shift;
            more = false;
        } else {
            v |= uint64_t{byte & 0x7fU} << shift;
            shift += 7;
            more = 0 != (byte & 0x80);
        }
    }
    if (width < 8 && 0 != (v >> (8 * width))) {
        return fail(PMIX_ERR_UNPACK_FAILURE, "varint: value wider than its type");
    }
    offset += n;
    if (integer_signed(type)) {
        v = (0 != (v & 1)) ? ~(v >> 1) : v >> 1;
        if (width < 8) {
            // sign-extend from the type's width
            const unsigned unused = 64 - 8 * width;
            v = static_cast<uint64_t>(static_cast<int64_t>(v << unused) >> unused);
        }
    }
    *bits_p = v;
    return PMIX_SUCCESS;
}

pmix_status_t Source::tag(pmix_data_type_t *type_p)
{
    uint64_t v = 0;
    pmix_status_t rc = integer(PMIX_UINT16, &v);
    if (PMIX_SUCCESS == rc) {
        *type_p = static_cast<pmix_data_type_t>(v);
    }
    return rc;
}

pmix_status_t Source::int32(int32_t *v_p)
{
    uint64_t v = 0;
    pmix_status_t rc = integer(PMIX_INT32, &v);
    if (PMIX_SUCCESS == rc) {
        *v_p = static_cast<int32_t>(v);
    }
    return rc;
}

pmix_status_t Source::uint32(uint32_t *v_p)
{
    uint64_t v = 0;
    pmix_status_t rc = integer(PMIX_UINT32, &v);
    if (PMIX_SUCCESS == rc) {
        *v_p = static_cast<uint32_t>(v);
    }
    return rc;
}

pmix_status_t Source::uint16(uint16_t *v_p)
{
    uint64_t v = 0;
    pmix_status_t rc = integer(PMIX_UINT16, &v);
    if (PMIX_SUCCESS == rc) {
        *v_p = static_cast<uint16_t>(v);
    }
    return rc;
}

pmix_status_t Source::uint64(uint64_t *v_p)
{
    return integer(PMIX_UINT64, v_p);
}

pmix_status_t Source::system_group(pmix_data_type_t type, void *dest, size_t n)
{
    // UINT travels as INT does (INT32); PID is always tagged.
    pmix_data_type_t wire = (PMIX_SIZE == type) ? PMIX_UINT64 : (PMIX_PID == type ? PMIX_UINT32 : PMIX_INT32);
    if (PMIX_PID == type || !encoding.varints()) {
        if (pmix_status_t rc = tag(&wire); PMIX_SUCCESS != rc) {
            return rc;
        }
        if (!tag_is_integer(wire)) {
            return fail(PMIX_ERR_UNPACK_FAILURE, "integer tagged with type " + std::to_string(wire));
        }
    }
    for (size_t i = 0; i < n; ++i) {
        uint64_t v = 0;
        if (PMIX_INT8 == wire || PMIX_UINT8 == wire) {
            uint8_t b = 0;
            if (pmix_status_t rc = u8(&b); PMIX_SUCCESS != rc) {
                return rc;
            }
            v = (PMIX_INT8 == wire) ? static_cast<uint64_t>(int64_t{static_cast<int8_t>(b)}) : b;
        } else if (pmix_status_t rc = integer(wire, &v); PMIX_SUCCESS != rc) {
            return rc;
        }
        const bool negative = (PMIX_INT8 == wire || integer_signed(wire)) && static_cast<int64_t>(v) < 0;
        switch (type) {
        case PMIX_SIZE:
            if (negative) {
                return fail(PMIX_ERR_UNPACK_FAILURE, "negative size");
            }
            static_cast<size_t *>(dest)[i] = static_cast<size_t>(v);
            break;
        case PMIX_INT: {
            const auto s = static_cast<int64_t>(v);
            if ((!negative && v > uint64_t{std::numeric_limits<int>::max()}) || s < std::numeric_limits<int>::min()) {
                return fail(PMIX_ERR_UNPACK_FAILURE, "int out of range");
            }
            static_cast<int *>(dest)[i] = static_cast<int>(s);
            break;
        }
        case PMIX_PID: static_cast<pid_t *>(dest)[i] = static_cast<pid_t>(v); break;
        default: static_cast<unsigned *>(dest)[i] = static_cast<unsigned>(v); break;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t Source::size(size_t *v_p)
{
    return system_group(PMIX_SIZE, v_p, 1);
}

pmix_status_t Source::int_(int *v_p)
{
    return system_group(PMIX_INT, v_p, 1);
}

pmix_status_t Source::pid(pid_t *v_p)
{
    return system_group(PMIX_PID, v_p, 1);
}

pmix_status_t Source::string(char **s_p)
{
    int32_t len = 0;
    if (pmix_status_t rc = int32(&len); PMIX_SUCCESS != rc) {
        return rc;
    }
    if (len < 0) {
        return fail(PMIX_ERR_UNPACK_FAILURE, "string: negative length");
    }
    if (0 == len) {
        *s_p = nullptr;
        return PMIX_SUCCESS;
    }
    const auto n = static_cast<size_t>(len);
    if (pmix_status_t rc = need(n, "string"); PMIX_SUCCESS != rc) {
        return rc;
    }
    const uint8_t *p = bytes.data() + offset;
    if (0 != p[n - 1]) {
        return fail(PMIX_ERR_UNPACK_FAILURE, "string: not NUL-terminated");
    }
    auto *s = static_cast<char *>(std::malloc(n));
    if (nullptr == s) {
        return fail(PMIX_ERR_NOMEM, "string: no memory");
    }
    std::memcpy(s, p, n);
    offset += n;
    *s_p = s;
    return PMIX_SUCCESS;
}

pmix_status_t Source::fixed_string(char *dest, size_t capacity, const char *what)
{
    char *s = nullptr;
    if (pmix_status_t rc = string(&s); PMIX_SUCCESS != rc) {
        return rc;
    }
    if (nullptr == s) {
        return fail(PMIX_ERR_UNPACK_FAILURE, std::string(what) + ": null string");
    }
    const size_t len = std::strlen(s);
    if (len >= capacity) {
        std::free(s);
        return fail(PMIX_ERR_UNPACK_FAILURE, std::string(what) + ": longer than " + std::to_string(capacity - 1));
    }
    std::memcpy(dest, s, len + 1);
    std::free(s);
    return PMIX_SUCCESS;
}

pmix_status_t Source::check_count(uint64_t n, size_t min_bytes, const char *what)
{
    if (n > remaining() / min_bytes) {
        return fail(PMIX_ERR_UNPACK_INADEQUATE_SPACE, std::string(what) + ": count " + std::to_string(n) +
                                                          " exceeds the " + std::to_string(remaining()) +
                                                          " bytes left");
    }
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::openpmix::codec
