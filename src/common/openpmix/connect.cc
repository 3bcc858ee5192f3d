#include "common/openpmix/connect.h"

#include <arpa/inet.h>

#include <cstdlib>
#include <cstring>

namespace pmixpp::openpmix {

namespace {

bool flag_has_ids(ConnectFlag flag)
{
    return flag != ConnectFlag::simple_client;
}

bool flag_has_proc(ConnectFlag flag)
{
    switch (flag) {
    case ConnectFlag::simple_client:
    case ConnectFlag::tool_given_id:
    case ConnectFlag::tool_client:
    case ConnectFlag::launcher_given_id:
    case ConnectFlag::launcher_client:
    case ConnectFlag::singleton_client:
    case ConnectFlag::scheduler_with_id: return true;
    default: return false;
    }
}

pmix_status_t missing(std::string *reason_p, const char *field)
{
    *reason_p = std::string("the connect request ends before its ") + field;
    return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
}

pmix_status_t read_proc(Reader &reader, ConnectRequest &request, std::string *reason_p)
{
    if (reader.read_cstring(&request.nspace) != PMIX_SUCCESS) return missing(reason_p, "nspace");
    if (request.nspace.size() > PMIX_MAX_NSLEN) {
        *reason_p = "the connect request names an nspace longer than " + std::to_string(PMIX_MAX_NSLEN) + " bytes";
        return PMIX_ERR_BAD_PARAM;
    }
    uint32_t rank = 0;
    if (reader.read_be32(&rank) != PMIX_SUCCESS) return missing(reason_p, "rank");
    request.rank = rank;
    request.has_proc = true;
    return PMIX_SUCCESS;
}

// The optional info blob: SIZE n, then n INFO, in the peer's encoding.
pmix_status_t read_info(std::span<const uint8_t> rest, ConnectRequest &request, std::string *reason_p)
{
    Encoding encoding;
    if (!request.encoding(&encoding, reason_p)) return PMIX_ERR_NOT_SUPPORTED;
    if (rest.empty() || (rest.size() == 1 && rest[0] == 0)) return PMIX_SUCCESS;  // none, or 4.2.2's stray byte
    Reader blob(encoding, rest);
    void *array = nullptr;
    std::size_t n = 0;
    const pmix_status_t rc = blob.unpack_counted(PMIX_INFO, &array, &n);
    if (rc != PMIX_SUCCESS) {
        *reason_p = "the connect request's info does not decode: " + blob.reason();
        return rc;
    }
    request.info.adopt(static_cast<pmix_info_t *>(array), n);
    return PMIX_SUCCESS;
}

void put_be32(std::vector<uint8_t> &out, uint32_t v)
{
    const uint32_t be = htonl(v);
    const auto *p = reinterpret_cast<const uint8_t *>(&be);
    out.insert(out.end(), p, p + sizeof(be));
}

void put_cstring(std::vector<uint8_t> &out, const std::string &s)
{
    out.insert(out.end(), s.begin(), s.end());
    out.push_back(0);
}

void put_fixed_nspace(std::vector<uint8_t> &out, const char *nspace)
{
    const std::size_t at = out.size();
    out.resize(at + PMIX_MAX_NSLEN + 1, 0);
    std::memcpy(out.data() + at, nspace, strnlen(nspace, PMIX_MAX_NSLEN));
}

}  // namespace

const char *connect_flag_name(ConnectFlag flag)
{
    switch (flag) {
    case ConnectFlag::simple_client: return "client";
    case ConnectFlag::legacy_tool: return "legacy tool";
    case ConnectFlag::legacy_launcher: return "legacy launcher";
    case ConnectFlag::tool_needs_id: return "tool that needs an identity";
    case ConnectFlag::tool_given_id: return "tool with an identity";
    case ConnectFlag::tool_client: return "tool started by a server";
    case ConnectFlag::launcher_needs_id: return "launcher that needs an identity";
    case ConnectFlag::launcher_given_id: return "launcher with an identity";
    case ConnectFlag::launcher_client: return "launcher started by a server";
    case ConnectFlag::singleton_client: return "singleton";
    case ConnectFlag::scheduler_with_id: return "scheduler";
    }
    return "unknown peer";
}

bool Version::at_least(int a, int b, int c) const
{
    if (major != a) return major > a;
    if (minor != b) return minor > b;
    return release >= c;
}

Version parse_version(const std::string &text)
{
    Version v;
    const char *p = text.c_str();
    if (*p == 'v' || *p == 'V') ++p;
    char *end = nullptr;
    v.major = static_cast<int>(std::strtol(p, &end, 10));
    if (end == nullptr || *end != '.') return v;
    v.minor = static_cast<int>(std::strtol(end + 1, &end, 10));
    if (end == nullptr || *end != '.') return v;
    v.release = static_cast<int>(std::strtol(end + 1, &end, 10));
    return v;
}

bool ConnectRequest::is_tool() const
{
    switch (flag) {
    case ConnectFlag::legacy_tool:
    case ConnectFlag::tool_needs_id:
    case ConnectFlag::tool_given_id:
    case ConnectFlag::tool_client: return true;
    default: return false;
    }
}

bool ConnectRequest::is_launcher() const
{
    return flag != ConnectFlag::simple_client && !is_tool();
}

bool ConnectRequest::encoding(Encoding *encoding_p, std::string *reason_p) const
{
    Bfrops named{};
    if (!parse_bfrops(bfrops, &named) || named == Bfrops::v20) {
        *reason_p = "its buffer encoding '" + bfrops + "' (library " + version +
                    ") is older than this server speaks (v21, v3, v4, v41)";
        return false;
    }
    if (buffer_type != BufferType::non_desc && buffer_type != BufferType::fully_desc) {
        *reason_p = "its buffer type " + std::to_string(static_cast<int>(buffer_type)) + " is unknown";
        return false;
    }
    encoding_p->bfrops = named;
    encoding_p->type = buffer_type;
    return true;
}

pmix_status_t decode_connect_request(std::span<const uint8_t> body, ConnectRequest *request_p, std::string *reason_p)
{
    ConnectRequest request;
    Reader reader(Encoding{}, body);
    if (reader.read_cstring(&request.psec) != PMIX_SUCCESS) return missing(reason_p, "psec name");
    uint32_t length = 0;
    if (reader.read_be32(&length) != PMIX_SUCCESS) return missing(reason_p, "credential length");
    if (length > reader.remaining()) return missing(reason_p, "credential");
    request.credential.resize(length);
    if (length > 0 && reader.read_raw(request.credential.data(), length) != PMIX_SUCCESS) {
        return missing(reason_p, "credential");
    }
    uint8_t flag = 0;
    if (reader.read_raw(&flag, 1) != PMIX_SUCCESS) return missing(reason_p, "peer type");
    if (flag > static_cast<uint8_t>(ConnectFlag::scheduler_with_id)) {
        *reason_p = "the connect request names peer type " + std::to_string(flag) + ", unknown to this server";
        return PMIX_ERR_NOT_SUPPORTED;
    }
    request.flag = static_cast<ConnectFlag>(flag);
    if (flag_has_ids(request.flag)) {
        if (reader.read_be32(&request.uid) != PMIX_SUCCESS || reader.read_be32(&request.gid) != PMIX_SUCCESS) {
            return missing(reason_p, "uid and gid");
        }
        request.has_ids = true;
    }
    if (flag_has_proc(request.flag)) {
        const pmix_status_t rc = read_proc(reader, request, reason_p);
        if (rc != PMIX_SUCCESS) return rc;
    }
    if (reader.read_cstring(&request.version) != PMIX_SUCCESS) return missing(reason_p, "library version");
    const Version version = parse_version(request.version);
    if (!version.at_least(2, 1, 0)) {
        *reason_p = "OpenPMIx " + request.version + " is older than this server serves (2.1 and later)";
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (reader.read_cstring(&request.bfrops) != PMIX_SUCCESS) return missing(reason_p, "buffer encoding");
    uint8_t type = 0;
    if (reader.read_raw(&type, 1) != PMIX_SUCCESS) return missing(reason_p, "buffer type");
    request.buffer_type = static_cast<BufferType>(type);
    if (reader.read_cstring(&request.gds) != PMIX_SUCCESS) return missing(reason_p, "gds module");
    Encoding encoding;
    if (!request.encoding(&encoding, reason_p)) return PMIX_ERR_NOT_SUPPORTED;
    const pmix_status_t rc = read_info(body.subspan(reader.offset()), request, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    *request_p = std::move(request);
    return PMIX_SUCCESS;
}

std::vector<uint8_t> encode_connect_request(const ConnectRequest &request)
{
    std::vector<uint8_t> out;
    put_cstring(out, request.psec);
    put_be32(out, static_cast<uint32_t>(request.credential.size()));
    out.insert(out.end(), request.credential.begin(), request.credential.end());
    out.push_back(static_cast<uint8_t>(request.flag));
    if (flag_has_ids(request.flag)) {
        put_be32(out, request.uid);
        put_be32(out, request.gid);
    }
    if (flag_has_proc(request.flag)) {
        put_cstring(out, request.nspace);
        put_be32(out, request.rank);
    }
    put_cstring(out, request.version);
    put_cstring(out, request.bfrops);
    out.push_back(static_cast<uint8_t>(request.buffer_type));
    put_cstring(out, request.gds);
    if (!request.info.empty()) {
        Encoding encoding;
        std::string reason;
        if (request.encoding(&encoding, &reason)) {
            Writer writer(encoding);
            if (writer.pack_counted(PMIX_INFO, request.info.data(), request.info.size()) == PMIX_SUCCESS) {
                out.insert(out.end(), writer.bytes().begin(), writer.bytes().end());
            }
        }
    }
    return out;
}

std::vector<uint8_t> encode_client_answer(pmix_status_t status, uint32_t index)
{
    std::vector<uint8_t> out;
    put_be32(out, static_cast<uint32_t>(status));
    put_be32(out, index);
    return out;
}

std::vector<uint8_t> encode_tool_answer(pmix_status_t status, const pmix_proc_t *assigned, const pmix_proc_t &server)
{
    std::vector<uint8_t> out;
    put_be32(out, static_cast<uint32_t>(status));
    if (assigned != nullptr) {
        put_fixed_nspace(out, assigned->nspace);
        put_be32(out, assigned->rank);
    }
    put_fixed_nspace(out, server.nspace);
    put_be32(out, server.rank);
    put_be32(out, static_cast<uint32_t>(PMIX_SUCCESS));
    return out;
}

}  // namespace pmixpp::openpmix
