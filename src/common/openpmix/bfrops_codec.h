// Internal to the OpenPMIx codec (bfrops.h): the byte sink and source that
// the per-type packers and unpackers share. A Sink appends to a vector; a
// Source reads a span with every read checked, records why a read failed,
// and counts how deeply containers nest.
#ifndef PMIXPP_COMMON_OPENPMIX_BFROPS_CODEC_H
#define PMIXPP_COMMON_OPENPMIX_BFROPS_CODEC_H

#include <pmix.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/openpmix/bfrops.h"

namespace pmixpp::openpmix::codec {

// Whether OpenPMIx's module of this name registers `type` at all (v3 and
// older know fewer types than v4/v41).
bool type_supported(Bfrops bfrops, pmix_data_type_t type);

// A value of a type `bfrops` lacks, as the older type that module gives the
// same datum (3.2's v3 has no PMIX_REGEX, PMIX_LOCTYPE, PMIX_PROC_NSPACE,
// PMIX_JOB_STATE or PMIX_LINK_STATE): a text regex and a namespace become
// PMIX_STRING, a locality PMIX_UINT16, a state PMIX_UINT8. *older_p borrows
// the value's data. False: the type has no older equivalent.
bool older_equivalent(Bfrops bfrops, const pmix_value_t &value, pmix_value_t *older_p);

struct Sink {
    Encoding encoding;
    std::vector<uint8_t> &out;
    std::string reason;

    void u8(uint8_t v) { out.push_back(v); }
    void raw(const void *bytes, size_t size);
    // An integer of INT16/32/64 or UINT16/32/64: a flex128 varint (signed
    // types zig-zagged) or fixed-width big-endian. `bits` is the value,
    // sign-extended for signed types.
    void integer(pmix_data_type_t type, uint64_t bits);
    void tag(pmix_data_type_t type) { integer(PMIX_UINT16, type); }
    void int32(int32_t v) { integer(PMIX_INT32, static_cast<uint64_t>(static_cast<int64_t>(v))); }
    void uint32(uint32_t v) { integer(PMIX_UINT32, v); }
    // The "system" types: only the fixed-width encodings tag them.
    void size(size_t v);
    void int_(int v);
    void string(const char *s);
    // A char array of at most `limit` bytes, not necessarily terminated.
    void bounded_string(const char *s, size_t limit);

    pmix_status_t refuse(pmix_status_t status, std::string why);
};

struct Source {
    Encoding encoding;
    std::span<const uint8_t> bytes;
    size_t offset = 0;
    unsigned depth = 0;
    std::string reason;

    size_t remaining() const { return bytes.size() - offset; }
    pmix_status_t fail(pmix_status_t status, std::string why);
    pmix_status_t need(size_t n, const char *what);

    pmix_status_t u8(uint8_t *v_p);
    pmix_status_t raw(void *dest, size_t size);
    // Reads an integer of `type` (see Sink::integer); signed values come
    // back sign-extended in *bits_p.
    pmix_status_t integer(pmix_data_type_t type, uint64_t *bits_p);
    pmix_status_t tag(pmix_data_type_t *type_p);
    pmix_status_t int32(int32_t *v_p);
    pmix_status_t uint32(uint32_t *v_p);
    pmix_status_t uint16(uint16_t *v_p);
    pmix_status_t uint64(uint64_t *v_p);
    // A tagged (fixed-width encodings) or untagged (flex128) system type;
    // a peer's other width is converted when the value fits.
    pmix_status_t size(size_t *v_p);
    pmix_status_t int_(int *v_p);
    pmix_status_t pid(pid_t *v_p);
    // n values of SIZE, INT, UINT or PID packed by one PACK_TYPE: one
    // width tag for all of them where the encoding tags.
    pmix_status_t system_group(pmix_data_type_t type, void *dest, size_t n);
    // A malloc'ed copy (NULL for the null string).
    pmix_status_t string(char **s_p);
    // Into a char array of `capacity` bytes, NUL-terminated; a null or
    // too long string is refused.
    pmix_status_t fixed_string(char *dest, size_t capacity, const char *what);
    // A count that will size an allocation: non-negative and no more than
    // the bytes left could hold at `min_bytes` per element.
    pmix_status_t check_count(uint64_t n, size_t min_bytes, const char *what);
};

// n values of `type` laid out as in a pmix_data_array_t, without the PACK
// call's count and type tags.
pmix_status_t pack_values(Sink &sink, pmix_data_type_t type, const void *values, size_t n);
pmix_status_t pack_value_payload(Sink &sink, const pmix_value_t &value);

// Into zeroed storage of n elements; on failure what was filled is
// destructed again and the storage is zeroed.
pmix_status_t unpack_values(Source &source, pmix_data_type_t type, void *dest, size_t n);
// Reads the type tag and the payload of a value into a zeroed *value.
pmix_status_t unpack_value(Source &source, pmix_value_t *value);

// Fewest bytes one element of `type` takes on the wire (at least 1).
size_t min_encoded_size(pmix_data_type_t type);

}  // namespace pmixpp::openpmix::codec

#endif
