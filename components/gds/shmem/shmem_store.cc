#include "shmem_store.h"

#include "blob.h"
#include "segment_places.h"
#include "value_codec.h"

#include <pmix.h>
#include <pmixpp/util.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace gds_shmem {
namespace {

std::atomic<uint64_t> g_store_ids{0};

// gds.h: the id is ignored at job level.
uint32_t normalized_id(const pmixpp_gds_address_t &addr)
{
    return addr.level == PMIXPP_GDS_LEVEL_JOB ? 0 : addr.id;
}

bool valid_address(const pmixpp_gds_address_t &addr)
{
    return valid_nspace(addr.nspace) && valid_level(addr);
}

// A file-name-safe form of nspace: readable part plus a hash, so two
// namespaces never share a name.
std::string file_name_part(const char *nspace)
{
    std::string out;
    for (const char *p = nspace; *p != '\0' && out.size() < 64; ++p) {
        const char c = *p;
        const bool safe =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        out += safe ? c : '_';
    }
    char hash[24];
    std::snprintf(hash, sizeof hash, ".%016llx", static_cast<unsigned long long>(fnv1a(nspace, std::strlen(nspace))));
    return out + hash;
}

pmix_status_t hand_out_value(pmix_value_t &decoded, pmix_value_t **value_p)
{
    auto *copy = static_cast<pmix_value_t *>(std::malloc(sizeof(pmix_value_t)));
    if (copy == nullptr) {
        PMIx_Value_destruct(&decoded);
        return PMIX_ERR_NOMEM;
    }
    *copy = decoded;  // takes over what decoded points to
    *value_p = copy;
    return PMIX_SUCCESS;
}

// Collected fetch_all results; owns the values until handed out.
struct Collected {
    std::vector<pmix_info_t> infos;
    ~Collected()
    {
        for (pmix_info_t &info : infos) PMIx_Value_destruct(&info.value);
    }
    bool has(const char *key) const { return pmixpp::util::find_info(infos, key) != nullptr; }
    pmix_status_t hand_out(pmix_info_t **info_p, size_t *ninfo_p)
    {
        if (infos.empty()) return PMIX_ERR_NOT_FOUND;
        pmix_info_t *out;
        PMIX_INFO_CREATE(out, infos.size());
        if (out == nullptr) return PMIX_ERR_NOMEM;
        for (size_t i = 0; i < infos.size(); ++i) {
            PMIX_LOAD_KEY(out[i].key, infos[i].key);
            out[i].value = infos[i].value;  // moved: ours is cleared below
            infos[i].value = {};
        }
        *info_p = out;
        *ninfo_p = infos.size();
        infos.clear();
        return PMIX_SUCCESS;
    }
};

pmix_status_t collect_local(BucketView bucket, bool modex, pmix_scope_t visible_to, Collected &out)
{
    for (const LocalEntry &entry : bucket) {
        if (modex && !visible(entry.scope, visible_to)) continue;
        pmix_info_t info{};
        PMIX_LOAD_KEY(info.key, entry.key);
        const pmix_value_t value = entry.value();
        const pmix_status_t rc = PMIx_Value_xfer(&info.value, &value);
        if (rc != PMIX_SUCCESS) return rc;
        out.infos.push_back(info);
    }
    return PMIX_SUCCESS;
}

// Adds the segment's values at (level, id) that `out` does not hold yet
// (this store's own values come first).
pmix_status_t collect_segment(const Segment &segment, pmixpp_gds_level_t level, uint32_t id, Collected &out)
{
    pmix_status_t rc = PMIX_SUCCESS;
    segment.for_each(
        level, id,
        [&](const char *key, const EntryRecord &entry) {
            if (out.has(key)) return PMIX_SUCCESS;
            pmix_info_t info{};
            PMIX_LOAD_KEY(info.key, key);
            const pmix_status_t decoded = segment.decode(entry, &info.value);
            if (decoded == PMIX_SUCCESS) out.infos.push_back(info);
            return decoded;
        },
        &rc);
    return rc;
}

}  // namespace

