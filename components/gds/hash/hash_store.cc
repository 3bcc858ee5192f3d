// gds/hash: the store operations. Values are deep-copied before the lock is
// taken, so writers hold it only to move entries in, and readers (fetch)
// copy out under a shared lock.
#include "hash_store.h"

#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string_view>

namespace gds_hash {

Entry::Entry(Entry &&other) noexcept : key_(other.key_), scope_(other.scope_), value_(other.value_)
{
    other.value_ = {};
}

Entry &Entry::operator=(Entry &&other) noexcept
{
    if (this != &other) {
        PMIx_Value_destruct(&value_);
        key_ = other.key_;
        scope_ = other.scope_;
        value_ = other.value_;
        other.value_ = {};
    }
    return *this;
}

Entry::~Entry()
{
    PMIx_Value_destruct(&value_);
}

namespace {

uint32_t bucket_id(const pmixpp_gds_address_t &addr)
{
    // The job level has one bucket, whatever id the caller passes.
    return addr.level == PMIXPP_GDS_LEVEL_JOB ? 0 : addr.id;
}

// Whether two entries share a key (a caller may repeat one). Keys are
// interned, so pointers compare; n is a dozen.
bool has_duplicate_keys(const std::vector<Entry> &entries)
{
    for (size_t i = 0; i < entries.size(); ++i) {
        for (size_t j = i + 1; j < entries.size(); ++j) {
            if (entries[i].key() == entries[j].key()) return true;
        }
    }
    return false;
}

const Entry *find_entry(const Bucket &bucket, std::string_view key)
{
    for (const Entry &entry : bucket) {
        if (key == entry.key()) return &entry;
    }
    return nullptr;
}

pmix_status_t copy_out(const pmix_value_t &value, pmix_value_t **value_p)
{
    auto *copy = static_cast<pmix_value_t *>(std::calloc(1, sizeof(pmix_value_t)));
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    const pmix_status_t rc = PMIx_Value_xfer(copy, &value);
    if (rc != PMIX_SUCCESS) {
        std::free(copy);
        return rc;
    }
    *value_p = copy;
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t bucket_to_infos(const Bucket &bucket, pmix_scope_t visible_to, bool filter, pmix_info_t **info_p,
                              size_t *ninfo_p)
{
    size_t count = 0;
    for (const Entry &entry : bucket) {
        if (!filter || visible(entry.scope(), visible_to)) ++count;
    }
    if (count == 0) return PMIX_ERR_NOT_FOUND;
    pmix_info_t *infos;
    PMIX_INFO_CREATE(infos, count);
    if (infos == nullptr) return PMIX_ERR_NOMEM;
    size_t n = 0;
    for (const Entry &entry : bucket) {
        if (filter && !visible(entry.scope(), visible_to)) continue;
        PMIX_LOAD_KEY(infos[n].key, entry.key());
        const pmix_status_t rc = PMIx_Value_xfer(&infos[n].value, &entry.value());
        if (rc != PMIX_SUCCESS) {
            PMIX_INFO_FREE(infos, count);
            return rc;
        }
        ++n;
    }
    *info_p = infos;
    *ninfo_p = count;
    return PMIX_SUCCESS;
}

const char *HashStore::intern(const char *key)
{
    // Look before inserting: a known key (the common case) costs no string.
    const auto it = keys_.find(key);
    return it != keys_.end() ? it->c_str() : keys_.emplace(key).first->c_str();
}

const char *HashStore::intern_at(size_t position, const char *key)
{
    if (position >= recent_keys_.size()) return intern(key);
    const char *recent = recent_keys_[position];
    if (recent != nullptr && std::strcmp(recent, key) == 0) return recent;
    return recent_keys_[position] = intern(key);
}

Namespace &HashStore::namespace_entry(const char *nspace)
{
    const auto it = nspaces_.find(nspace);
    return it != nspaces_.end() ? it->second : nspaces_[nspace];
}

pmix_status_t HashStore::copy_values(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope,
                                     std::vector<Entry> *entries_p)
{
    if (ninfo > 0 && info == nullptr) return PMIX_ERR_BAD_PARAM;
    std::vector<Entry> entries;
    entries.reserve(ninfo);
    for (size_t i = 0; i < ninfo; ++i) {
        if (!valid_key(info[i].key)) return PMIX_ERR_BAD_PARAM;
        entries.emplace_back(info[i].key, scope);
        const pmix_status_t rc = PMIx_Value_xfer(&entries.back().value(), &info[i].value);
        if (rc != PMIX_SUCCESS) return rc;
    }
    *entries_p = std::move(entries);
    return PMIX_SUCCESS;
}

void HashStore::merge(Bucket &bucket, std::vector<Entry> &entries)
{
    if (bucket.empty()) {
        // A new bucket (every proc at registration): take the vector whole,
        // no search and no regrowth. Keys are unique within one store call
        // unless the caller repeated one; then the later value wins below.
        for (size_t i = 0; i < entries.size(); ++i) entries[i].set_key(intern_at(i, entries[i].key()));
        if (!has_duplicate_keys(entries)) {
            bucket = std::move(entries);
            return;
        }
    }
    for (Entry &entry : entries) {
        entry.set_key(intern(entry.key()));
        bool replaced = false;
        for (Entry &old : bucket) {
            if (old.key() == entry.key()) {
                old = std::move(entry);
                replaced = true;
                break;
            }
        }
        if (!replaced) bucket.push_back(std::move(entry));
    }
}

void HashStore::index_hostnames(Namespace &ns, uint32_t nodeid, const Bucket &bucket)
{
    for (const Entry &entry : bucket) {
        const pmix_value_t &value = entry.value();
        if (value.type != PMIX_STRING || value.data.string == nullptr) continue;
        if (std::strcmp(entry.key(), PMIX_HOSTNAME) == 0) {
            ns.hostnames[value.data.string] = nodeid;
        } else if (std::strcmp(entry.key(), PMIX_HOSTNAME_ALIASES) == 0) {
            std::string_view aliases = value.data.string;
            while (!aliases.empty()) {
                const size_t comma = aliases.find(',');
                const std::string_view alias = aliases.substr(0, comma);
                if (!alias.empty()) ns.hostnames[std::string(alias)] = nodeid;
                if (comma == std::string_view::npos) break;
                aliases.remove_prefix(comma + 1);
            }
        }
    }
}

const Namespace *HashStore::find(const char *nspace) const
{
    const auto it = nspaces_.find(nspace);
    return it == nspaces_.end() ? nullptr : &it->second;
}

pmix_status_t HashStore::store(const pmixpp_gds_address_t &addr, const pmix_info_t info[], size_t ninfo)
{
    if (!valid_nspace(addr.nspace) || !valid_level(addr)) return PMIX_ERR_BAD_PARAM;
    std::vector<Entry> entries;
    pmix_status_t rc = copy_values(info, ninfo, PMIX_SCOPE_UNDEF, &entries);
    if (rc != PMIX_SUCCESS) return rc;
    std::unique_lock lock(mutex_);
    Namespace &ns = namespace_entry(addr.nspace);
    Bucket &bucket = ns.levels[addr.level].at(bucket_id(addr));
    merge(bucket, entries);
    if (addr.level == PMIXPP_GDS_LEVEL_NODE) index_hostnames(ns, addr.id, bucket);
    return PMIX_SUCCESS;
}

pmix_status_t HashStore::fetch(const pmixpp_gds_address_t &addr, const char *key, pmix_value_t **value_p) const
{
    if (!valid_nspace(addr.nspace) || !valid_level(addr) || !valid_key(key) || value_p == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    std::shared_lock lock(mutex_);
    const Namespace *ns = find(addr.nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
    const Bucket *bucket = ns->levels[addr.level].find(bucket_id(addr));
    if (bucket == nullptr) return PMIX_ERR_NOT_FOUND;
    const Entry *entry = find_entry(*bucket, key);
    if (entry == nullptr) return PMIX_ERR_NOT_FOUND;
    return copy_out(entry->value(), value_p);
}

pmix_status_t HashStore::fetch_all(const pmixpp_gds_address_t &addr, pmix_info_t **info_p, size_t *ninfo_p) const
{
    if (!valid_nspace(addr.nspace) || !valid_level(addr) || info_p == nullptr || ninfo_p == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    std::shared_lock lock(mutex_);
    const Namespace *ns = find(addr.nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
    const Bucket *bucket = ns->levels[addr.level].find(bucket_id(addr));
    if (bucket == nullptr) return PMIX_ERR_NOT_FOUND;
    return bucket_to_infos(*bucket, PMIX_SCOPE_UNDEF, false, info_p, ninfo_p);
}

pmix_status_t HashStore::lookup_node(const char *nspace, const char *hostname, uint32_t *nodeid_p) const
{
    if (!valid_nspace(nspace) || hostname == nullptr || nodeid_p == nullptr) return PMIX_ERR_BAD_PARAM;
    std::shared_lock lock(mutex_);
    const Namespace *ns = find(nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
    const auto it = ns->hostnames.find(hostname);
    if (it == ns->hostnames.end()) return PMIX_ERR_NOT_FOUND;
    *nodeid_p = it->second;
    return PMIX_SUCCESS;
}

bool HashStore::has_nspace(const char *nspace) const
{
    if (!valid_nspace(nspace)) return false;
    std::shared_lock lock(mutex_);
    return find(nspace) != nullptr;
}

pmix_status_t HashStore::store_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[],
                                     size_t ninfo)
{
    if (!valid_nspace(nspace)) return PMIX_ERR_BAD_PARAM;
    if (scope != PMIX_LOCAL && scope != PMIX_REMOTE && scope != PMIX_GLOBAL && scope != PMIX_INTERNAL) {
        return PMIX_ERR_BAD_PARAM;
    }
    std::vector<Entry> entries;
    pmix_status_t rc = copy_values(info, ninfo, scope, &entries);
    if (rc != PMIX_SUCCESS) return rc;
    std::unique_lock lock(mutex_);
    merge(namespace_entry(nspace).modex[rank], entries);
    return PMIX_SUCCESS;
}

pmix_status_t HashStore::fetch_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, const char *key,
                                     pmix_value_t **value_p) const
{
    if (!valid_nspace(nspace) || !valid_key(key) || value_p == nullptr) return PMIX_ERR_BAD_PARAM;
    std::shared_lock lock(mutex_);
    const Namespace *ns = find(nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
    const auto it = ns->modex.find(rank);
    if (it == ns->modex.end()) return PMIX_ERR_NOT_FOUND;
    const Entry *entry = find_entry(it->second, key);
    if (entry == nullptr || !visible(entry->scope(), visible_to)) return PMIX_ERR_NOT_FOUND;
    return copy_out(entry->value(), value_p);
}

pmix_status_t HashStore::fetch_modex_all(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to,
                                         pmix_info_t **info_p, size_t *ninfo_p) const
{
    if (!valid_nspace(nspace) || info_p == nullptr || ninfo_p == nullptr) return PMIX_ERR_BAD_PARAM;
    std::shared_lock lock(mutex_);
    const Namespace *ns = find(nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
    const auto it = ns->modex.find(rank);
    if (it == ns->modex.end()) return PMIX_ERR_NOT_FOUND;
    return bucket_to_infos(it->second, visible_to, true, info_p, ninfo_p);
}

pmix_status_t HashStore::remove_nspace(const char *nspace)
{
    if (!valid_nspace(nspace)) return PMIX_ERR_BAD_PARAM;
    Namespace doomed;
    {
        std::unique_lock lock(mutex_);
        const auto it = nspaces_.find(nspace);
        if (it == nspaces_.end()) return PMIX_ERR_NOT_FOUND;
        doomed = std::move(it->second);
        nspaces_.erase(it);
    }
    return PMIX_SUCCESS;  // values are released here, outside the lock
}

pmix_status_t HashStore::export_nspace(const char *nspace, pmix_byte_object_t *blob_p) const
{
    if (!valid_nspace(nspace) || blob_p == nullptr) return PMIX_ERR_BAD_PARAM;
    std::shared_lock lock(mutex_);
    const Namespace *ns = find(nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
    return pack_namespace(nspace, *ns, blob_p);
}

pmix_status_t HashStore::import_nspace(const char *nspace, const pmix_byte_object_t &blob)
{
    if (!valid_nspace(nspace)) return PMIX_ERR_BAD_PARAM;
    std::vector<ImportedBucket> buckets;
    const pmix_status_t rc = unpack_namespace(nspace, blob, &buckets);
    if (rc != PMIX_SUCCESS) return rc;
    Namespace fresh;
    std::unique_lock lock(mutex_);
    Namespace &ns = namespace_entry(nspace);
    // The export replaces the registered data wholesale; modex data stays.
    fresh.modex = std::move(ns.modex);
    ns = std::move(fresh);
    for (ImportedBucket &imported : buckets) {
        Bucket &bucket = ns.levels[imported.level].at(imported.id);
        merge(bucket, imported.entries);
        if (imported.level == PMIXPP_GDS_LEVEL_NODE) index_hostnames(ns, imported.id, bucket);
    }
    return PMIX_SUCCESS;
}

}  // namespace gds_hash
