// gds/shmem: where segment files go. A segment belongs in memory: on a disk
// file system every publication is a file creation and a rename that the
// journal can make wait, at every job start and every shared fence
// (docs/gds-shmem.md). When the namespace's directory (the job's session
// directory) is on disk, segments go to the memory directory instead
// (PMIX_MCA_gds_shmem_memory_dir, default /dev/shm), named after the
// server's pid. The server removes them with the namespace; its first
// segment in that directory removes those whose server is gone.
#ifndef PMIXPP_GDS_SHMEM_SEGMENT_PLACES_H
#define PMIXPP_GDS_SHMEM_SEGMENT_PLACES_H

#include <string>

namespace gds_shmem {

enum class SegmentKind {
    job_data,    // a namespace's registered data
    fence_data,  // the results of data-collecting fences
};

// The component parameters (gds_shmem.cc).
std::string memory_dir();  // memory_dir
void set_memory_dir(const std::string &dir);
bool kept_on_disk(SegmentKind kind);  // job_data_on_disk, modex_on_disk

// The directory for a segment of `kind` whose namespace's directory is
// `namespace_dir`: that one when it is in memory (or the user keeps this
// kind on disk), else the memory directory. Without a usable memory
// directory job data stays in `namespace_dir` and fence data gets "" (it
// is then not shared: the replies carry it).
std::string place_for(const std::string &namespace_dir, SegmentKind kind);

bool usable_directory(const std::string &dir);

// Removes from `dir` the segments of servers of this uid that are gone
// (gds-shmem.<pid>.* with that pid not running, regular files only).
// Returns how many.
int reap_orphan_segments(const std::string &dir);

}  // namespace gds_shmem

#endif
