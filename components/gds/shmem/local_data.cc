#include "local_data.h"

#include "value_codec.h"

#include <pmix.h>

#include <sys/mman.h>
#include <sys/time.h>

#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string_view>

namespace gds_shmem {

LocalEntry::LocalEntry(LocalEntry &&other) noexcept
    : key(other.key), word_(other.word_), type_(other.type_), scope(other.scope), flags_(other.flags_)
{
    other.type_ = PMIX_UNDEF;
    other.flags_ = 0;
    other.word_ = 0;
}

LocalEntry &LocalEntry::operator=(LocalEntry &&other) noexcept
{
    if (this != &other) {
        release();
        key = other.key;
        word_ = other.word_;
        type_ = other.type_;
        scope = other.scope;
        flags_ = other.flags_;
        other.type_ = PMIX_UNDEF;
        other.flags_ = 0;
        other.word_ = 0;
    }
    return *this;
}

pmix_value_t LocalEntry::value() const
{
    pmix_value_t v{};
    v.type = type_;
    if ((flags_ & kBoxed) != 0) {
        v.data = *reinterpret_cast<const Data *>(word_);
    } else {
        std::memcpy(&v.data, &word_, sizeof word_);
    }
    return v;
}

pmix_status_t LocalEntry::adopt(const pmix_value_t &v)
{
    release();
    // Inline when the union's bytes past the first word are all zero: the
    // value is then rebuilt exactly from that word.
    static constexpr char kZeros[sizeof(Data)] = {};
    const char *bytes = reinterpret_cast<const char *>(&v.data);
    if (std::memcmp(bytes + sizeof word_, kZeros, sizeof(Data) - sizeof word_) == 0) {
        std::memcpy(&word_, bytes, sizeof word_);
    } else {
        auto *box = static_cast<Data *>(std::malloc(sizeof(Data)));
        if (box == nullptr) return PMIX_ERR_NOMEM;
        *box = v.data;
        word_ = reinterpret_cast<uint64_t>(box);
        flags_ = kBoxed;
    }
    type_ = v.type;
    return PMIX_SUCCESS;
}

void LocalEntry::share_text(const char *text)
{
    release();
    type_ = PMIX_STRING;
    word_ = reinterpret_cast<uint64_t>(text);
    flags_ = kShared;
}

const char *LocalEntry::text() const
{
    return type_ == PMIX_STRING ? value().data.string : nullptr;
}

void LocalEntry::release()
{
    if ((flags_ & kShared) == 0 && type_ != PMIX_UNDEF) {
        pmix_value_t v = value();
        PMIx_Value_destruct(&v);
    }
    if ((flags_ & kBoxed) != 0) std::free(reinterpret_cast<Data *>(word_));
    type_ = PMIX_UNDEF;
    flags_ = 0;
    word_ = 0;
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

pmix_status_t copy_infos(const pmix_info_t info[], size_t ninfo, pmix_scope_t scope, KeyTable &keys, StringPool *pool,
                         std::vector<LocalEntry> *entries_p)
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
                entry.share_text(shared);
                continue;
            }
        }
        if (pointer_free(given.type)) {
            // Nothing to deep-copy: the bytes are the value. Every such type
            // but a timeval fits in the union's first word; bytes past the
            // value's own may be whatever the caller left there.
            pmix_value_t clean{};
            clean.type = given.type;
            std::memcpy(&clean.data, &given.data, given.type == PMIX_TIMEVAL ? sizeof(struct timeval) : 8);
            const pmix_status_t rc = entry.adopt(clean);
            if (rc != PMIX_SUCCESS) return rc;
            continue;
        }
        pmix_value_t copy{};
        pmix_status_t rc = PMIx_Value_xfer(&copy, &given);
        if (rc == PMIX_SUCCESS) rc = entry.adopt(copy);
        if (rc != PMIX_SUCCESS) {
            PMIx_Value_destruct(&copy);
            return rc;
        }
    }
    *entries_p = std::move(entries);
    return PMIX_SUCCESS;
}

namespace {

// Entries whose key the bucket holds replace the old value in place; the
// rest are left in `entries`.
void replace_same_keys(std::span<LocalEntry> bucket, std::vector<LocalEntry> &entries)
{
    auto kept = entries.begin();
    for (LocalEntry &entry : entries) {
        LocalEntry *old = nullptr;
        for (LocalEntry &candidate : bucket) {
            if (candidate.key == entry.key) old = &candidate;
        }
        if (old != nullptr) {
            *old = std::move(entry);
        } else {
            if (&*kept != &entry) *kept = std::move(entry);
            ++kept;
        }
    }
    entries.erase(kept, entries.end());
}

// A later entry of the same key wins, as if stored one after the other.
void drop_duplicate_keys(std::vector<LocalEntry> &entries)
{
    for (size_t i = 0; i < entries.size(); ++i) {
        for (size_t j = i + 1; j < entries.size(); ++j) {
            if (entries[i].key == entries[j].key) {
                entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
                --i;
                break;
            }
        }
    }
}

void merge_vector(LocalBucket &bucket, std::vector<LocalEntry> &entries)
{
    // A new bucket takes the vector whole: one allocation, no search.
    if (bucket.empty()) {
        bucket = std::move(entries);
        return;
    }
    replace_same_keys(bucket, entries);
    for (LocalEntry &entry : entries) bucket.push_back(std::move(entry));
}

void index_hostnames(std::unordered_map<std::string, uint32_t> &index, uint32_t nodeid, BucketView bucket)
{
    for (const LocalEntry &entry : bucket) {
        const char *text = entry.text();
        if (text == nullptr) continue;
        if (std::strcmp(entry.key, PMIX_HOSTNAME) == 0) {
            index[text] = nodeid;
        } else if (std::strcmp(entry.key, PMIX_HOSTNAME_ALIASES) == 0) {
            std::string_view rest(text);
            while (!rest.empty()) {
                const size_t comma = rest.find(',');
                const std::string_view name = rest.substr(0, comma);
                if (!name.empty()) index[std::string(name)] = nodeid;
                rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            }
        }
    }
}

}  // namespace

