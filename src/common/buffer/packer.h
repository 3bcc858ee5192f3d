// The byte-level view of a pmix_data_buffer_t: a Packer appends fixed-width
// little-endian fields, an Unpacker reads them back with every read checked
// against the bytes that remain. Both are transactional: a failed pack or
// unpack leaves the caller's buffer exactly as it was.
//
// Buffer invariants (the same as OpenPMIx's, because the standard's macros
// touch the fields directly): base_ptr is libc-malloc'ed, bytes_allocated
// bytes long; bytes_used of them hold data; pack_ptr == base_ptr + bytes_used;
// base_ptr <= unpack_ptr <= pack_ptr.
#ifndef PMIXPP_COMMON_BUFFER_PACKER_H
#define PMIXPP_COMMON_BUFFER_PACKER_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <pmix_common.h>

// Older spelling kept by OpenPMIx in pmix_deprecated.h; we return it when a
// packed group's type tag is not the requested type.
#ifndef PMIX_ERR_PACK_MISMATCH
#define PMIX_ERR_PACK_MISMATCH -22
#endif

namespace pmixpp::buffer {

// Bound on how deeply containers (values, infos, data arrays, apps, queries)
// may nest in data being UNPACKED, so a hostile peer cannot exhaust the
// stack. Packing, copying and printing data we were handed have no bound:
// the caller built that nesting and owns it. See docs/wire-format.md for
// the stack each level costs.
inline constexpr unsigned kMaxUnpackDepth = 1024;
// Former name, kept for source compatibility.
inline constexpr unsigned kMaxNestingDepth = kMaxUnpackDepth;

// Encoded length of a NULL string (a real string of length n is encoded as n + 1).
inline constexpr uint32_t kNullString = 0;

class Packer {
public:
    explicit Packer(pmix_data_buffer_t *buf);
    Packer(const Packer &) = delete;
    Packer &operator=(const Packer &) = delete;

    pmix_status_t put_u8(uint8_t v) { return put_le(v, 1); }
    pmix_status_t put_u16(uint16_t v) { return put_le(v, 2); }
    pmix_status_t put_u32(uint32_t v) { return put_le(v, 4); }
    pmix_status_t put_u64(uint64_t v) { return put_le(v, 8); }
    pmix_status_t put_i32(int32_t v) { return put_u32(static_cast<uint32_t>(v)); }
    pmix_status_t put_i64(int64_t v) { return put_u64(static_cast<uint64_t>(v)); }
    pmix_status_t put_float(float v);
    pmix_status_t put_double(double v);
    pmix_status_t put_raw(const void *bytes, size_t n);
    // NULL-able C string: u32 (length + 1, 0 for NULL), then the bytes without NUL.
    pmix_status_t put_string(const char *s);
    // NULL-terminated string array (argv): u32 (count + 1, 0 for NULL), strings.
    pmix_status_t put_argv(char *const *argv);
    // Byte object: u64 size, then the bytes.
    pmix_status_t put_bytes(const char *bytes, size_t size);
    // Element count of a nested array (u32); counts above 2^32-1 are refused.
    pmix_status_t put_count(size_t n);

    // Undo everything appended since construction.
    void rollback();

private:
    pmix_status_t put_le(uint64_t v, unsigned width);
    pmix_status_t reserve(size_t n);
    pmix_data_buffer_t *buf_;
    size_t start_used_;
};

class Unpacker {
public:
    explicit Unpacker(pmix_data_buffer_t *buf);
    Unpacker(const Unpacker &) = delete;
    Unpacker &operator=(const Unpacker &) = delete;

    // False when the buffer's pointers are inconsistent (never read from it then).
    bool valid() const { return valid_; }
    size_t remaining() const { return end_ - cur_; }

    pmix_status_t get_u8(uint8_t *v_p);
    pmix_status_t get_u16(uint16_t *v_p);
    pmix_status_t get_u32(uint32_t *v_p);
    pmix_status_t get_u64(uint64_t *v_p);
    pmix_status_t get_i32(int32_t *v_p);
    pmix_status_t get_i64(int64_t *v_p);
    pmix_status_t get_float(float *v_p);
    pmix_status_t get_double(double *v_p);
    pmix_status_t get_raw(void *dest, size_t n);
    pmix_status_t peek_u16(uint16_t *v_p) const;
    // malloc'ed string (or NULL); rejects embedded NULs.
    pmix_status_t get_string(char **s_p);
    // Into fixed storage of cap bytes (nspace, key): longer strings are malformed.
    pmix_status_t get_fixed_string(char *dest, size_t cap);
    pmix_status_t get_argv(char ***argv_p);
    pmix_status_t get_bytes(char **bytes_p, size_t *size_p);
    // Reads an element count and checks that count * min_wire bytes remain,
    // so a hostile count never drives an allocation.
    pmix_status_t get_count(size_t min_wire, size_t *count_p);

    // Make the reads so far permanent in the caller's buffer.
    void commit();
    // Containers entered so far (see kMaxUnpackDepth).
    unsigned depth = 0;

private:
    pmix_status_t get_le(uint64_t *v_p, unsigned width);
    pmix_data_buffer_t *buf_;
    const unsigned char *cur_ = nullptr;
    const unsigned char *end_ = nullptr;
    bool valid_ = false;
};

// Scope guard for recursion through nested arrays and values while unpacking.
template <typename Walker> class DepthGuard {
public:
    explicit DepthGuard(Walker &w) : w_(w) { ++w_.depth; }
    ~DepthGuard() { --w_.depth; }
    DepthGuard(const DepthGuard &) = delete;
    DepthGuard &operator=(const DepthGuard &) = delete;
    bool too_deep() const { return w_.depth > kMaxUnpackDepth; }

private:
    Walker &w_;
};

// True when the buffer's fields satisfy the invariants above.
bool buffer_is_consistent(const pmix_data_buffer_t *buf);

}  // namespace pmixpp::buffer

#endif
