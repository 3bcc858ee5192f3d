// gds/hash: the data of one store, kept in hash tables in this process's
// memory. Registered data is bucketed per (nspace, level, id); a bucket is a
// short vector of (interned key, value) because a proc has a dozen keys and a
// linear scan of a dozen pointers beats a hash table in time and memory.
#ifndef PMIXPP_GDS_HASH_STORE_H
#define PMIXPP_GDS_HASH_STORE_H

#include <pmix_common.h>
#include <pmixpp/gds.h>

#include "../shared/gds_module.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gds_hash {

// One stored value; owns what its pmix_value_t points to.
class Entry {
public:
    Entry(const char *key, pmix_scope_t scope) : key_(key), scope_(scope) {}
    Entry(Entry &&other) noexcept;
    Entry &operator=(Entry &&other) noexcept;
    Entry(const Entry &) = delete;
    Entry &operator=(const Entry &) = delete;
    ~Entry();

    const char *key() const { return key_; }
    void set_key(const char *key) { key_ = key; }
    pmix_scope_t scope() const { return scope_; }
    const pmix_value_t &value() const { return value_; }
    pmix_value_t &value() { return value_; }

private:
    const char *key_;     // interned by the store: compared by pointer
    pmix_scope_t scope_;  // modex only
    pmix_value_t value_ = {};
};

using Bucket = std::vector<Entry>;

// Lets the namespace map be searched with the caller's const char * without
// building a std::string (an allocation on every fetch otherwise).
struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const noexcept { return std::hash<std::string_view>{}(name); }
};
struct NameEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
};
template <typename T> using NameMap = std::unordered_map<std::string, T, NameHash, NameEqual>;

// The buckets of one level, by id. Ranks, node ids and app numbers are
// nearly always dense from 0, so they index a vector (no hashing, no node
// per bucket: registering a million procs stays linear and cache-friendly);
// an id far beyond the others goes to a map, so a stray huge id cannot make
// the vector huge. An empty bucket counts as absent.
class BucketTable {
public:
    const Bucket *find(uint32_t id) const
    {
        if (id < dense_.size()) return dense_[id].empty() ? nullptr : &dense_[id];
        const auto it = sparse_.find(id);
        return it == sparse_.end() || it->second.empty() ? nullptr : &it->second;
    }
    Bucket &at(uint32_t id)
    {
        if (id < dense_.size()) return dense_[id];
        if (id - dense_.size() <= kMaxDenseGap && sparse_.empty()) {
            dense_.resize(static_cast<size_t>(id) + 1);
            return dense_[id];
        }
        return sparse_[id];
    }
    // Every non-empty bucket as fn(id, bucket).
    template <typename Fn> void for_each(Fn &&fn) const
    {
        for (size_t id = 0; id < dense_.size(); ++id) {
            if (!dense_[id].empty()) fn(static_cast<uint32_t>(id), dense_[id]);
        }
        for (const auto &[id, bucket] : sparse_) {
            if (!bucket.empty()) fn(id, bucket);
        }
    }
    size_t count() const
    {
        size_t n = 0;
        for_each([&n](uint32_t, const Bucket &) { ++n; });
        return n;
    }

private:
    static constexpr uint32_t kMaxDenseGap = 4096;
    std::vector<Bucket> dense_;
    std::unordered_map<uint32_t, Bucket> sparse_;
};

struct Namespace {
    std::array<BucketTable, PMIXPP_GDS_NUM_LEVELS> levels;
    NameMap<uint32_t> hostnames;  // name or alias -> node id
    std::unordered_map<pmix_rank_t, Bucket> modex;
};

// One bucket read back from an export: keys not interned yet.
struct ImportedBucket {
    pmixpp_gds_level_t level;
    uint32_t id;
    std::vector<std::string> keys;
    std::vector<Entry> entries;  // entries[i] belongs to keys[i]
};

class HashStore {
public:
    pmix_status_t store(const pmixpp_gds_address_t &addr, const pmix_info_t info[], size_t ninfo);
    pmix_status_t fetch(const pmixpp_gds_address_t &addr, const char *key, pmix_value_t **value_p) const;
    pmix_status_t fetch_all(const pmixpp_gds_address_t &addr, pmix_info_t **info_p, size_t *ninfo_p) const;
    pmix_status_t lookup_node(const char *nspace, const char *hostname, uint32_t *nodeid_p) const;
    bool has_nspace(const char *nspace) const;

    pmix_status_t store_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[],
                              size_t ninfo);
    pmix_status_t fetch_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, const char *key,
                              pmix_value_t **value_p) const;
    pmix_status_t fetch_modex_all(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, pmix_info_t **info_p,
                                  size_t *ninfo_p) const;

    pmix_status_t remove_nspace(const char *nspace);
    pmix_status_t export_nspace(const char *nspace, pmix_byte_object_t *blob_p) const;
    pmix_status_t import_nspace(const char *nspace, const pmix_byte_object_t &blob);

private:
    // Returns the interned copy of key; call with the lock held exclusively.
    const char *intern(const char *key);
    // intern() for the key at `position` of a store call: consecutive calls
    // (one per proc at registration) repeat the same keys in the same order,
    // so a strcmp against the last call's key usually replaces a hash lookup.
    const char *intern_at(size_t position, const char *key);
    // The namespace, created when new; call with the lock held exclusively.
    Namespace &namespace_entry(const char *nspace);
    // Deep copies of info made without the lock (keys interned later).
    static pmix_status_t copy_values(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope,
                                     std::vector<Entry> *entries_p);
    // Moves entries into bucket, replacing same-key entries. Each entry's
    // key still points at the caller's text and is interned here.
    void merge(Bucket &bucket, std::vector<Entry> &entries);
    static void index_hostnames(Namespace &ns, uint32_t nodeid, const Bucket &bucket);
    const Namespace *find(const char *nspace) const;

    mutable std::shared_mutex mutex_;
    NameMap<Namespace> nspaces_;
    std::unordered_set<std::string, NameHash, NameEqual> keys_;
    std::array<const char *, 32> recent_keys_{};
};

// Validation shared by the operations (gds.h lists the rules).
using gds_shared::valid_key;
using gds_shared::valid_level;
using gds_shared::valid_nspace;
using gds_shared::visible;

// A bucket as a malloc'ed info array, filtered by scope (for fetch_all).
pmix_status_t bucket_to_infos(const Bucket &bucket, pmix_scope_t visible_to, bool filter, pmix_info_t **info_p,
                              size_t *ninfo_p);

// Serialization of a namespace's registered data (hash_export.cc).
pmix_status_t pack_namespace(const char *nspace, const Namespace &ns, pmix_byte_object_t *blob_p);
// Reads an export back; PMIX_ERR_UNPACK_FAILURE when malformed,
// PMIX_ERR_BAD_PARAM when it is for another namespace.
pmix_status_t unpack_namespace(const char *nspace, const pmix_byte_object_t &blob,
                               std::vector<ImportedBucket> *buckets_p);

}  // namespace gds_hash

#endif
