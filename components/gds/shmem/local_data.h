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
    static constexpr size_t kMaxShared = 256; // longer text is rarely repeated
    std::unordered_set<std::string, Hash, std::equal_to<>> strings_;
    std::array<const char *, 32> recent_{}; // pooled text at each position
    std::array<std::string, 32> last_{};    // unpooled text at each position
};

// One stored value; owns what its value points to unless the text is
// shared from the LocalData's StringPool. The value's type and data are
// kept apart so they pack beside the key and scope (40 bytes instead of 48):
// a big job stores several per proc.
struct LocalEntry {
    using Data = decltype(pmix_value_t::data);

    LocalEntry(const char *k, pmix_scope_t s) : key(k), scope(s) {}
    LocalEntry(LocalEntry &&other) noexcept;
    LocalEntry &operator=(LocalEntry &&other) noexcept;
    LocalEntry(const LocalEntry &) = delete;
    LocalEntry &operator=(const LocalEntry &) = delete;
    ~LocalEntry() { release(); }

    // A shallow view (valid while the entry lives); copy it to keep it.
    pmix_value_t value() const
    {
        pmix_value_t v{};
        v.type = type;
        v.data = data;
        return v;
    }
    // Takes ownership of what v points to.
    void adopt(const pmix_value_t &v)
    {
        type = v.type;
        data = v.data;
    }
    void release();

    const char *key; // interned in the LocalData's KeyTable
    pmix_data_type_t type = PMIX_UNDEF;
    pmix_scope_t scope; // modex only
    bool shared_text = false; // data.string belongs to a StringPool
    Data data{};
};
static_assert(sizeof(LocalEntry) == 40); // a pmix_value_t is 32 bytes; 48 with it whole

using LocalBucket = std::vector<LocalEntry>;

inline uint64_t bucket_key(pmixpp_gds_level_t level, uint32_t id)
{
    return (static_cast<uint64_t>(level) << 32) | id;
}

// The buckets of one namespace by (level, id). Proc ranks are dense from 0
// in nearly every job, so proc buckets are a vector indexed by rank (no hash
// node per proc: that node was a tenth of a big job's memory); a rank far
// past the others, and every other level, goes to the map.
class BucketTable {
public:
    const LocalBucket *find(pmixpp_gds_level_t level, uint32_t id) const;
    // The bucket, created empty when missing.
    LocalBucket &slot(pmixpp_gds_level_t level, uint32_t id);
    bool empty() const { return created_ == 0; }
    // Keys (bucket_key) of the non-empty buckets, in no particular order.
    std::vector<uint64_t> nonempty_keys() const;

private:
    static constexpr size_t kMaxDenseGap = 65536;
    std::vector<LocalBucket> procs_;
    std::vector<bool> proc_created_;
    std::unordered_map<uint64_t, LocalBucket> others_; // bucket_key(level, id)
    size_t created_ = 0;
    bool sparse_procs_ = false;
};

struct LocalData {
    StringPool strings; // before the buckets: outlives the entries sharing it
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
pmix_status_t copy_infos(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope, KeyTable &keys,
                         StringPool *pool, std::vector<LocalEntry> *entries_p);

// Validation shared by the operations (gds.h lists the rules).
using gds_shared::valid_key;
using gds_shared::valid_level;
using gds_shared::valid_nspace;
using gds_shared::visible;

// A malloc'ed deep copy of value.
pmix_status_t copy_out(const pmix_value_t &value, pmix_value_t **value_p);

} // namespace gds_shmem

#endif
