#include "segment_writer.h"

#include "value_codec.h"

#include <pmixpp/util.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <new>
#include <unordered_map>
#include <vector>

namespace gds_shmem {
namespace {

size_t align8(size_t n)
{
    return (n + 7) & ~size_t{7};
}

// The heap of a segment under construction: keys and host names are
// interned (every proc bucket repeats the same dozen keys).
class HeapBuilder {
public:
    uint64_t intern(const std::string &text)
    {
        const auto it = strings_.find(text);
        if (it != strings_.end()) return it->second;
        const uint64_t off = bytes.size();
        bytes.append(text.c_str(), text.size() + 1);
        strings_.emplace(text, off);
        return off;
    }
    // Keys are interned by the store already: their address identifies them.
    uint64_t intern_key(const char *key)
    {
        const auto it = key_offsets_.find(key);
        if (it != key_offsets_.end()) return it->second;
        const uint64_t off = intern(key);
        key_offsets_.emplace(key, off);
        return off;
    }
    std::string bytes;

private:
    std::unordered_map<const char *, uint64_t> key_offsets_;
    std::unordered_map<std::string, uint64_t> strings_;
};

struct Tables {
    std::vector<BucketRecord> buckets;
    std::vector<EntryRecord> entries;
    std::vector<HostRecord> hosts;
    HeapBuilder heap;
};

pmix_status_t add_bucket(uint64_t key, BucketView bucket, Tables &t)
{
    std::vector<const LocalEntry *> sorted;
    sorted.reserve(bucket.size());
    for (const LocalEntry &entry : bucket) sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(),
              [](const LocalEntry *a, const LocalEntry *b) { return std::strcmp(a->key, b->key) < 0; });
    t.buckets.push_back(BucketRecord{static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key),
                                     static_cast<uint32_t>(t.entries.size()), static_cast<uint32_t>(sorted.size())});
    for (const LocalEntry *entry : sorted) {
        EntryRecord record{};
        record.key_off = t.heap.intern_key(entry->key);
        record.value_off = t.heap.bytes.size();
        Encoding encoding{};
        const pmix_status_t rc = encode_value(entry->value(), t.heap.bytes, &encoding);
        if (rc != PMIX_SUCCESS) return rc;
        const uint64_t len = t.heap.bytes.size() - record.value_off;
        if (len > std::numeric_limits<uint32_t>::max()) return PMIX_ERR_BAD_PARAM;
        record.value_len = static_cast<uint32_t>(len);
        record.type = entry->type();
        record.encoding = static_cast<uint8_t>(encoding);
        t.entries.push_back(record);
    }
    return PMIX_SUCCESS;
}

pmix_status_t fill_tables(const LocalData &data, Tables &t)
{
    std::vector<uint64_t> keys = data.buckets.nonempty_keys();
    std::sort(keys.begin(), keys.end());  // (level, id) order: readers binary-search it
    for (uint64_t key : keys) {
        const auto level = static_cast<pmixpp_gds_level_t>(key >> 32);
        const pmix_status_t rc = add_bucket(key, *data.buckets.find(level, static_cast<uint32_t>(key)), t);
        if (rc != PMIX_SUCCESS) return rc;
        if (t.entries.size() > std::numeric_limits<uint32_t>::max()) return PMIX_ERR_OUT_OF_RESOURCE;
    }
    std::vector<std::pair<std::string, uint32_t>> hosts(data.hostnames.begin(), data.hostnames.end());
    std::sort(hosts.begin(), hosts.end());
    for (const auto &[name, nodeid] : hosts) t.hosts.push_back(HostRecord{t.heap.intern(name), nodeid, 0});
    return PMIX_SUCCESS;
}

template <class T> void append_table(std::string &image, size_t offset, const std::vector<T> &table)
{
    image.resize(offset);
    if (!table.empty()) image.append(reinterpret_cast<const char *>(table.data()), table.size() * sizeof(T));
}

pmix_status_t write_all(int fd, const std::string &bytes)
{
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return PMIX_ERR_OUT_OF_RESOURCE;
        done += static_cast<size_t>(n);
    }
    return PMIX_SUCCESS;
}

}  // namespace

uint64_t header_checksum(const SegmentHeader &header)
{
    SegmentHeader copy = header;
    copy.header_checksum = 0;
    copy.superseded = 0;
    return fnv1a(&copy, sizeof copy);
}

