// gds/shmem: the results of data-collecting fences, written once by the
// server into a segment beside the namespace's job data and read there by
// every local client (see shmem_store.h, SharedModex).
//
// The segment has the job-data format (segment_format.h) with one proc
// bucket per rank. Generations are published as for job data (new file,
// rename, old one marked superseded). A client learns of each generation
// from its fence reply (import_modex) but maps it only when it first reads
// from it: a job that fences in a loop without reading pays nothing per
// fence.
//
// Always in memory: on a disk file system the file created per fence costs
// more than the copies it saves (measured: bench/README.md). When the
// segment directory (the session directory) is on disk, the segment goes to
// PMIX_MCA_gds_shmem_modex_dir (default /dev/shm) instead, named after the
// server's pid: the server removes it with the namespace, and the first
// share of a later server there removes those whose server died. With that
// parameter empty (or the directory unusable) share_modex declines and the
// core sends the data in the replies. PMIX_MCA_gds_shmem_modex_on_disk=1
// keeps it beside the job data whatever the file system.
#include "shmem_store.h"

#include "blob.h"

#include <pmix.h>

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

namespace gds_shmem {
namespace {

bool in_memory(const std::string &dir)
{
    struct statfs fs {};
    if (::statfs(dir.c_str(), &fs) != 0) return false;
    return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}

bool usable(const std::string &dir)
{
    struct stat st {};
    return !dir.empty() && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
           ::access(dir.c_str(), W_OK | X_OK) == 0;
}

// Where this namespace's shared fence data goes; empty: nowhere.
std::string modex_directory(const std::string &segment_dir)
{
    if (segment_dir.empty() || in_memory(segment_dir) || modex_on_disk()) return segment_dir;
    const std::string memory = modex_dir();
    if (!usable(memory)) return {};
    static std::mutex swept_mutex;
    static std::set<std::string> swept;
    std::lock_guard lock(swept_mutex);
    if (swept.insert(memory).second) (void)reap_modex_orphans(memory);
    return memory;
}

// The pid in "gds-shmem.<pid>.<serial>.<name>.modex"; 0 for any other name.
long modex_owner(const char *name)
{
    static constexpr const char kPrefix[] = "gds-shmem.";
    static constexpr const char kSuffix[] = ".modex";
    const std::size_t length = std::strlen(name);
    if (std::strncmp(name, kPrefix, sizeof kPrefix - 1) != 0 || length < sizeof kSuffix ||
        std::strcmp(name + length - (sizeof kSuffix - 1), kSuffix) != 0) {
        return 0;
    }
    char *end = nullptr;
    const long pid = std::strtol(name + sizeof kPrefix - 1, &end, 10);
    return end != nullptr && *end == '.' ? pid : 0;
}

}  // namespace

int reap_modex_orphans(const std::string &dir)
{
    DIR *listing = ::opendir(dir.c_str());
    if (listing == nullptr) return 0;
    int removed = 0;
    const uid_t uid = ::getuid();
    while (const struct dirent *entry = ::readdir(listing)) {
        const long pid = modex_owner(entry->d_name);
        if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM) continue;
        struct stat st {};
        if (::fstatat(::dirfd(listing), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            (st.st_uid != uid && uid != 0)) {
            continue;
        }
        if (::unlinkat(::dirfd(listing), entry->d_name, 0) == 0) ++removed;
    }
    ::closedir(listing);
    return removed;
}

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
        dir = modex_directory(segment_dir);
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
