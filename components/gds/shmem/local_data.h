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

// One stored value; owns what its pmix_value_t points to.
struct LocalEntry {
    LocalEntry(const char *k, pmix_scope_t s) : key(k), scope(s) {}
    LocalEntry(LocalEntry &&other) noexcept;
    LocalEntry &operator=(LocalEntry &&other) noexcept;
    LocalEntry(const LocalEntry &) = delete;
    LocalEntry &operator=(const LocalEntry &) = delete;
    ~LocalEntry();

    const char *key; // interned in the LocalData's KeyTable
    pmix_scope_t scope; // modex only
    pmix_value_t value = {};
};

using LocalBucket = std::vector<LocalEntry>;

inline uint64_t bucket_key(pmixpp_gds_level_t level, uint32_t id)
{
    return (static_cast<uint64_t>(level) << 32) | id;
}

struct LocalData {
    std::unordered_map<uint64_t, LocalBucket> buckets; // bucket_key(level, id)
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
pmix_status_t copy_infos(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope, KeyTable &keys,
                         std::vector<LocalEntry> *entries_p);

// Validation shared by the operations (gds.h lists the rules).
using gds_shared::valid_key;
using gds_shared::valid_level;
using gds_shared::valid_nspace;
using gds_shared::visible;

// A malloc'ed deep copy of value.
pmix_status_t copy_out(const pmix_value_t &value, pmix_value_t **value_p);

} // namespace gds_shmem

#endif