pmix_status_t build_image(const char *nspace, const LocalData &data, uint64_t generation, std::string *image_p)
{
    Tables t;
    pmix_status_t rc = fill_tables(data, t);
    if (rc != PMIX_SUCCESS) return rc;
    SegmentHeader header{};
    header.magic = kSegmentMagic;
    header.format_version = kFormatVersion;
    header.header_size = sizeof(SegmentHeader);
    header.generation = generation;
    header.nbuckets = static_cast<uint32_t>(t.buckets.size());
    header.nentries = static_cast<uint32_t>(t.entries.size());
    header.nhosts = static_cast<uint32_t>(t.hosts.size());
    header.buckets_off = align8(sizeof(SegmentHeader));
    header.entries_off = align8(header.buckets_off + t.buckets.size() * sizeof(BucketRecord));
    header.hosts_off = align8(header.entries_off + t.entries.size() * sizeof(EntryRecord));
    header.heap_off = align8(header.hosts_off + t.hosts.size() * sizeof(HostRecord));
    header.heap_size = t.heap.bytes.size();
    header.total_size = align8(header.heap_off + header.heap_size);
    std::strncpy(header.nspace, nspace, PMIX_MAX_NSLEN);
    header.header_checksum = header_checksum(header);

    std::string image;
    image.reserve(header.total_size);
    image.append(reinterpret_cast<const char *>(&header), sizeof header);
    append_table(image, header.buckets_off, t.buckets);
    append_table(image, header.entries_off, t.entries);
    append_table(image, header.hosts_off, t.hosts);
    image.resize(header.heap_off);
    image.append(t.heap.bytes);
    image.resize(header.total_size);
    *image_p = std::move(image);
    return PMIX_SUCCESS;
}

Publisher::~Publisher()
{
    if (current_ != nullptr) ::munmap(current_, sizeof(SegmentHeader));
}

void Publisher::mark_current_superseded()
{
    if (current_ == nullptr) return;
    // Release: the new file is already renamed into place when a reader sees this.
    __atomic_store_n(&current_->superseded, uint64_t{1}, __ATOMIC_RELEASE);
    ::munmap(current_, sizeof(SegmentHeader));
    current_ = nullptr;
}

pmix_status_t Publisher::publish(const char *nspace, const LocalData &data, std::string *why_p)
{
    std::string image;
    pmix_status_t rc = build_image(nspace, data, generation_ + 1, &image);
    if (rc != PMIX_SUCCESS) {
        *why_p = "cannot encode the data";
        return rc;
    }
    const std::string temporary = path_ + ".tmp";
    ::unlink(temporary.c_str());  // a leftover of a publication that failed half-way
    pmixpp::util::UniqueFd fd(::open(temporary.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (!fd) {
        *why_p = "cannot create " + temporary + ": " + std::strerror(errno);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    rc = ::fchmod(fd.get(), 0600) == 0 ? write_all(fd.get(), image) : PMIX_ERR_NOT_AVAILABLE;
    // Given before the rename: no reader can open it under the creator's
    // name first. Only root can give files away; others keep theirs.
    if (rc == PMIX_SUCCESS && file_owner_.any() && ::fchown(fd.get(), file_owner_.uid, file_owner_.gid) != 0 &&
        ::geteuid() == 0) {
        *why_p =
            "cannot give " + temporary + " to uid " + std::to_string(file_owner_.uid) + ": " + std::strerror(errno);
        rc = PMIX_ERR_NOT_AVAILABLE;
    }
    void *header = rc == PMIX_SUCCESS
                       ? ::mmap(nullptr, sizeof(SegmentHeader), PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0)
                       : MAP_FAILED;
    const int saved_errno = errno;
    fd.reset();
    if (header == MAP_FAILED || ::rename(temporary.c_str(), path_.c_str()) != 0) {
        *why_p = "cannot write " + path_ + ": " + std::strerror(header == MAP_FAILED ? saved_errno : errno);
        if (header != MAP_FAILED) ::munmap(header, sizeof(SegmentHeader));
        ::unlink(temporary.c_str());
        return PMIX_ERR_NOT_AVAILABLE;
    }
    mark_current_superseded();
    current_ = static_cast<SegmentHeader *>(header);
    generation_ += 1;
    size_ = image.size();
    checksum_ = current_->header_checksum;
    return PMIX_SUCCESS;
}

void Publisher::unlink_segment()
{
    if (generation_ == 0) return;
    ::unlink(path_.c_str());
    if (current_ != nullptr) ::munmap(current_, sizeof(SegmentHeader));
    current_ = nullptr;
    generation_ = 0;
}

}  // namespace gds_shmem