LocalEntry *EntryArena::new_chunk(size_t bytes)
{
    void *chunk = nullptr;
    if (bytes % kHugePageBytes == 0) {
        chunk = std::aligned_alloc(kHugePageBytes, bytes);
        // Advice only: without transparent huge pages this is a no-op.
        if (chunk != nullptr) (void)::madvise(chunk, bytes, MADV_HUGEPAGE);
    } else {
        chunk = std::malloc(bytes);
    }
    if (chunk == nullptr) throw std::bad_alloc();
    chunks_.emplace_back(chunk);
    return static_cast<LocalEntry *>(chunk);
}

LocalEntry *EntryArena::allocate(size_t n)
{
    if (n > left_) {
        size_t bytes = last_bytes_ == 0 ? kFirstChunkBytes : std::min(last_bytes_ * 2, kHugePageBytes);
        if (n * sizeof(LocalEntry) > bytes) {
            // A bucket this big gets a chunk of its own; the current one stays open.
            return new_chunk(n * sizeof(LocalEntry));
        }
        next_ = new_chunk(bytes);
        left_ = bytes / sizeof(LocalEntry);
        last_bytes_ = bytes;
    }
    LocalEntry *room = next_;
    next_ += n;
    left_ -= n;
    return room;
}

BucketTable::~BucketTable()
{
    for (Slice &slice : procs_) std::destroy_n(slice.first, slice.count);
}

bool BucketTable::dense(pmixpp_gds_level_t level, uint32_t id) const
{
    // Once a proc went to the map the vector stops growing, so no rank is
    // ever in both.
    return level == PMIXPP_GDS_LEVEL_PROC &&
           (id < procs_.size() || (!sparse_procs_ && id - procs_.size() <= kMaxDenseGap));
}

std::optional<BucketView> BucketTable::find(pmixpp_gds_level_t level, uint32_t id) const
{
    if (level == PMIXPP_GDS_LEVEL_PROC && id < procs_.size()) {
        const Slice &slice = procs_[id];
        if ((slice.capacity & kCreated) == 0) return std::nullopt;
        return BucketView(slice.first, slice.count);
    }
    const auto it = others_.find(bucket_key(level, id));
    if (it == others_.end()) return std::nullopt;
    return BucketView(it->second);
}

void BucketTable::merge_slice(Slice &slice, std::vector<LocalEntry> &entries)
{
    replace_same_keys(std::span<LocalEntry>(slice.first, slice.count), entries);
    if (entries.empty()) return;
    const size_t needed = slice.count + entries.size();
    const uint32_t room = slice.capacity & ~kCreated;
    if (needed > std::numeric_limits<uint32_t>::max() / 2) throw std::bad_alloc();
    if (needed > room) {
        // Moves to a larger slice; the old room is given up.
        LocalEntry *bigger = arena_.allocate(needed);
        std::uninitialized_move_n(slice.first, slice.count, bigger);
        std::destroy_n(slice.first, slice.count);
        slice.first = bigger;
        slice.capacity = static_cast<uint32_t>(needed) | kCreated;
    }
    std::uninitialized_move(entries.begin(), entries.end(), slice.first + slice.count);
    slice.count = static_cast<uint32_t>(needed);
    entries.clear();
}

void BucketTable::merge(pmixpp_gds_level_t level, uint32_t id, std::vector<LocalEntry> &entries)
{
    drop_duplicate_keys(entries);
    if (!dense(level, id)) {
        const auto [it, inserted] = others_.try_emplace(bucket_key(level, id));
        if (inserted) ++created_;
        if (level == PMIXPP_GDS_LEVEL_PROC) sparse_procs_ = true;
        merge_vector(it->second, entries);
        return;
    }
    if (id >= procs_.size()) procs_.resize(size_t{id} + 1);  // geometric growth: rank after rank stays linear
    Slice &slice = procs_[id];
    if ((slice.capacity & kCreated) == 0) {
        slice.capacity = kCreated;
        ++created_;
    }
    merge_slice(slice, entries);
}

std::vector<uint64_t> BucketTable::nonempty_keys() const
{
    std::vector<uint64_t> keys;
    keys.reserve(created_);
    for (size_t r = 0; r < procs_.size(); ++r) {
        if (procs_[r].count > 0) keys.push_back(bucket_key(PMIXPP_GDS_LEVEL_PROC, static_cast<uint32_t>(r)));
    }
    for (const auto &[key, bucket] : others_) {
        if (!bucket.empty()) keys.push_back(key);
    }
    return keys;
}

const LocalEntry *LocalData::find(pmixpp_gds_level_t level, uint32_t id, const char *key) const
{
    const std::optional<BucketView> bucket = buckets.find(level, id);
    if (!bucket) return nullptr;
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
    buckets.merge(level, id, entries);
    if (level == PMIXPP_GDS_LEVEL_NODE) index_hostnames(hostnames, id, *buckets.find(level, id));
    return PMIX_SUCCESS;
}

pmix_status_t LocalData::store_modex(pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[], size_t ninfo)
{
    std::vector<LocalEntry> entries;
    const pmix_status_t rc = copy_infos(info, ninfo, scope, keys, nullptr, &entries);
    if (rc != PMIX_SUCCESS) return rc;
    drop_duplicate_keys(entries);
    merge_vector(modex[rank], entries);
    return PMIX_SUCCESS;
}

}  // namespace gds_shmem