ShmemStore::ShmemStore(std::string dir_hint, FileOwner file_owner)
    : dir_hint_(std::move(dir_hint)), owner_(::getpid()), file_owner_(file_owner)
{
    next_serial_ = g_store_ids.fetch_add(1) + 1;
}

ShmemStore::~ShmemStore()
{
    // A forked child destroying its copy must not remove its parent's files.
    if (::getpid() != owner_) return;
    for (auto &[name, ns] : nspaces_) {
        if (ns.publisher) ns.publisher->unlink_segment();
        if (ns.modex && ns.modex->publisher) ns.modex->publisher->unlink_segment();
    }
}

ShmemStore::Namespace *ShmemStore::find(const char *nspace)
{
    const auto it = nspaces_.find(std::string_view(nspace));
    return it == nspaces_.end() ? nullptr : &it->second;
}

const ShmemStore::Namespace *ShmemStore::find(const char *nspace) const
{
    const auto it = nspaces_.find(std::string_view(nspace));
    return it == nspaces_.end() ? nullptr : &it->second;
}

pmix_status_t ShmemStore::store(const pmixpp_gds_address_t &addr, const pmix_info_t info[], size_t ninfo)
{
    if (!valid_address(addr) || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    std::unique_lock lock(mutex_);
    Namespace *existing = find(addr.nspace);
    Namespace &ns = existing != nullptr ? *existing : nspaces_[addr.nspace];
    const pmix_status_t rc = ns.local.store(addr.level, normalized_id(addr), info, ninfo);
    if (rc != PMIX_SUCCESS) {
        if (existing == nullptr) nspaces_.erase(addr.nspace);
        return rc;
    }
    // Readers mapped the namespace already: they must see the new values.
    return ns.publisher ? publish(addr.nspace, ns) : PMIX_SUCCESS;
}

pmix_status_t ShmemStore::fetch(const pmixpp_gds_address_t &addr, const char *key, pmix_value_t **value_p)
{
    if (!valid_address(addr) || !valid_key(key) || value_p == nullptr) return PMIX_ERR_BAD_PARAM;
    const uint32_t id = normalized_id(addr);
    std::shared_ptr<const Segment> segment;
    {
        std::shared_lock lock(mutex_);
        const Namespace *ns = find(addr.nspace);
        if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
        if (const LocalEntry *entry = ns->local.find(addr.level, id, key)) return copy_out(entry->value(), value_p);
        segment = ns->segment;
    }
    if (!segment) return PMIX_ERR_NOT_FOUND;
    segment = current_segment(addr.nspace, std::move(segment));
    pmix_value_t decoded{};
    const pmix_status_t rc = segment->fetch(addr.level, id, key, &decoded);
    if (rc != PMIX_SUCCESS) return rc;
    return hand_out_value(decoded, value_p);
}

pmix_status_t ShmemStore::fetch_all(const pmixpp_gds_address_t &addr, pmix_info_t **info_p, size_t *ninfo_p)
{
    if (!valid_address(addr) || info_p == nullptr || ninfo_p == nullptr) return PMIX_ERR_BAD_PARAM;
    const uint32_t id = normalized_id(addr);
    Collected collected;
    std::shared_ptr<const Segment> segment;
    {
        std::shared_lock lock(mutex_);
        const Namespace *ns = find(addr.nspace);
        if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
        const std::optional<BucketView> bucket = ns->local.buckets.find(addr.level, id);
        if (bucket) {
            const pmix_status_t rc = collect_local(*bucket, false, PMIX_SCOPE_UNDEF, collected);
            if (rc != PMIX_SUCCESS) return rc;
        }
        segment = ns->segment;
    }
    if (segment) {
        segment = current_segment(addr.nspace, std::move(segment));
        const pmix_status_t rc = collect_segment(*segment, addr.level, id, collected);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return collected.hand_out(info_p, ninfo_p);
}

pmix_status_t ShmemStore::lookup_node(const char *nspace, const char *hostname, uint32_t *nodeid_p)
{
    if (!valid_nspace(nspace) || hostname == nullptr || nodeid_p == nullptr) return PMIX_ERR_BAD_PARAM;
    std::shared_ptr<const Segment> segment;
    {
        std::shared_lock lock(mutex_);
        const Namespace *ns = find(nspace);
        if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
        const auto it = ns->local.hostnames.find(hostname);
        if (it != ns->local.hostnames.end()) {
            *nodeid_p = it->second;
            return PMIX_SUCCESS;
        }
        segment = ns->segment;
    }
    if (!segment) return PMIX_ERR_NOT_FOUND;
    return current_segment(nspace, std::move(segment))->lookup_node(hostname, nodeid_p);
}

bool ShmemStore::has_nspace(const char *nspace) const
{
    if (!valid_nspace(nspace)) return false;
    std::shared_lock lock(mutex_);
    return find(nspace) != nullptr;
}

pmix_status_t ShmemStore::store_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t scope,
                                      const pmix_info_t info[], size_t ninfo)
{
    if (!valid_nspace(nspace) || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    if (scope != PMIX_LOCAL && scope != PMIX_REMOTE && scope != PMIX_GLOBAL && scope != PMIX_INTERNAL) {
        return PMIX_ERR_BAD_PARAM;
    }
    std::unique_lock lock(mutex_);
    Namespace *existing = find(nspace);
    Namespace &ns = existing != nullptr ? *existing : nspaces_[nspace];
    const pmix_status_t rc = ns.local.store_modex(rank, scope, info, ninfo);
    if (rc != PMIX_SUCCESS && existing == nullptr) nspaces_.erase(nspace);
    return rc;
}

pmix_status_t ShmemStore::fetch_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, const char *key,
                                      pmix_value_t **value_p)
{
    if (!valid_nspace(nspace) || !valid_key(key) || value_p == nullptr) return PMIX_ERR_BAD_PARAM;
    {
        std::shared_lock lock(mutex_);
        const Namespace *ns = find(nspace);
        if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
        const auto it = ns->local.modex.find(rank);
        if (it != ns->local.modex.end()) {
            for (const LocalEntry &entry : it->second) {
                if (std::strcmp(entry.key, key) == 0 && visible(entry.scope, visible_to)) {
                    return copy_out(entry.value(), value_p);
                }
            }
        }
        if (!ns->modex) return PMIX_ERR_NOT_FOUND;
    }
    // Shared fence results are what local peers may see: PMIX_GLOBAL scope.
    pmix_value_t decoded{};
    const pmix_status_t rc = fetch_shared_modex(nspace, rank, key, &decoded);
    return rc == PMIX_SUCCESS ? hand_out_value(decoded, value_p) : rc;
}

pmix_status_t ShmemStore::fetch_modex_all(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to,
                                          pmix_info_t **info_p, size_t *ninfo_p)
{
    if (!valid_nspace(nspace) || info_p == nullptr || ninfo_p == nullptr) return PMIX_ERR_BAD_PARAM;
    Collected collected;
    {
        std::shared_lock lock(mutex_);
        const Namespace *ns = find(nspace);
        if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
        const auto it = ns->local.modex.find(rank);
        if (it != ns->local.modex.end()) {
            const pmix_status_t rc = collect_local(it->second, true, visible_to, collected);
            if (rc != PMIX_SUCCESS) return rc;
        }
        if (!ns->modex) return collected.hand_out(info_p, ninfo_p);
    }
    const std::shared_ptr<const Segment> segment = modex_segment(nspace);
    if (segment) {
        const pmix_status_t rc = collect_segment(*segment, PMIXPP_GDS_LEVEL_PROC, rank, collected);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return collected.hand_out(info_p, ninfo_p);
}

pmix_status_t ShmemStore::remove_nspace(const char *nspace)
{
    if (!valid_nspace(nspace)) return PMIX_ERR_BAD_PARAM;
    std::unique_lock lock(mutex_);
    const auto it = nspaces_.find(std::string_view(nspace));
    if (it == nspaces_.end()) return PMIX_ERR_NOT_FOUND;
    if (it->second.publisher) it->second.publisher->unlink_segment();
    if (it->second.modex && it->second.modex->publisher) it->second.modex->publisher->unlink_segment();
    nspaces_.erase(it);
    return PMIX_SUCCESS;
}

std::shared_ptr<const Segment> ShmemStore::current_segment(const char *nspace, std::shared_ptr<const Segment> seen)
{
    if (!seen->superseded()) return seen;
    std::unique_lock lock(mutex_);
    Namespace *ns = find(nspace);
    if (ns == nullptr || !ns->segment) return seen;
    if (ns->segment != seen && !ns->segment->superseded()) return ns->segment;  // another thread reopened it
    // The writer renames each generation over the same path before marking
    // the old one, so the path holds a newer file; retry if that one was
    // replaced too in the meantime.
    for (int attempt = 0; attempt < 16 && !ns->refresh_failed && ns->segment->superseded(); ++attempt) {
        std::shared_ptr<const Segment> fresh;
        std::string why;
        const pmix_status_t rc = Segment::map_file(ns->segment->path(), nspace, &fresh, &why);
        if (rc != PMIX_SUCCESS) {
            report(PMIXPP_LOG_WARN, "cannot reopen the newer segment of " + std::string(nspace) + " (" + why +
                                        "); this process keeps reading generation " +
                                        std::to_string(ns->segment->header().generation));
            ns->refresh_failed = true;
            break;
        }
        if (fresh->header().generation > ns->segment->header().generation) ns->segment = std::move(fresh);
    }
    return ns->segment;
}

std::string ShmemStore::segment_directory(const Namespace &ns) const
{
    const LocalEntry *nsdir = ns.local.find(PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NSDIR);
    const char *text = nsdir != nullptr ? nsdir->text() : nullptr;
    if (text != nullptr && usable_directory(text)) return text;
    if (usable_directory(dir_hint_)) return dir_hint_;
    if (usable_directory("/dev/shm")) return "/dev/shm";
    return {};
}

std::string ShmemStore::segment_path(const std::string &dir, const char *nspace)
{
    return dir + "/gds-shmem." + std::to_string(owner_) + "." + std::to_string(next_serial_) + "." +
           file_name_part(nspace);
}

pmix_status_t ShmemStore::publish(const char *nspace, Namespace &ns)
{
    std::string fallback;  // the namespace's directory, when the first try is elsewhere
    if (!ns.publisher) {
        const std::string home = segment_directory(ns);
        const std::string dir = place_for(home, SegmentKind::job_data);
        if (dir.empty()) return PMIX_ERR_NOT_AVAILABLE;
        if (dir != home) fallback = home;
        ns.publisher = std::make_unique<Publisher>(segment_path(dir, nspace), file_owner_);
    }
    std::string why;
    pmix_status_t rc = ns.publisher->publish(nspace, ns.local, &why);
    if (rc != PMIX_SUCCESS && !fallback.empty()) {
        // A full or unwritable memory directory: the session directory still works.
        report(PMIXPP_LOG_WARN, "cannot publish the data of " + std::string(nspace) + " in memory (" + why +
                                    "); it goes to " + fallback + " (PMIX_MCA_gds_shmem_memory_dir names another)");
        ns.publisher = std::make_unique<Publisher>(segment_path(fallback, nspace), file_owner_);
        rc = ns.publisher->publish(nspace, ns.local, &why);
    }
    if (rc != PMIX_SUCCESS) {
        report(PMIXPP_LOG_ERROR, "cannot publish the data of " + std::string(nspace) + ": " + why);
    }
    return rc;
}

pmix_status_t ShmemStore::export_nspace(const char *nspace, bool inline_data, pmix_byte_object_t *blob_p)
{
    if (!valid_nspace(nspace) || blob_p == nullptr) return PMIX_ERR_BAD_PARAM;
    std::unique_lock lock(mutex_);
    Namespace *ns = find(nspace);
    if (ns == nullptr) return PMIX_ERR_NOT_FOUND;
    if (ns->segment) return PMIX_ERR_NOT_SUPPORTED;  // imported data is not ours to hand on
    if (!inline_data && !ns->publish_failed && (ns->publisher || publish(nspace, *ns) == PMIX_SUCCESS)) {
        Reference ref{nspace, ns->publisher->path(), ns->publisher->generation(), ns->publisher->size(),
                      ns->publisher->checksum()};
        return encode_reference(ref, blob_p);
    }
    if (!inline_data && !ns->publish_failed) {
        // Once per namespace: the data then travels in the export itself.
        ns->publish_failed = true;
        ns->publisher.reset();
        report(PMIXPP_LOG_WARN, "no shared-memory segment for " + std::string(nspace) +
                                    " (no writable PMIX_NSDIR, session directory or /dev/shm); "
                                    "its clients get a private copy of the data instead");
    }
    std::string image;
    const pmix_status_t rc = build_image(nspace, ns->local, 0, &image);
    return rc == PMIX_SUCCESS ? encode_inline(image, blob_p) : rc;
}

pmix_status_t ShmemStore::import_nspace(const char *nspace, const pmix_byte_object_t &blob)
{
    if (!valid_nspace(nspace)) return PMIX_ERR_BAD_PARAM;
    BlobKind kind{};
    Reference ref;
    const char *image = nullptr;
    size_t image_size = 0;
    pmix_status_t rc = decode_blob(blob, &kind, &ref, &image, &image_size);
    if (rc != PMIX_SUCCESS) return rc;
    std::shared_ptr<const Segment> segment;
    std::string why;
    if (kind == BlobKind::inline_image) {
        rc = Segment::from_bytes(image, image_size, nspace, &segment, &why);
    } else if (ref.nspace != nspace) {
        return PMIX_ERR_BAD_PARAM;
    } else {
        rc = Segment::map_file(ref.path, nspace, &segment, &why);
        // An older file than the server announced is not the data we were sent.
        if (rc == PMIX_SUCCESS && segment->header().generation < ref.generation) {
            why = ref.path + " holds an older generation than announced";
            rc = PMIX_ERR_NOT_AVAILABLE;
        }
        if (rc == PMIX_SUCCESS && segment->header().generation == ref.generation &&
            segment->header().header_checksum != ref.checksum) {
            why = ref.path + " is not the segment that was announced";
            rc = PMIX_ERR_NOT_AVAILABLE;
        }
    }
    if (rc != PMIX_SUCCESS) {
        const bool cannot_map = kind == BlobKind::reference && rc != PMIX_ERR_BAD_PARAM && rc != PMIX_ERR_NOMEM;
        // The one line a user sees: the core then fetches a private copy
        // (and says so only if that fails too).
        report(PMIXPP_LOG_WARN, "cannot share the job data of " + std::string(nspace) + " (" + why + ")" +
                                    (cannot_map ? "; this process keeps a private copy from the server instead "
                                                  "(more memory per process; make the segment's directory "
                                                  "visible here to share it)"
                                                : std::string("; the import fails: ") + PMIx_Error_string(rc)));
        return cannot_map ? PMIX_ERR_NOT_AVAILABLE : rc;
    }
    std::unique_lock lock(mutex_);
    Namespace &ns = nspaces_[nspace];
    ns.segment = std::move(segment);
    ns.refresh_failed = false;
    return PMIX_SUCCESS;
}

}  // namespace gds_shmem
