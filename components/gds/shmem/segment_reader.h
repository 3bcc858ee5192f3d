// gds/shmem: reading a segment, mapped read-only from its file (a client) or
// held in memory (an inline export). Opening verifies the header and that
// every table lies inside the segment; each access checks its own offsets,
// so a damaged segment yields an error, never a read outside it.
#ifndef PMIXPP_GDS_SHMEM_SEGMENT_READER_H
#define PMIXPP_GDS_SHMEM_SEGMENT_READER_H

#include "segment_format.h"

#include <pmix_common.h>
#include <pmixpp/gds.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace gds_shmem {

class Segment {
public:
    // Maps path read-only. PMIX_ERR_NOT_AVAILABLE (with *why_p) when the file
    // cannot be opened or mapped, PMIX_ERR_UNPACK_FAILURE when it is not a
    // complete segment of nspace.
    static pmix_status_t map_file(const std::string &path, const char *nspace,
                                  std::shared_ptr<const Segment> *segment_p, std::string *why_p);
    // Copies an image (an inline export).
    static pmix_status_t from_bytes(const char *bytes, size_t size, const char *nspace,
                                    std::shared_ptr<const Segment> *segment_p, std::string *why_p);
    ~Segment();
    Segment(const Segment &) = delete;
    Segment &operator=(const Segment &) = delete;

    // One acquire load of the word the writer sets after replacing this file.
    bool superseded() const { return __atomic_load_n(&header().superseded, __ATOMIC_ACQUIRE) != 0; }
    const SegmentHeader &header() const { return *reinterpret_cast<const SegmentHeader *>(base_); }
    const std::string &path() const { return path_; }

    // PMIX_ERR_NOT_FOUND when (level, id, key) is not in the segment.
    pmix_status_t fetch(pmixpp_gds_level_t level, uint32_t id, const char *key, pmix_value_t *value_p) const;
    // Calls visit(key, value) for every entry of (level, id); false if none.
    bool for_each(pmixpp_gds_level_t level, uint32_t id,
                  const std::function<pmix_status_t(const char *key, const EntryRecord &)> &visit,
                  pmix_status_t *rc_p) const;
    pmix_status_t decode(const EntryRecord &entry, pmix_value_t *value_p) const;
    pmix_status_t lookup_node(const char *hostname, uint32_t *nodeid_p) const;

private:
    Segment(const char *base, size_t size, bool mapped, std::string path)
        : base_(base), size_(size), mapped_(mapped), path_(std::move(path))
    {}
    pmix_status_t verify(const char *nspace, std::string *why_p) const;
    const BucketRecord *find_bucket(pmixpp_gds_level_t level, uint32_t id) const;
    // A NUL-terminated string of at most max_len characters at heap offset off, or nullptr.
    const char *heap_string(uint64_t off, size_t max_len) const;

    const char *base_;
    size_t size_;
    bool mapped_;
    std::string path_;
};

}  // namespace gds_shmem

#endif
