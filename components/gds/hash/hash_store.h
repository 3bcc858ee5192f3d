// gds/hash: the data of one store, kept in hash tables in this process's
// memory. Registered data is bucketed per (nspace, level, id); a bucket is a
// short vector of (interned key, value) because a proc has a dozen keys and a
// linear scan of a dozen pointers beats a hash table in time and memory.
#ifndef PMIXPP_GDS_HASH_STORE_H
#define PMIXPP_GDS_HASH_STORE_H

#include <pmix_common.h>
#include <pmixpp/gds.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <shared_mutex>
#include <string>
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

struct Namespace {
    std::array<std::unordered_map<uint32_t, Bucket>, PMIXPP_GDS_NUM_LEVELS> levels;
    std::unordered_map<std::string, uint32_t> hostnames; // name or alias -> node id
    std::unordered_map<pmix_rank_t, Bucket> modex;
};

// One bucket read back from an export: keys not interned yet.
struct ImportedBucket {
    pmixpp_gds_level_t level;
    uint32_t id;
    std::vector<std::string> keys;
    std::vector<Entry> entries; // entries[i] belongs to keys[i]
};

class HashStore {
public:
    pmix_status_t store(const pmixpp_gds_address_t &addr, const pmix_info_t info[], size_t ninfo);
    pmix_status_t fetch(const pmixpp_gds_address_t &addr, const char *key,
                        pmix_value_t **value_p) const;
    pmix_status_t fetch_all(const pmixpp_gds_address_t &addr, pmix_info_t **info_p,
                            size_t *ninfo_p) const;
    pmix_status_t lookup_node(const char *nspace, const char *hostname, uint32_t *nodeid_p) const;
    bool has_nspace(const char *nspace) const;

    pmix_status_t store_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t scope,
                              const pmix_info_t info[], size_t ninfo);
    pmix_status_t fetch_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to,
                              const char *key, pmix_value_t **value_p) const;
    pmix_status_t fetch_modex_all(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to,
                                  pmix_info_t **info_p, size_t *ninfo_p) const;

    pmix_status_t remove_nspace(const char *nspace);
    pmix_status_t export_nspace(const char *nspace, pmix_byte_object_t *blob_p) const;
    pmix_status_t import_nspace(const char *nspace, const pmix_byte_object_t &blob);

private:
    // Returns the interned copy of key; call with the lock held exclusively.
    const char *intern(const char *key);
    // Deep copies of info made without the lock (keys interned later).
    static pmix_status_t copy_values(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope,
                                     std::vector<Entry> *entries_p);
    // Moves entries into bucket, replacing same-key entries. Each entry's
    // key still points at the caller's text and is interned here.
    void merge(Bucket &bucket, std::vector<Entry> &entries);
    static void index_hostnames(Namespace &ns, uint32_t nodeid, const Bucket &bucket);
    const Namespace *find(const char *nspace) const;

    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string, Namespace> nspaces_;
    std::unordered_set<std::string> keys_;
};

// Validation shared by the operations (gds.h lists the rules).
bool valid_nspace(const char *nspace);
bool valid_key(const char *key);
bool valid_level(pmixpp_gds_level_t level);
// True when an entry put with `scope` may be seen by a requester in `visible_to`.
bool visible(pmix_scope_t scope, pmix_scope_t visible_to);

// A bucket as a malloc'ed info array, filtered by scope (for fetch_all).
pmix_status_t bucket_to_infos(const Bucket &bucket, pmix_scope_t visible_to, bool filter,
                              pmix_info_t **info_p, size_t *ninfo_p);

// Serialization of a namespace's registered data (hash_export.cc).
pmix_status_t pack_namespace(const char *nspace, const Namespace &ns, pmix_byte_object_t *blob_p);
// Reads an export back; PMIX_ERR_UNPACK_FAILURE when malformed,
// PMIX_ERR_BAD_PARAM when it is for another namespace.
pmix_status_t unpack_namespace(const char *nspace, const pmix_byte_object_t &blob,
                               std::vector<ImportedBucket> *buckets_p);

} // namespace gds_hash

#endif
