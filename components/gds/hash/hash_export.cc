// gds/hash: a namespace's registered data as bytes, packed with the public
// PMIx_Data_* codec so the bytes mean the same on the server and the client:
//
//   string  nspace
//   uint32  bucket count
//   per bucket: uint32 level, uint32 id, uint32 entry count,
//               per entry: string key, value
#include "hash_store.h"

#include <pmix.h>

#include <cstdlib>
#include <cstring>

namespace gds_hash {
namespace {

// Owns a data buffer for the duration of one export or import.
class Buffer {
public:
    Buffer() { PMIX_DATA_BUFFER_CONSTRUCT(&buffer_); }
    ~Buffer() { PMIX_DATA_BUFFER_DESTRUCT(&buffer_); }
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;
    pmix_data_buffer_t *get() { return &buffer_; }

    pmix_status_t pack(const void *src, pmix_data_type_t type)
    {
        return PMIx_Data_pack(nullptr, &buffer_, const_cast<void *>(src), 1, type);
    }
    pmix_status_t unpack(void *dest, pmix_data_type_t type)
    {
        int32_t count = 1;
        const pmix_status_t rc = PMIx_Data_unpack(nullptr, &buffer_, dest, &count, type);
        if (rc != PMIX_SUCCESS) return rc;
        return count == 1 ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE;
    }

private:
    pmix_data_buffer_t buffer_;
};

pmix_status_t pack_bucket(Buffer &buffer, uint32_t level, uint32_t id, const Bucket &bucket)
{
    const auto count = static_cast<uint32_t>(bucket.size());
    pmix_status_t rc = buffer.pack(&level, PMIX_UINT32);
    if (rc == PMIX_SUCCESS) rc = buffer.pack(&id, PMIX_UINT32);
    if (rc == PMIX_SUCCESS) rc = buffer.pack(&count, PMIX_UINT32);
    for (const Entry &entry : bucket) {
        if (rc != PMIX_SUCCESS) break;
        const char *key = entry.key();
        rc = buffer.pack(&key, PMIX_STRING);
        if (rc == PMIX_SUCCESS) rc = buffer.pack(&entry.value(), PMIX_VALUE);
    }
    return rc;
}

pmix_status_t unpack_string(Buffer &buffer, std::string *text_p)
{
    char *text = nullptr;
    const pmix_status_t rc = buffer.unpack(&text, PMIX_STRING);
    if (rc != PMIX_SUCCESS) return rc;
    if (text == nullptr) return PMIX_ERR_UNPACK_FAILURE;
    *text_p = text;
    std::free(text);
    return PMIX_SUCCESS;
}

pmix_status_t unpack_bucket(Buffer &buffer, ImportedBucket *bucket_p)
{
    uint32_t level = 0;
    uint32_t count = 0;
    pmix_status_t rc = buffer.unpack(&level, PMIX_UINT32);
    if (rc == PMIX_SUCCESS) rc = buffer.unpack(&bucket_p->id, PMIX_UINT32);
    if (rc == PMIX_SUCCESS) rc = buffer.unpack(&count, PMIX_UINT32);
    if (rc != PMIX_SUCCESS) return rc;
    if (!valid_level(level)) return PMIX_ERR_UNPACK_FAILURE;
    bucket_p->level = static_cast<pmixpp_gds_level_t>(level);
    // No reserve(count): a hostile count must not allocate before the bytes
    // behind it have been seen.
    for (uint32_t i = 0; i < count; ++i) {
        std::string key;
        rc = unpack_string(buffer, &key);
        if (rc != PMIX_SUCCESS) return rc;
        if (!valid_key(key.c_str())) return PMIX_ERR_UNPACK_FAILURE;
        bucket_p->keys.push_back(std::move(key));
        bucket_p->entries.emplace_back(nullptr, PMIX_SCOPE_UNDEF);
        rc = buffer.unpack(&bucket_p->entries.back().value(), PMIX_VALUE);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t pack_namespace(const char *nspace, const Namespace &ns, pmix_byte_object_t *blob_p)
{
    Buffer buffer;
    uint32_t nbuckets = 0;
    for (const auto &level : ns.levels) nbuckets += static_cast<uint32_t>(level.count());
    pmix_status_t rc = buffer.pack(&nspace, PMIX_STRING);
    if (rc == PMIX_SUCCESS) rc = buffer.pack(&nbuckets, PMIX_UINT32);
    for (uint32_t level = 0; level < ns.levels.size() && rc == PMIX_SUCCESS; ++level) {
        ns.levels[level].for_each([&](uint32_t id, const Bucket &bucket) {
            if (rc == PMIX_SUCCESS) rc = pack_bucket(buffer, level, id, bucket);
        });
    }
    if (rc != PMIX_SUCCESS) return rc;
    return PMIx_Data_unload(buffer.get(), blob_p);
}

pmix_status_t unpack_namespace(const char *nspace, const pmix_byte_object_t &blob,
                               std::vector<ImportedBucket> *buckets_p)
{
    if (blob.bytes == nullptr || blob.size == 0) return PMIX_ERR_UNPACK_FAILURE;
    Buffer buffer;
    pmix_status_t rc = PMIx_Data_embed(buffer.get(), &blob);
    if (rc != PMIX_SUCCESS) return rc;
    std::string exported;
    uint32_t nbuckets = 0;
    rc = unpack_string(buffer, &exported);
    if (rc == PMIX_SUCCESS) rc = buffer.unpack(&nbuckets, PMIX_UINT32);
    if (rc != PMIX_SUCCESS) return PMIX_ERR_UNPACK_FAILURE;
    if (exported != nspace) return PMIX_ERR_BAD_PARAM;
    std::vector<ImportedBucket> buckets;
    for (uint32_t i = 0; i < nbuckets; ++i) {
        buckets.push_back(ImportedBucket{PMIXPP_GDS_LEVEL_JOB, 0, {}, {}});
        rc = unpack_bucket(buffer, &buckets.back());
        if (rc != PMIX_SUCCESS) return PMIX_ERR_UNPACK_FAILURE;
    }
    // Keys live in the bucket's strings from here on; point entries at them.
    for (ImportedBucket &bucket : buckets) {
        for (size_t i = 0; i < bucket.entries.size(); ++i) bucket.entries[i].set_key(bucket.keys[i].c_str());
    }
    *buckets_p = std::move(buckets);
    return PMIX_SUCCESS;
}

}  // namespace gds_hash
