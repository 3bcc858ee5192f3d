#include "segment_reader.h"

#include "value_codec.h"

#include <pmixpp/util.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

namespace gds_shmem {
namespace {

bool table_fits(uint64_t off, uint64_t count, size_t record, uint64_t limit)
{
    if (off % 8 != 0 || off > limit) return false;
    return count <= (limit - off) / record;
}

}  // namespace

pmix_status_t Segment::map_file(const std::string &path, const char *nspace, std::shared_ptr<const Segment> *segment_p,
                                std::string *why_p)
{
    pmixpp::util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) {
        *why_p = std::string("cannot open ") + path + ": " + std::strerror(errno);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || st.st_size < static_cast<off_t>(sizeof(SegmentHeader))) {
        *why_p = path + " is too short to be a segment";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    const auto size = static_cast<size_t>(st.st_size);
    void *base = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd.get(), 0);
    const int saved_errno = errno;
    fd.reset();  // the mapping keeps the file
    if (base == MAP_FAILED) {
        *why_p = std::string("cannot map ") + path + ": " + std::strerror(saved_errno);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    std::shared_ptr<const Segment> segment(new Segment(static_cast<const char *>(base), size, true, path));
    const pmix_status_t rc = segment->verify(nspace, why_p);
    if (rc != PMIX_SUCCESS) return rc;
    *segment_p = std::move(segment);
    return PMIX_SUCCESS;
}

pmix_status_t Segment::from_bytes(const char *bytes, size_t size, const char *nspace,
                                  std::shared_ptr<const Segment> *segment_p, std::string *why_p)
{
    if (bytes == nullptr || size < sizeof(SegmentHeader)) {
        *why_p = "the inline segment is too short";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    // Aligned storage: the tables are read in place.
    auto *copy = static_cast<char *>(std::aligned_alloc(8, (size + 7) & ~size_t{7}));
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(copy, bytes, size);
    std::shared_ptr<const Segment> segment(new Segment(copy, size, false, std::string()));
    const pmix_status_t rc = segment->verify(nspace, why_p);
    if (rc != PMIX_SUCCESS) return rc;
    *segment_p = std::move(segment);
    return PMIX_SUCCESS;
}

Segment::~Segment()
{
    if (mapped_) {
        ::munmap(const_cast<char *>(base_), size_);
    } else {
        std::free(const_cast<char *>(base_));
    }
}

pmix_status_t Segment::verify(const char *nspace, std::string *why_p) const
{
    const SegmentHeader &h = header();
    const std::string what = path_.empty() ? std::string("the inline segment") : path_;
    if (h.magic != kSegmentMagic || h.format_version != kFormatVersion || h.header_size != sizeof(SegmentHeader)) {
        *why_p = what + " is not a gds/shmem segment of this version";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (h.total_size != size_ || header_checksum(h) != h.header_checksum) {
        *why_p = what + " is truncated or damaged";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (std::strncmp(h.nspace, nspace, sizeof h.nspace) != 0 || h.nspace[PMIX_MAX_NSLEN] != '\0') {
        *why_p = what + " holds another namespace";
        return PMIX_ERR_BAD_PARAM;
    }
    if (!table_fits(h.buckets_off, h.nbuckets, sizeof(BucketRecord), size_) ||
        !table_fits(h.entries_off, h.nentries, sizeof(EntryRecord), size_) ||
        !table_fits(h.hosts_off, h.nhosts, sizeof(HostRecord), size_) || h.heap_off > size_ ||
        h.heap_size > size_ - h.heap_off) {
        *why_p = what + " has tables outside the segment";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    return PMIX_SUCCESS;
}

const char *Segment::heap_string(uint64_t off, size_t max_len) const
{
    const SegmentHeader &h = header();
    if (off >= h.heap_size) return nullptr;
    const char *text = base_ + h.heap_off + off;
    const size_t room = static_cast<size_t>(h.heap_size - off);
    return std::memchr(text, '\0', room < max_len + 1 ? room : max_len + 1) != nullptr ? text : nullptr;
}

const BucketRecord *Segment::find_bucket(pmixpp_gds_level_t level, uint32_t id) const
{
    const SegmentHeader &h = header();
    const auto *buckets = reinterpret_cast<const BucketRecord *>(base_ + h.buckets_off);
    const uint64_t wanted = (static_cast<uint64_t>(level) << 32) | id;
    size_t lo = 0;
    size_t hi = h.nbuckets;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const uint64_t here = (static_cast<uint64_t>(buckets[mid].level) << 32) | buckets[mid].id;
        if (here == wanted) {
            const BucketRecord &b = buckets[mid];
            if (b.first_entry > h.nentries || b.nentries > h.nentries - b.first_entry) return nullptr;
            return &b;
        }
        if (here < wanted) lo = mid + 1;
        else hi = mid;
    }
    return nullptr;
}

pmix_status_t Segment::decode(const EntryRecord &entry, pmix_value_t *value_p) const
{
    const SegmentHeader &h = header();
    if (entry.value_off > h.heap_size || entry.value_len > h.heap_size - entry.value_off) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    return decode_value(entry.type, static_cast<Encoding>(entry.encoding), base_ + h.heap_off + entry.value_off,
                        entry.value_len, value_p);
}

pmix_status_t Segment::fetch(pmixpp_gds_level_t level, uint32_t id, const char *key, pmix_value_t *value_p) const
{
    const BucketRecord *bucket = find_bucket(level, id);
    if (bucket == nullptr) return PMIX_ERR_NOT_FOUND;
    const auto *entries = reinterpret_cast<const EntryRecord *>(base_ + header().entries_off) + bucket->first_entry;
    size_t lo = 0;
    size_t hi = bucket->nentries;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const char *here = heap_string(entries[mid].key_off, PMIX_MAX_KEYLEN);
        if (here == nullptr) return PMIX_ERR_UNPACK_FAILURE;
        const int order = std::strcmp(here, key);
        if (order == 0) return decode(entries[mid], value_p);
        if (order < 0) lo = mid + 1;
        else hi = mid;
    }
    return PMIX_ERR_NOT_FOUND;
}

bool Segment::for_each(pmixpp_gds_level_t level, uint32_t id,
                       const std::function<pmix_status_t(const char *, const EntryRecord &)> &visit,
                       pmix_status_t *rc_p) const
{
    *rc_p = PMIX_SUCCESS;
    const BucketRecord *bucket = find_bucket(level, id);
    if (bucket == nullptr || bucket->nentries == 0) return false;
    const auto *entries = reinterpret_cast<const EntryRecord *>(base_ + header().entries_off) + bucket->first_entry;
    for (uint32_t i = 0; i < bucket->nentries && *rc_p == PMIX_SUCCESS; ++i) {
        const char *key = heap_string(entries[i].key_off, PMIX_MAX_KEYLEN);
        *rc_p = key != nullptr ? visit(key, entries[i]) : PMIX_ERR_UNPACK_FAILURE;
    }
    return true;
}

pmix_status_t Segment::lookup_node(const char *hostname, uint32_t *nodeid_p) const
{
    const SegmentHeader &h = header();
    const auto *hosts = reinterpret_cast<const HostRecord *>(base_ + h.hosts_off);
    size_t lo = 0;
    size_t hi = h.nhosts;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const char *here = heap_string(hosts[mid].name_off, static_cast<size_t>(h.heap_size));
        if (here == nullptr) return PMIX_ERR_UNPACK_FAILURE;
        const int order = std::strcmp(here, hostname);
        if (order == 0) {
            *nodeid_p = hosts[mid].nodeid;
            return PMIX_SUCCESS;
        }
        if (order < 0) lo = mid + 1;
        else hi = mid;
    }
    return PMIX_ERR_NOT_FOUND;
}

}  // namespace gds_shmem
