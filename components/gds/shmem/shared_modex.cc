// gds/shmem: the results of data-collecting fences, written once by the
// server into a segment and read there by every local client (see shmem_store.h, SharedModex).
//
// The segment has the job-data format (segment_format.h) with one proc
// bucket per rank. Generations are published as for job data (new file,
// rename, old one marked superseded). A client learns of each generation
// from its fence reply (import_modex) but maps it only when it first reads
// from it: a job that fences in a loop without reading pays nothing per
// fence.
//
// Where the segment goes: segment_places.h (in memory, whatever the
// session directory is; with no usable memory directory share_modex
// declines and the core sends the data in the replies).
#include "shmem_store.h"

#include "blob.h"
#include "segment_places.h"

#include <pmix.h>

#include <mutex>

namespace gds_shmem {

pmix_status_t ShmemStore::share_modex(const char *nspace, const pmixpp_gds_proc_data_t procs[], size_t nprocs,
                                      pmix_byte_object_t *blob_p)
{
    if (!valid_nspace(nspace) || (procs == nullptr && nprocs > 0) || blob_p == nullptr) return PMIX_ERR_BAD_PARAM;
    std::unique_lock lock(mutex_);
    Namespace *ns = find(nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;    // only namespaces this server holds
    if (ns->segment) return PMIX_ERR_NOT_SUPPORTED;  // a client's imported namespace
    if (!ns->modex) ns->modex = std::make_unique<SharedModex>();
    SharedModex &shared = *ns->modex;
    if (shared.publish_failed) return PMIX_ERR_NOT_AVAILABLE;
    if (shared.declined) return PMIX_ERR_NOT_SUPPORTED;
    std::string dir;
    if (!shared.publisher) {
        const std::string segment_dir = segment_directory(*ns);
        dir = place_for(segment_dir, SegmentKind::fence_data);
        if (!segment_dir.empty() && dir.empty()) {
            shared.declined = true;
            return PMIX_ERR_NOT_SUPPORTED;
        }
    }
    for (size_t i = 0; i < nprocs; ++i) {
        const pmix_status_t rc = shared.view.store(PMIXPP_GDS_LEVEL_PROC, procs[i].rank, procs[i].info, procs[i].ninfo);
        if (rc != PMIX_SUCCESS) return rc;
    }
    std::string why;
    if (!shared.publisher) {
        if (dir.empty()) why = "no writable PMIX_NSDIR, session directory or /dev/shm";
        else shared.publisher = std::make_unique<Publisher>(segment_path(dir, nspace) + ".modex", file_owner_);
    }
    if (shared.publisher && shared.publisher->publish(nspace, shared.view, &why) == PMIX_SUCCESS) {
        const Reference ref{nspace, shared.publisher->path(), shared.publisher->generation(), shared.publisher->size(),
                            shared.publisher->checksum()};
        return encode_reference(ref, blob_p);
    }
    // Once per namespace: its fence results then travel in the replies.
    shared.publish_failed = true;
    shared.publisher.reset();
    report(PMIXPP_LOG_WARN, "cannot share the fence data of " + std::string(nspace) + " (" + why +
                                "); each client receives its own copy instead");
    return PMIX_ERR_NOT_AVAILABLE;
}

pmix_status_t ShmemStore::import_modex(const char *nspace, const pmix_byte_object_t &blob, pmix_rank_t keep)
{
    if (!valid_nspace(nspace)) return PMIX_ERR_BAD_PARAM;
    BlobKind kind{};
    Reference ref;
    const char *image = nullptr;
    size_t image_size = 0;
    const pmix_status_t rc = decode_blob(blob, &kind, &ref, &image, &image_size);
    if (rc != PMIX_SUCCESS) return rc;
    if (kind != BlobKind::reference || ref.nspace != nspace) return PMIX_ERR_BAD_PARAM;
    std::unique_lock lock(mutex_);
    Namespace &ns = nspaces_[nspace];
    if (!ns.modex) ns.modex = std::make_unique<SharedModex>();
    SharedModex &shared = *ns.modex;
    if (ref.generation < shared.generation && ref.path == shared.path) return PMIX_SUCCESS;  // already newer
    shared.path = ref.path;
    shared.generation = ref.generation;
    shared.checksum = ref.checksum;
    shared.map_failed = false;
    // The shared data is newer than what this store kept of the others.
    for (auto it = ns.local.modex.begin(); it != ns.local.modex.end();) {
        it = it->first == keep ? std::next(it) : ns.local.modex.erase(it);
    }
    return PMIX_SUCCESS;
}

std::shared_ptr<const Segment> ShmemStore::modex_segment(const char *nspace)
{
    {
        std::shared_lock lock(mutex_);
        const Namespace *ns = find(nspace);
        if (ns == nullptr || !ns->modex || ns->modex->path.empty()) return nullptr;
        const SharedModex &shared = *ns->modex;
        if (shared.segment && shared.segment->header().generation >= shared.generation &&
            !shared.segment->superseded()) {
            return shared.segment;
        }
        if (shared.map_failed) return nullptr;
    }
    std::unique_lock lock(mutex_);
    Namespace *ns = find(nspace);
    if (ns == nullptr || !ns->modex || ns->modex->path.empty()) return nullptr;
    SharedModex &shared = *ns->modex;
    if (shared.segment && shared.segment->header().generation >= shared.generation && !shared.segment->superseded()) {
        return shared.segment;  // another thread mapped it meanwhile
    }
    std::shared_ptr<const Segment> fresh;
    std::string why;
    pmix_status_t rc = Segment::map_file(shared.path, nspace, &fresh, &why);
    if (rc == PMIX_SUCCESS && fresh->header().generation < shared.generation) {
        rc = PMIX_ERR_NOT_AVAILABLE;
        why = shared.path + " holds an older generation than announced";
    }
    if (rc != PMIX_SUCCESS) {
        if (!shared.map_failed) {
            report(PMIXPP_LOG_WARN, "cannot map the shared fence data of " + std::string(nspace) + " (" + why +
                                        "); this process asks the server for peers' data instead");
        }
        shared.map_failed = true;
        return nullptr;
    }
    shared.segment = std::move(fresh);
    return shared.segment;
}

pmix_status_t ShmemStore::fetch_shared_modex(const char *nspace, pmix_rank_t rank, const char *key,
                                             pmix_value_t *decoded_p)
{
    const std::shared_ptr<const Segment> segment = modex_segment(nspace);
    if (!segment) return PMIX_ERR_NOT_FOUND;
    return segment->fetch(PMIXPP_GDS_LEVEL_PROC, rank, key, decoded_p);
}

}  // namespace gds_shmem
