// OpenPMIx's buffer encoding ("bfrops"), as its 2.1-6.x clients, tools and
// servers put PMIx data on the wire. pmixpp speaks it only to peers that run
// OpenPMIx's library; our own peers use common/buffer's codec. Pure data, no
// I/O; any thread.
//
// What differs between the encodings (docs/wire-protocol.md, OpenPMIx dialect):
//   v41, v4   integers of 16 bits and wider are "flex128" varints (7-bit
//             little-endian groups, 0x80 = more, at most 9 bytes; signed
//             types zig-zag encoded); INT, UINT and SIZE carry no type tag.
//   v3, v21   fixed-width big-endian integers; INT, UINT, SIZE and PID carry
//             a 2-byte type tag and are 4 or 8 bytes wide.
//   fully described buffers (a debug build's choice, either encoding) put a
//             type tag before each PACK call's count and before the values.
//
// Writer::pack and Reader::unpack mirror OpenPMIx's PACK(buffer, values, n,
// type): the count n as INT32, then n values. The payload of every message is
// a sequence of such calls (docs/wire-protocol.md lists them per command).
#ifndef PMIXPP_COMMON_OPENPMIX_BFROPS_H
#define PMIXPP_COMMON_OPENPMIX_BFROPS_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::openpmix {

enum class Bfrops : uint8_t { v20, v21, v3, v4, v41 };

// 1 and 2 are the values OpenPMIx sends in the handshake.
enum class BufferType : uint8_t { non_desc = 1, fully_desc = 2 };

struct Encoding {
    Bfrops bfrops = Bfrops::v41;
    BufferType type = BufferType::non_desc;

    bool varints() const { return bfrops == Bfrops::v4 || bfrops == Bfrops::v41; }
    bool described() const { return type == BufferType::fully_desc; }
};

// "v20", "v21", "v3", "v4", "v41"; false for anything else (v12 is refused).
bool parse_bfrops(std::string_view name, Bfrops *bfrops_p);
const char *bfrops_name(Bfrops bfrops);

// Appends PACK calls to a growing byte vector. Values use the public PMIx
// layouts (pmix_proc_t, pmix_info_t, pmix_value_t, pmix_app_t, ...). A
// failed pack (a type OpenPMIx cannot carry, an oversized count) returns an
// error status and leaves the bytes as they were before the call.
class Writer {
public:
    explicit Writer(Encoding encoding) : encoding_(encoding) {}

    // One PACK call: n values of `type` stored contiguously at `values` (for
    // PMIX_STRING an array of char *).
    pmix_status_t pack(pmix_data_type_t type, const void *values, int32_t n);

    // Shorthands for one-value PACK calls.
    pmix_status_t pack_command(uint8_t command);
    pmix_status_t pack_status(pmix_status_t status);
    pmix_status_t pack_string(const char *s);  // NULL is a null string
    pmix_status_t pack_size(size_t n);
    pmix_status_t pack_rank(pmix_rank_t rank);
    pmix_status_t pack_uint32(uint32_t v);
    pmix_status_t pack_proc(const pmix_proc_t &proc);
    pmix_status_t pack_value(const pmix_value_t &value);
    pmix_status_t pack_kval(const char *key, const pmix_value_t &value);
    pmix_status_t pack_byte_object(const void *bytes, size_t size);
    // The "[n SIZE][T × n if n > 0]" pattern most payloads use.
    pmix_status_t pack_counted(pmix_data_type_t type, const void *values, size_t n);

    // Raw bytes, no count (the handshake's fields).
    void append_raw(const void *bytes, size_t size);

    const std::vector<uint8_t> &bytes() const { return bytes_; }
    std::vector<uint8_t> take() { return std::move(bytes_); }
    Encoding encoding() const { return encoding_; }
    // Why the last failed pack failed ("type PMIX_GEOMETRY is not packed
    // for an OpenPMIx peer speaking v3").
    const std::string &reason() const { return reason_; }

private:
    Encoding encoding_;
    std::vector<uint8_t> bytes_;
    std::string reason_;
};

// Reads PACK calls from a byte span it does not own. Every read is checked
// against what remains: a truncated, oversized or garbage buffer gives an
// error status (UNPACK_READ_PAST_END_OF_BUFFER, UNPACK_FAILURE,
// UNPACK_INADEQUATE_SPACE, PACK_MISMATCH), never a crash, and *reason()
// names what was wrong for the log line. Nesting (values in arrays in
// values) is bounded. What an unpack allocates comes from libc malloc and
// is released with the standard's destructors (PMIX_INFO_FREE, ...).
class Reader {
public:
    Reader(Encoding encoding, std::span<const uint8_t> bytes) : encoding_(encoding), bytes_(bytes) {}

    // One PACK call of `type`: reads the count, requires *n_p >= count,
    // fills values[0..count) (zeroed storage of the public layout), sets *n_p.
    pmix_status_t unpack(pmix_data_type_t type, void *values, int32_t *n_p);

    // Shorthands for one-value PACK calls.
    pmix_status_t unpack_command(uint8_t *command_p);
    pmix_status_t unpack_status(pmix_status_t *status_p);
    pmix_status_t unpack_string(std::string *s_p);  // a null string reads as ""
    pmix_status_t unpack_size(size_t *n_p);
    pmix_status_t unpack_rank(pmix_rank_t *rank_p);
    pmix_status_t unpack_uint32(uint32_t *v_p);
    pmix_status_t unpack_proc(pmix_proc_t *proc_p);
    // One KVAL PACK call (pack_kval): the key, and the value into zeroed
    // *value_p (release with PMIX_VALUE_DESTRUCT).
    pmix_status_t unpack_kval(std::string *key_p, pmix_value_t *value_p);
    // The "[n SIZE][T × n if n > 0]" pattern; *array_p is calloc'ed (NULL
    // when n is 0), its elements filled; release with the type's FREE macro.
    pmix_status_t unpack_counted(pmix_data_type_t type, void **array_p, size_t *n_p);

    // Raw bytes, no count (the handshake's fields).
    pmix_status_t read_raw(void *dest, size_t size);
    pmix_status_t read_cstring(std::string *s_p);  // NUL-terminated
    pmix_status_t read_be32(uint32_t *v_p);

    Encoding encoding() const { return encoding_; }
    size_t remaining() const { return bytes_.size() - offset_; }
    bool at_end() const { return remaining() == 0; }
    size_t offset() const { return offset_; }
    const std::string &reason() const { return reason_; }

private:
    Encoding encoding_;
    std::span<const uint8_t> bytes_;
    size_t offset_ = 0;
    std::string reason_;
};

}  // namespace pmixpp::openpmix

#endif
