#include "local_data.h"

#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace gds_shmem {

LocalEntry::LocalEntry(LocalEntry &&other) noexcept
    : key(other.key), scope(other.scope), value(other.value)
{
    other.value = {};
}

LocalEntry &LocalEntry::operator=(LocalEntry &&other) noexcept
{
    if (this != &other) {
        PMIx_Value_destruct(&value);
        key = other.key;
        scope = other.scope;
        value = other.value;
        other.value = {};
    }
    return *this;
}

LocalEntry::~LocalEntry() { PMIx_Value_destruct(&value); }

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
                         std::vector<LocalEntry> *entries_p)
{
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    for (size_t i = 0; i < ninfo; ++i) {
        if (!valid_key(info[i].key)) return PMIX_ERR_BAD_PARAM;
    }
    std::vector<LocalEntry> entries;
    entries.reserve(ninfo);
    for (size_t i = 0; i < ninfo; ++i) {
        entries.emplace_back(keys.intern(i, info[i].key), scope);
        const pmix_status_t rc = PMIx_Value_xfer(&entries.back().value, &info[i].value);
        if (rc != PMIX_SUCCESS) return rc;
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
        if (entry.value.type != PMIX_STRING || entry.value.data.string == nullptr) continue;
        if (std::strcmp(entry.key, PMIX_HOSTNAME) == 0) {
            index[entry.value.data.string] = nodeid;
        } else if (std::strcmp(entry.key, PMIX_HOSTNAME_ALIASES) == 0) {
            std::string_view rest(entry.value.data.string);
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

const LocalEntry *LocalData::find(pmixpp_gds_level_t level, uint32_t id, const char *key) const
{
    const auto it = buckets.find(bucket_key(level, id));
    if (it == buckets.end()) return nullptr;
    for (const LocalEntry &entry : it->second) {
        if (std::strcmp(entry.key, key) == 0) return &entry;
    }
    return nullptr;
}

pmix_status_t LocalData::store(pmixpp_gds_level_t level, uint32_t id, const pmix_info_t info[], size_t ninfo)
{
    std::vector<LocalEntry> entries;
    const pmix_status_t rc = copy_infos(info, ninfo, PMIX_SCOPE_UNDEF, keys, &entries);
    if (rc != PMIX_SUCCESS) return rc;
    LocalBucket &bucket = buckets[bucket_key(level, id)];
    merge(bucket, entries);
    if (level == PMIXPP_GDS_LEVEL_NODE) index_hostnames(hostnames, id, bucket);
    return PMIX_SUCCESS;
}

pmix_status_t LocalData::store_modex(pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[],
                                     size_t ninfo)
{
    std::vector<LocalEntry> entries;
    const pmix_status_t rc = copy_infos(info, ninfo, scope, keys, &entries);
    if (rc != PMIX_SUCCESS) return rc;
    merge(modex[rank], entries);
    return PMIX_SUCCESS;
}

} // namespace gds_shmem
