// gds/shmem: data kept in this process's memory. On a server this is the
// authoritative copy of each namespace (segments are written from it); on a
// client it holds what the client stored itself on top of a mapped segment.
// Modex data always lives here (version 1 does not share it).
#ifndef PMIXPP_GDS_SHMEM_LOCAL_DATA_H
#define PMIXPP_GDS_SHMEM_LOCAL_DATA_H

#include <pmix_common.h>
#include <pmixpp/gds.h>

#include "../shared/gds_module.hpp"

#include <cstdint>
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gds_shmem {

// The keys of one LocalData, each stored once: every proc bucket repeats the
// same dozen keys, and a pointer is a quarter of a std::string. Interned
// keys live as long as the table (entries compare them by pointer).
class KeyTable {
public:
    const char *intern(size_t position, const char *key);

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_set<std::string, Hash, std::equal_to<>> keys_;
    // The key at each position of the previous store call: registration
    // repeats the same keys in the same order for every proc.
    std::array<const char *, 32> recent_{};
};

// Text values repeated from one store call to the next at the same position
// (the host name of every proc of a node), kept once per LocalData. Only
// text seen twice in a row enters, so values unique to one proc never cost
// a pool node.
class StringPool {
public:
    // The pooled copy of text, or nullptr when it is not worth sharing.
    const char *share(size_t position, const char *text);

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    static constexpr size_t kMaxShared = 256;  // longer text is rarely repeated
    std::unordered_set<std::string, Hash, std::equal_to<>> strings_;
    std::array<const char *, 32> recent_{};  // pooled text at each position
    std::array<std::string, 32> last_{};     // unpooled text at each position
};

// One stored value; owns what its value points to unless the text is
// shared from the LocalData's StringPool. A big job stores several per proc,
// so an entry is 24 bytes: a value whose data union fits in its first 8
// bytes (every integer, a string or other pointer) is kept inline; anything
// wider (byte objects, envars, timevals) is boxed in a malloc'ed copy of the
// union.
class LocalEntry {
public:
    using Data = decltype(pmix_value_t::data);

    LocalEntry(const char *k, pmix_scope_t s) : key(k), scope(s) {}
    LocalEntry(LocalEntry &&other) noexcept;
    LocalEntry &operator=(LocalEntry &&other) noexcept;
    LocalEntry(const LocalEntry &) = delete;
    LocalEntry &operator=(const LocalEntry &) = delete;
    ~LocalEntry() { release(); }

    // A shallow view (valid while the entry lives); copy it to keep it.
    pmix_value_t value() const;
    // Takes ownership of what v points to: on success v must not be
    // destructed by the caller; on PMIX_ERR_NOMEM it still owns it.
    pmix_status_t adopt(const pmix_value_t &v);
    // Points at text from a StringPool (never freed by the entry).
    void share_text(const char *text);
    // The string of a PMIX_STRING entry, else nullptr.
    const char *text() const;
    pmix_data_type_t type() const { return type_; }

    // Members in this order pack into 24 bytes.
    const char *key;  // interned in the LocalData's KeyTable

private:
    void release();
    static constexpr uint8_t kShared = 1;
    static constexpr uint8_t kBoxed = 2;

    uint64_t word_ = 0;  // the data union's first 8 bytes, or its boxed copy
    pmix_data_type_t type_ = PMIX_UNDEF;

public:
    pmix_scope_t scope;  // modex only

private:
    uint8_t flags_ = 0;
};
static_assert(sizeof(LocalEntry) == 24);

using LocalBucket = std::vector<LocalEntry>;
// A read-only view of a bucket, wherever it lives.
using BucketView = std::span<const LocalEntry>;

inline uint64_t bucket_key(pmixpp_gds_level_t level, uint32_t id)
{
    return (static_cast<uint64_t>(level) << 32) | id;
}

// Storage for the entries of proc buckets: bump-allocated from large
// chunks, so a million procs cost no allocation (and no allocator header)
// each. Space given up when a bucket moves is not reused; that only
// happens when a proc gains keys after registration.
class EntryArena {
public:
    EntryArena() = default;
    EntryArena(const EntryArena &) = delete;
    EntryArena &operator=(const EntryArena &) = delete;
    // Uninitialized room for n entries; throws std::bad_alloc.
    LocalEntry *allocate(size_t n);

private:
    // Chunks double from a few pages (a small job stays small) up to one
    // 2 MiB huge page each: a million-proc job then takes ~100 page faults
    // for its entries instead of ~50,000, most of the cost of storing them.
    static constexpr size_t kFirstChunkBytes = 16 * 1024;
    static constexpr size_t kHugePageBytes = 2 * 1024 * 1024;
    struct Free {
        void operator()(void *chunk) const { std::free(chunk); }
    };
    LocalEntry *new_chunk(size_t bytes);

    std::vector<std::unique_ptr<void, Free>> chunks_;
    LocalEntry *next_ = nullptr;  // free room in the newest chunk
    size_t left_ = 0;             // entries left there
    size_t last_bytes_ = 0;       // size of the newest chunk
};

// The buckets of one namespace by (level, id). Proc ranks are dense from 0
// in nearly every job, so proc buckets are slices of an EntryArena indexed
// by rank (16 bytes a proc besides the entries); a rank far past the
// others, and every other level, goes to the map.
class BucketTable {
public:
    BucketTable() = default;
    BucketTable(const BucketTable &) = delete;
    BucketTable &operator=(const BucketTable &) = delete;
    ~BucketTable();

    // The bucket, or nullopt when it was never created.
    std::optional<BucketView> find(pmixpp_gds_level_t level, uint32_t id) const;
    // Merges entries into the bucket (created when missing): an entry
    // replaces the one with the same key. Throws std::bad_alloc.
    void merge(pmixpp_gds_level_t level, uint32_t id, std::vector<LocalEntry> &entries);
    bool empty() const { return created_ == 0; }
    // Keys (bucket_key) of the non-empty buckets, in no particular order.
    std::vector<uint64_t> nonempty_keys() const;

private:
    struct Slice {
        LocalEntry *first = nullptr;
        uint32_t count = 0;
        uint32_t capacity = 0;  // kCreated marks a created bucket
    };
    static constexpr uint32_t kCreated = 1u << 31;
    static constexpr size_t kMaxDenseGap = 65536;

    bool dense(pmixpp_gds_level_t level, uint32_t id) const;
    void merge_slice(Slice &slice, std::vector<LocalEntry> &entries);

    EntryArena arena_;
    std::vector<Slice> procs_;
    std::unordered_map<uint64_t, LocalBucket> others_;  // bucket_key(level, id)
    size_t created_ = 0;
    bool sparse_procs_ = false;
};

struct LocalData {
    StringPool strings;  // before the buckets: outlives the entries sharing it
    BucketTable buckets;
    std::unordered_map<std::string, uint32_t> hostnames;
    std::unordered_map<pmix_rank_t, LocalBucket> modex;
    KeyTable keys;

    bool empty() const { return buckets.empty() && modex.empty(); }
    const LocalEntry *find(pmixpp_gds_level_t level, uint32_t id, const char *key) const;
    // Deep copies of info merged into the bucket (same key replaced); node
    // level host names enter the index.
    pmix_status_t store(pmixpp_gds_level_t level, uint32_t id, const pmix_info_t info[], size_t ninfo);
    pmix_status_t store_modex(pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[], size_t ninfo);
};

// Deep copies of info (validated first: nothing is copied on a bad key).
// With a pool, repeated text is shared instead of copied.
pmix_status_t copy_infos(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope, KeyTable &keys, StringPool *pool,
                         std::vector<LocalEntry> *entries_p);

// Validation shared by the operations (gds.h lists the rules).
using gds_shared::valid_key;
using gds_shared::valid_level;
using gds_shared::valid_nspace;
using gds_shared::visible;

// A malloc'ed deep copy of value.
pmix_status_t copy_out(const pmix_value_t &value, pmix_value_t **value_p);

}  // namespace gds_shmem

#endif
