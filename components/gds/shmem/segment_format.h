// gds/shmem: the bytes of one segment (a file that readers mmap read-only).
// The layout is private to this component: only a server and clients built
// from the same component read it, and the magic/format version refuse any
// other. Multi-byte fields are in the host's order (segments never leave the
// node). docs/gds-shmem.md draws the layout.
#ifndef PMIXPP_GDS_SHMEM_SEGMENT_FORMAT_H
#define PMIXPP_GDS_SHMEM_SEGMENT_FORMAT_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>

namespace gds_shmem {

inline constexpr uint64_t kSegmentMagic = 0x31764d4853584d50ull;  // "PMXSHMv1"
inline constexpr uint32_t kFormatVersion = 1;

// At offset 0. Everything in a segment is immutable once the file is renamed
// into place, except `superseded`, which the writer sets (atomically) when a
// newer generation has replaced this file under the same path.
struct SegmentHeader {
    uint64_t magic;
    uint32_t format_version;
    uint32_t header_size;
    uint64_t total_size;       // == file size
    uint64_t generation;       // 1, 2, ... per path
    uint64_t header_checksum;  // FNV-1a of this header with checksum and superseded zeroed
    uint64_t superseded;       // 0 while current; 1 once a newer file took the path
    uint32_t nbuckets;
    uint32_t nentries;
    uint32_t nhosts;
    uint32_t reserved;
    uint64_t buckets_off;  // BucketRecord[nbuckets], sorted by (level, id)
    uint64_t entries_off;  // EntryRecord[nentries], per bucket sorted by key
    uint64_t hosts_off;    // HostRecord[nhosts], sorted by name
    uint64_t heap_off;     // keys, names and value payloads
    uint64_t heap_size;
    char nspace[PMIX_MAX_NSLEN + 1];
};

struct BucketRecord {
    uint32_t level;
    uint32_t id;
    uint32_t first_entry;
    uint32_t nentries;
};

// How a value's payload is encoded.
enum class Encoding : uint8_t {
    raw = 1,     // the bytes of pmix_value_t::data (types without pointers)
    string = 2,  // characters and the NUL
    bytes = 3,   // the bytes of a byte object
    packed = 4   // PMIx_Data_pack of a PMIX_VALUE
};

struct EntryRecord {
    uint64_t key_off;    // heap offset of a NUL-terminated key
    uint64_t value_off;  // heap offset of the payload
    uint32_t value_len;
    uint16_t type;     // pmix_data_type_t
    uint8_t encoding;  // Encoding
    uint8_t pad;
};

struct HostRecord {
    uint64_t name_off;  // heap offset of a NUL-terminated host name or alias
    uint32_t nodeid;
    uint32_t pad;
};

// FNV-1a over the header with the two fields that may differ zeroed.
uint64_t header_checksum(const SegmentHeader &header);

}  // namespace gds_shmem

#endif
