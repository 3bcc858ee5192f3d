// gds/shmem: writing segments. A segment is built whole in memory, written
// to a temporary file, and renamed over the namespace's segment path, so a
// reader opening the path always finds a complete, immutable file. The file
// it replaced is then marked superseded, which tells every reader still
// mapping it to reopen the path.
#ifndef PMIXPP_GDS_SHMEM_SEGMENT_WRITER_H
#define PMIXPP_GDS_SHMEM_SEGMENT_WRITER_H

#include "local_data.h"
#include "segment_format.h"

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace gds_shmem {

// The bytes of a segment holding data's registered values (not its modex).
pmix_status_t build_image(const char *nspace, const LocalData &data, uint64_t generation, std::string *image_p);

// Who may open the files: the job's user, when the server is someone else
// (gds.h, PMIX_USERID / PMIX_GRPID). -1 keeps the creator's.
struct FileOwner {
    uid_t uid = static_cast<uid_t>(-1);
    gid_t gid = static_cast<gid_t>(-1);
    bool any() const { return uid != static_cast<uid_t>(-1) || gid != static_cast<gid_t>(-1); }
};

// The segment of one namespace of one store.
class Publisher {
public:
    explicit Publisher(std::string path, FileOwner owner = {}) : path_(std::move(path)), file_owner_(owner) {}
    ~Publisher();
    Publisher(const Publisher &) = delete;
    Publisher &operator=(const Publisher &) = delete;

    // Writes the next generation of the segment from data. On failure the
    // previous generation stays published and *why_p says what went wrong.
    pmix_status_t publish(const char *nspace, const LocalData &data, std::string *why_p);
    // Removes the file (mapped readers keep their pages) and forgets it.
    void unlink_segment();

    const std::string &path() const { return path_; }
    uint64_t generation() const { return generation_; }
    uint64_t size() const { return size_; }
    uint64_t checksum() const { return checksum_; }

private:
    void mark_current_superseded();

    std::string path_;
    FileOwner file_owner_;
    uint64_t generation_ = 0;
    uint64_t size_ = 0;
    uint64_t checksum_ = 0;
    SegmentHeader *current_ = nullptr;  // writable mapping of the published header
};

}  // namespace gds_shmem

#endif
