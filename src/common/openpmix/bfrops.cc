// PACK calls of OpenPMIx's buffers: the count (and in fully described
// buffers the type tags) around the values that bfrops_pack.cc and
// bfrops_unpack.cc encode.
#include "common/openpmix/bfrops.h"

#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/openpmix/bfrops_codec.h"
#include "common/values/type_ops.h"

namespace pmixpp::openpmix {

namespace {

struct BfropsName {
    Bfrops bfrops;
    const char *name;
};

constexpr BfropsName kBfropsNames[] = {
    {Bfrops::v20, "v20"}, {Bfrops::v21, "v21"}, {Bfrops::v3, "v3"}, {Bfrops::v4, "v4"}, {Bfrops::v41, "v41"},
};

constexpr size_t kMaxCount = std::numeric_limits<int32_t>::max();

}  // namespace

bool parse_bfrops(std::string_view name, Bfrops *bfrops_p)
{
    for (const BfropsName &entry : kBfropsNames) {
        if (name == entry.name) {
            *bfrops_p = entry.bfrops;
            return true;
        }
    }
    return false;
}

const char *bfrops_name(Bfrops bfrops)
{
    for (const BfropsName &entry : kBfropsNames) {
        if (bfrops == entry.bfrops) {
            return entry.name;
        }
    }
    return "unknown";
}

pmix_status_t Writer::pack(pmix_data_type_t type, const void *values, int32_t n)
{
    if (n < 0 || (n > 0 && nullptr == values)) {
        return PMIX_ERR_BAD_PARAM;
    }
    const size_t mark = bytes_.size();
    codec::Sink sink{encoding_, bytes_, {}};
    if (encoding_.described()) {
        sink.tag(PMIX_INT32);
    }
    sink.int32(n);
    if (encoding_.described()) {
        sink.tag(type);
    }
    pmix_status_t rc = codec::pack_values(sink, type, values, static_cast<size_t>(n));
    if (PMIX_SUCCESS != rc) {
        bytes_.resize(mark);
        reason_ = std::move(sink.reason);
    }
    return rc;
}

pmix_status_t Writer::pack_command(uint8_t command)
{
    return pack(PMIX_COMMAND, &command, 1);
}

pmix_status_t Writer::pack_status(pmix_status_t status)
{
    return pack(PMIX_STATUS, &status, 1);
}

pmix_status_t Writer::pack_string(const char *s)
{
    return pack(PMIX_STRING, &s, 1);
}

pmix_status_t Writer::pack_size(size_t n)
{
    return pack(PMIX_SIZE, &n, 1);
}

pmix_status_t Writer::pack_rank(pmix_rank_t rank)
{
    return pack(PMIX_PROC_RANK, &rank, 1);
}

pmix_status_t Writer::pack_uint32(uint32_t v)
{
    return pack(PMIX_UINT32, &v, 1);
}

pmix_status_t Writer::pack_proc(const pmix_proc_t &proc)
{
    return pack(PMIX_PROC, &proc, 1);
}

pmix_status_t Writer::pack_value(const pmix_value_t &value)
{
    return pack(PMIX_VALUE, &value, 1);
}

pmix_status_t Writer::pack_kval(const char *key, const pmix_value_t &value)
{
    const size_t mark = bytes_.size();
    codec::Sink sink{encoding_, bytes_, {}};
    if (encoding_.described()) {
        sink.tag(PMIX_INT32);
    }
    sink.int32(1);
    if (encoding_.described()) {
        sink.tag(PMIX_KVAL);
    }
    sink.string(key);
    pmix_status_t rc = codec::pack_value_payload(sink, value);
    if (PMIX_SUCCESS != rc) {
        bytes_.resize(mark);
        reason_ = std::move(sink.reason);
    }
    return rc;
}

pmix_status_t Writer::pack_byte_object(const void *bytes, size_t size)
{
    pmix_byte_object_t bo{static_cast<char *>(const_cast<void *>(bytes)), size};
    return pack(PMIX_BYTE_OBJECT, &bo, 1);
}

pmix_status_t Writer::pack_counted(pmix_data_type_t type, const void *values, size_t n)
{
    if (n > kMaxCount) {
        return PMIX_ERR_BAD_PARAM;
    }
    const size_t mark = bytes_.size();
    pmix_status_t rc = pack_size(n);
    if (PMIX_SUCCESS == rc && n > 0) {
        rc = pack(type, values, static_cast<int32_t>(n));
    }
    if (PMIX_SUCCESS != rc) {
        bytes_.resize(mark);
    }
    return rc;
}

void Writer::append_raw(const void *bytes, size_t size)
{
    const auto *p = static_cast<const uint8_t *>(bytes);
    bytes_.insert(bytes_.end(), p, p + size);
}

pmix_status_t Reader::unpack(pmix_data_type_t type, void *values, int32_t *n_p)
{
    if (nullptr == values || nullptr == n_p || *n_p <= 0) {
        reason_ = "no room for values";
        return (nullptr != n_p && 0 == *n_p) ? PMIX_ERR_UNPACK_INADEQUATE_SPACE : PMIX_ERR_BAD_PARAM;
    }
    codec::Source source{encoding_, bytes_, offset_, 0, {}};
    pmix_data_type_t tag = PMIX_INT32;
    pmix_status_t rc = encoding_.described() ? source.tag(&tag) : PMIX_SUCCESS;
    if (PMIX_SUCCESS == rc && PMIX_INT32 != tag) {
        rc = source.fail(PMIX_ERR_UNPACK_FAILURE, "count tagged with type " + std::to_string(tag));
    }
    int32_t count = 0;
    if (PMIX_SUCCESS == rc) {
        rc = source.int32(&count);
    }
    if (PMIX_SUCCESS == rc && count < 0) {
        rc = source.fail(PMIX_ERR_UNPACK_FAILURE, "negative count " + std::to_string(count));
    }
    if (PMIX_SUCCESS == rc && count > *n_p) {
        rc = source.fail(PMIX_ERR_UNPACK_INADEQUATE_SPACE,
                         std::to_string(count) + " values for room of " + std::to_string(*n_p));
    }
    if (PMIX_SUCCESS == rc && encoding_.described()) {
        rc = source.tag(&tag);
        if (PMIX_SUCCESS == rc && tag != type) {
            rc = source.fail(PMIX_ERR_PACK_MISMATCH,
                             "expected type " + std::to_string(type) + ", buffer holds " + std::to_string(tag));
        }
    }
    if (PMIX_SUCCESS == rc) {
        rc = source.check_count(static_cast<uint64_t>(count), codec::min_encoded_size(type), "values");
    }
    if (PMIX_SUCCESS == rc) {
        rc = codec::unpack_values(source, type, values, static_cast<size_t>(count));
    }
    if (PMIX_SUCCESS != rc) {
        reason_ = source.reason;
        return rc;
    }
    offset_ = source.offset;
    *n_p = count;
    return PMIX_SUCCESS;
}

pmix_status_t Reader::unpack_kval(std::string *key_p, pmix_value_t *value_p)
{
    codec::Source source{encoding_, bytes_, offset_, 0, {}};
    pmix_data_type_t tag = PMIX_INT32;
    pmix_status_t rc = encoding_.described() ? source.tag(&tag) : PMIX_SUCCESS;
    if (PMIX_SUCCESS == rc && PMIX_INT32 != tag) {
        rc = source.fail(PMIX_ERR_UNPACK_FAILURE, "count tagged with type " + std::to_string(tag));
    }
    int32_t count = 0;
    if (PMIX_SUCCESS == rc) {
        rc = source.int32(&count);
    }
    if (PMIX_SUCCESS == rc && 1 != count) {
        rc = source.fail(PMIX_ERR_UNPACK_INADEQUATE_SPACE, "expected one kval, count is " + std::to_string(count));
    }
    if (PMIX_SUCCESS == rc && encoding_.described()) {
        rc = source.tag(&tag);
        if (PMIX_SUCCESS == rc && PMIX_KVAL != tag) {
            rc = source.fail(PMIX_ERR_PACK_MISMATCH, "expected a kval, buffer holds type " + std::to_string(tag));
        }
    }
    char *key = nullptr;
    if (PMIX_SUCCESS == rc) {
        rc = source.string(&key);
    }
    if (PMIX_SUCCESS == rc && nullptr == key) {
        rc = source.fail(PMIX_ERR_UNPACK_FAILURE, "kval: null key");
    }
    pmix_value_t value{};
    if (PMIX_SUCCESS == rc) {
        rc = codec::unpack_value(source, &value);
    }
    if (PMIX_SUCCESS != rc) {
        std::free(key);
        reason_ = source.reason;
        return rc;
    }
    key_p->assign(key);
    std::free(key);
    *value_p = value;
    offset_ = source.offset;
    return PMIX_SUCCESS;
}

pmix_status_t Reader::unpack_command(uint8_t *command_p)
{
    int32_t n = 1;
    return unpack(PMIX_COMMAND, command_p, &n);
}

pmix_status_t Reader::unpack_status(pmix_status_t *status_p)
{
    int32_t n = 1;
    return unpack(PMIX_STATUS, status_p, &n);
}

pmix_status_t Reader::unpack_string(std::string *s_p)
{
    char *s = nullptr;
    int32_t n = 1;
    pmix_status_t rc = unpack(PMIX_STRING, &s, &n);
    if (PMIX_SUCCESS == rc) {
        s_p->assign(nullptr == s ? "" : s);
        std::free(s);
    }
    return rc;
}

pmix_status_t Reader::unpack_size(size_t *n_p)
{
    int32_t n = 1;
    return unpack(PMIX_SIZE, n_p, &n);
}

pmix_status_t Reader::unpack_rank(pmix_rank_t *rank_p)
{
    int32_t n = 1;
    return unpack(PMIX_PROC_RANK, rank_p, &n);
}

pmix_status_t Reader::unpack_uint32(uint32_t *v_p)
{
    int32_t n = 1;
    return unpack(PMIX_UINT32, v_p, &n);
}

pmix_status_t Reader::unpack_proc(pmix_proc_t *proc_p)
{
    int32_t n = 1;
    return unpack(PMIX_PROC, proc_p, &n);
}

pmix_status_t Reader::unpack_counted(pmix_data_type_t type, void **array_p, size_t *n_p)
{
    const size_t mark = offset_;
    size_t n = 0;
    pmix_status_t rc = unpack_size(&n);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (0 == n) {
        *array_p = nullptr;
        *n_p = 0;
        return PMIX_SUCCESS;
    }
    // The count must fit what is left before anything is allocated from it.
    if (n > kMaxCount || n > remaining() / codec::min_encoded_size(type) || 0 == values::element_size(type)) {
        reason_ = "count " + std::to_string(n) + " exceeds the " + std::to_string(remaining()) + " bytes left";
        offset_ = mark;
        return 0 == values::element_size(type) ? PMIX_ERR_UNKNOWN_DATA_TYPE : PMIX_ERR_UNPACK_INADEQUATE_SPACE;
    }
    void *array = values::alloc_elements(type, n);
    if (nullptr == array) {
        offset_ = mark;
        reason_ = "no memory";
        return PMIX_ERR_NOMEM;
    }
    auto m = static_cast<int32_t>(n);
    rc = unpack(type, array, &m);
    if (PMIX_SUCCESS == rc && static_cast<size_t>(m) != n) {
        values::free_elements(array, static_cast<size_t>(m), type);
        array = nullptr;
        reason_ = "count " + std::to_string(n) + " announced, " + std::to_string(m) + " packed";
        rc = PMIX_ERR_UNPACK_FAILURE;
    } else if (PMIX_SUCCESS != rc) {
        std::free(array);  // unpack left the elements owning nothing
        array = nullptr;
    }
    if (PMIX_SUCCESS != rc) {
        offset_ = mark;
        return rc;
    }
    *array_p = array;
    *n_p = n;
    return PMIX_SUCCESS;
}

pmix_status_t Reader::read_raw(void *dest, size_t size)
{
    if (size > remaining()) {
        reason_ = "needs " + std::to_string(size) + " raw bytes, " + std::to_string(remaining()) + " left";
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (size > 0) {
        std::memcpy(dest, bytes_.data() + offset_, size);
    }
    offset_ += size;
    return PMIX_SUCCESS;
}

pmix_status_t Reader::read_cstring(std::string *s_p)
{
    const void *nul = at_end() ? nullptr : std::memchr(bytes_.data() + offset_, 0, remaining());
    if (nullptr == nul) {
        reason_ = "string without a terminating NUL";
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    const auto *start = reinterpret_cast<const char *>(bytes_.data() + offset_);
    const size_t len = static_cast<size_t>(static_cast<const char *>(nul) - start);
    s_p->assign(start, len);
    offset_ += len + 1;
    return PMIX_SUCCESS;
}

pmix_status_t Reader::read_be32(uint32_t *v_p)
{
    uint8_t b[4];
    pmix_status_t rc = read_raw(b, sizeof b);
    if (PMIX_SUCCESS == rc) {
        *v_p = (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
    }
    return rc;
}

}  // namespace pmixpp::openpmix
