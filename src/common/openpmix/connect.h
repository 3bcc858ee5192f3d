// OpenPMIx's connect request: the body of the first message a client, tool
// or launcher sends its server, and the server's answers. Its fields are
// raw (not bfrops PACK calls) apart from the optional info blob at the end:
//   psec name        NUL-terminated
//   credential       u32 big-endian length, then the bytes (psec/native
//                    over tcp: euid and egid, 4 bytes each, host order)
//   flag             u8, ConnectFlag
//   identity         flag 0: nspace + u32 rank; 3, 6: u32 uid + u32 gid;
//                    4, 5, 7, 8, 9, 10: uid + gid + nspace + rank
//   version          NUL-terminated, "4.2.2" (a 2.0 client stops here)
//   bfrops           NUL-terminated, "v41"
//   buffer type      u8, 1 non-described, 2 fully described
//   gds              NUL-terminated, the module the client chose ("hash")
//   info (optional)  packed SIZE n, then n INFO, in the bfrops above
// (4.1.x to 4.2.2 clients add one stray 0x00 byte; anything after the info
// is ignored). A server answers a client with u32 status and u32 index, a
// tool with more (encode_tool_answer), both big-endian and without a
// header. Pure data; any thread.
#ifndef PMIXPP_COMMON_OPENPMIX_CONNECT_H
#define PMIXPP_COMMON_OPENPMIX_CONNECT_H

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

#include <pmix_common.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pmixpp::openpmix {

enum class ConnectFlag : uint8_t {
    simple_client = 0,
    legacy_tool = 1,
    legacy_launcher = 2,
    tool_needs_id = 3,
    tool_given_id = 4,
    tool_client = 5,
    launcher_needs_id = 6,
    launcher_given_id = 7,
    launcher_client = 8,
    singleton_client = 9,
    scheduler_with_id = 10,
};

const char *connect_flag_name(ConnectFlag flag);

// A library version "4.2.2rc2", "v5.0.1", "3.2.3"; unknown parts are 0.
struct Version {
    int major = 0;
    int minor = 0;
    int release = 0;
    bool at_least(int a, int b, int c) const;
};
Version parse_version(const std::string &text);

struct ConnectRequest {
    std::string psec;
    std::vector<uint8_t> credential;
    ConnectFlag flag = ConnectFlag::simple_client;
    bool has_ids = false;  // the flag carries uid and gid
    uint32_t uid = 0;
    uint32_t gid = 0;
    bool has_proc = false;  // the flag carries nspace and rank
    std::string nspace;
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    std::string version;
    std::string bfrops;
    BufferType buffer_type = BufferType::non_desc;
    std::string gds;
    wire::InfoArray info;

    bool is_tool() const;
    bool is_launcher() const;
    // The encoding the peer's later messages use; false when it names one
    // we do not speak (*reason_p says which).
    bool encoding(Encoding *encoding_p, std::string *reason_p) const;
};

// PMIX_ERR_UNPACK_FAILURE (or another unpack status) with *reason_p naming
// the field that is missing or malformed.
pmix_status_t decode_connect_request(std::span<const uint8_t> body, ConnectRequest *request_p, std::string *reason_p);
std::vector<uint8_t> encode_connect_request(const ConnectRequest &request);

std::vector<uint8_t> encode_client_answer(pmix_status_t status, uint32_t index);
// status; for a tool that asked for an identity, its nspace in 256 bytes
// and rank; the server's nspace in 256 bytes and rank; the psec status.
std::vector<uint8_t> encode_tool_answer(pmix_status_t status, const pmix_proc_t *assigned, const pmix_proc_t &server);

}  // namespace pmixpp::openpmix

#endif
