#include "local_data.h"

#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace gds_shmem {

LocalEntry::LocalEntry(LocalEntry &&other) noexcept
    : key(other.key), type(other.type), scope(other.scope), shared_text(other.shared_text), data(other.data)
{
    other.type = PMIX_UNDEF;
    other.shared_text = false;
}

LocalEntry &LocalEntry::operator=(LocalEntry &&other) noexcept
{
    if (this != &other) {
        release();
        key = other.key;
        type = other.type;
        scope = other.scope;
        shared_text = other.shared_text;
        data = other.data;
        other.type = PMIX_UNDEF;
        other.shared_text = false;
    }
    return *this;
}

void LocalEntry::release()
{
    if (!shared_text) {
        pmix_value_t v = value();
        PMIx_Value_destruct(&v);
    }
    type = PMIX_UNDEF;
    shared_text = false;
}

const char *StringPool::share(size_t position, const char *text)
{
    if (position >= recent_.size()) return nullptr;
    const std::string_view view(text, strnlen(text, kMaxShared + 1));
    if (view.size() > kMaxShared) return nullptr;
    if (recent_[position] != nullptr && view == recent_[position]) return recent_[position];
    if (view != last_[position]) {
        last_[position].assign(view);
        return nullptr;
    }
    auto it = strings_.find(view);
    if (it == strings_.end()) it = strings_.emplace(view).first;
    recent_[position] = it->c_str();
    return it->c_str();
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

const char *KeyTable::intern(size_t position, const char *key)
{
    const std::string_view text(key, strnlen(key, PMIX_MAX_KEYLEN));
    const char *recent = position < recent_.size() ? recent_[position] : nullptr;
    if (recent != nullptr && text == recent) return recent;
    auto it = keys_.find(text);
    if (it == keys_.end()) it = keys_.emplace(text).first;
    if (position < recent_.size()) recent_[position] = it->c_str();
    return it->c_str();
}

pmix_status_t copy_infos(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope, KeyTable &keys,
                         StringPool *pool, std::vector<LocalEntry> *entries_p)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    for (size_t i = 0; i < ninfo; ++i) {
        if (!valid_key(info[i].key)) return PMIX_ERR_BAD_PARAM;
    }
    std::vector<LocalEntry> entries;
    entries.reserve(ninfo);
    for (size_t i = 0; i < ninfo; ++i) {
        LocalEntry &entry = entries.emplace_back(keys.intern(i, info[i].key), scope);
        const pmix_value_t &given = info[i].value;
        if (pool != nullptr && given.type == PMIX_STRING && given.data.string != nullptr) {
            if (const char *shared = pool->share(i, given.data.string)) {
                entry.type = PMIX_STRING;
                entry.data.string = const_cast<char *>(shared); // never written through
                entry.shared_text = true;
                continue;
            }
        }
        pmix_value_t copy{};
        const pmix_status_t rc = PMIx_Value_xfer(&copy, &given);
        if (rc != PMIX_SUCCESS) {
            PMIx_Value_destruct(&copy);
            return rc;
        }
        entry.adopt(copy);
    }
    *entries_p = std::move(entries);
    return PMIX_SUCCESS;
}

namespace {

bool has_duplicate_keys(const std::vector<LocalEntry> &entries)
{
    for (size_t i = 0; i < entries.size(); ++i) {
        for (size_t j = i + 1; j < entries.size(); ++j) {
            if (entries[i].key == entries[j].key) return true;
        }
    }
    return false;
}

void merge(LocalBucket &bucket, std::vector<LocalEntry> &entries)
{
    // A new bucket (every proc at registration) takes the vector whole: no
    // search and no regrowth, one allocation per bucket instead of several.
    if (bucket.empty() && !has_duplicate_keys(entries)) {
        bucket = std::move(entries);
        return;
    }
    for (LocalEntry &entry : entries) {
        bool replaced = false;
        for (LocalEntry &old : bucket) {
            if (old.key == entry.key) {
                old = std::move(entry);
                replaced = true;
                break;
            }
        }
        if (!replaced) bucket.push_back(std::move(entry));
    }
}

void index_hostnames(std::unordered_map<std::string, uint32_t> &index, uint32_t nodeid,
                     const LocalBucket &bucket)
{
    for (const LocalEntry &entry : bucket) {
        if (entry.type != PMIX_STRING || entry.data.string == nullptr) continue;
        if (std::strcmp(entry.key, PMIX_HOSTNAME) == 0) {
            index[entry.data.string] = nodeid;
        } else if (std::strcmp(entry.key, PMIX_HOSTNAME_ALIASES) == 0) {
            std::string_view rest(entry.data.string);
            while (!rest.empty()) {
                const size_t comma = rest.find(',');
                const std::string_view name = rest.substr(0, comma);
                if (!name.empty()) index[std::string(name)] = nodeid;
                rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            }
        }
    }
}

} // namespace

const LocalBucket *BucketTable::find(pmixpp_gds_level_t level, uint32_t id) const
{
    if (level == PMIXPP_GDS_LEVEL_PROC && id < procs_.size()) return proc_created_[id] ? &procs_[id] : nullptr;
    const auto it = others_.find(bucket_key(level, id));
    return it == others_.end() ? nullptr : &it->second;
}

LocalBucket &BucketTable::slot(pmixpp_gds_level_t level, uint32_t id)
{
    const uint64_t key = bucket_key(level, id);
    // Once a proc went to the map the vector stops growing, so no rank is
    // ever in both.
    const bool dense = level == PMIXPP_GDS_LEVEL_PROC &&
                       (id < procs_.size() || (!sparse_procs_ && id - procs_.size() <= kMaxDenseGap));
    if (!dense) {
        const auto [it, inserted] = others_.try_emplace(key);
        if (inserted) ++created_;
        if (level == PMIXPP_GDS_LEVEL_PROC) sparse_procs_ = true;
        return it->second;
    }
    if (id >= procs_.size()) {
        procs_.resize(size_t{id} + 1); // grows geometrically: rank after rank stays linear
        proc_created_.resize(size_t{id} + 1, false);
    }
    if (!proc_created_[id]) {
        proc_created_[id] = true;
        ++created_;
    }
    return procs_[id];
}

std::vector<uint64_t> BucketTable::nonempty_keys() const
{
    std::vector<uint64_t> keys;
    keys.reserve(created_);
    for (size_t r = 0; r < procs_.size(); ++r) {
        if (!procs_[r].empty()) keys.push_back(bucket_key(PMIXPP_GDS_LEVEL_PROC, static_cast<uint32_t>(r)));
    }
    for (const auto &[key, bucket] : others_) {
        if (!bucket.empty()) keys.push_back(key);
    }
    return keys;
}

const LocalEntry *LocalData::find(pmixpp_gds_level_t level, uint32_t id, const char *key) const
{
    const LocalBucket *bucket = buckets.find(level, id);
    if (bucket == nullptr) return nullptr;
    for (const LocalEntry &entry : *bucket) {
        if (std::strcmp(entry.key, key) == 0) return &entry;
    }
    return nullptr;
}

pmix_status_t LocalData::store(pmixpp_gds_level_t level, uint32_t id, const pmix_info_t info[], size_t ninfo)
{
    std::vector<LocalEntry> entries;
    const pmix_status_t rc = copy_infos(info, ninfo, PMIX_SCOPE_UNDEF, keys, &strings, &entries);
    if (rc != PMIX_SUCCESS) return rc;
    LocalBucket &bucket = buckets.slot(level, id);
    merge(bucket, entries);
    if (level == PMIXPP_GDS_LEVEL_NODE) index_hostnames(hostnames, id, bucket);
    return PMIX_SUCCESS;
}

pmix_status_t LocalData::store_modex(pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[],
                                     size_t ninfo)
{
    std::vector<LocalEntry> entries;
    const pmix_status_t rc = copy_infos(info, ninfo, scope, keys, nullptr, &entries);
    if (rc != PMIX_SUCCESS) return rc;
    merge(modex[rank], entries);
    return PMIX_SUCCESS;
}

} // namespace gds_shmem
