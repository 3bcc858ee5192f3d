// gds/shmem: a namespace's registered data lives once per node in a
// shared-memory segment that every local client maps read-only; the export a
// client receives only names the segment. Modex data stays in process memory.
#include "segment_places.h"
#include "shmem_store.h"

#include <pmixpp/component.hpp>
#include <pmixpp/gds.h>

#include <atomic>
#include <mutex>
#include <string>
#include <cstdio>
#include <cstring>
#include <new>

namespace {

std::atomic<const pmixpp_services_t *> g_services{nullptr};
std::atomic<bool> g_modex_on_disk{false};
std::atomic<bool> g_job_data_on_disk{false};
std::mutex g_memory_dir_mutex;
std::string g_memory_dir = "/dev/shm";

std::string directory_hint(const pmix_info_t info[], size_t ninfo)
{
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (std::strncmp(info[i].key, PMIXPP_GDS_HINT_DIR, PMIX_MAX_KEYLEN) == 0 && info[i].value.type == PMIX_STRING &&
            info[i].value.data.string != nullptr) {
            return info[i].value.data.string;
        }
    }
    return {};
}

gds_shmem::FileOwner owner_hint(const pmix_info_t info[], size_t ninfo)
{
    gds_shmem::FileOwner owner;
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (info[i].value.type != PMIX_UINT32) continue;
        if (std::strncmp(info[i].key, PMIX_USERID, PMIX_MAX_KEYLEN) == 0) owner.uid = info[i].value.data.uint32;
        if (std::strncmp(info[i].key, PMIX_GRPID, PMIX_MAX_KEYLEN) == 0) owner.gid = info[i].value.data.uint32;
    }
    return owner;
}

// ShmemStore as the module glue wants it: built from the store_create
// hints, with the two exports as separate operations.
class HintedStore : public gds_shmem::ShmemStore {
public:
    HintedStore(const pmix_info_t info[], size_t ninfo)
        : ShmemStore(directory_hint(info, ninfo), owner_hint(info, ninfo))
    {}

    pmix_status_t export_nspace(const char *nspace, pmix_byte_object_t *blob_p)
    {
        return ShmemStore::export_nspace(nspace, false, blob_p);
    }
    pmix_status_t export_nspace_inline(const char *nspace, pmix_byte_object_t *blob_p)
    {
        return ShmemStore::export_nspace(nspace, true, blob_p);
    }
};

constexpr pmixpp_gds_module_t shmem_module = gds_shared::ModuleGlue<HintedStore>::table("shmem");

}  // namespace

struct GdsShmem {
    static constexpr const char *version = "1.0.0";
    // Above hash: a node's job data lives once in memory. A client that
    // cannot map a segment falls back to a private copy (the core fetches
    // it), so preferring shmem never costs correctness.
    static constexpr int priority = 20;
    static constexpr uint16_t framework_major = PMIXPP_GDS_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_GDS_API_MINOR;

    static void register_params(pmixpp::sdk::Services &services)
    {
        services.register_param("memory_dir", PMIXPP_PARAM_STRING, "/dev/shm",
                                "where segments go when the session directory is on a disk file system "
                                "(empty: job data stays there, fence data travels in the replies)");
        services.register_param("job_data_on_disk", PMIXPP_PARAM_BOOL, "false",
                                "keep a namespace's job data in the session directory even when that is on "
                                "a disk file system");
        services.register_param("modex_on_disk", PMIXPP_PARAM_BOOL, "false",
                                "share fence data in a segment even when the session directory is on a "
                                "disk file system (each shared fence then creates a file there)");
    }
    static void open(pmixpp::sdk::Services &services)
    {
        g_services = services.raw();
        g_modex_on_disk = services.param_bool("modex_on_disk", false);
        g_job_data_on_disk = services.param_bool("job_data_on_disk", false);
        gds_shmem::set_memory_dir(services.param_string("memory_dir"));
    }
    static const void *query(pmixpp::sdk::Services &services, int &)
    {
        g_services = services.raw();
        return &shmem_module;
    }
    static void close() { g_services = nullptr; }
};

PMIXPP_CXX_COMPONENT(gds, shmem, GdsShmem)

bool gds_shmem::kept_on_disk(SegmentKind kind)
{
    return kind == SegmentKind::job_data ? g_job_data_on_disk.load() : g_modex_on_disk.load();
}

std::string gds_shmem::memory_dir()
{
    std::lock_guard lock(g_memory_dir_mutex);
    return g_memory_dir;
}

void gds_shmem::set_memory_dir(const std::string &dir)
{
    std::lock_guard lock(g_memory_dir_mutex);
    g_memory_dir = dir;
}

void gds_shmem::report(pmixpp_log_level_t level, const std::string &line)
{
    const pmixpp_services_t *services = g_services.load();
    if (services != nullptr) {
        pmixpp::sdk::Services(services, pmixpp_gds_shmem_component()).log(level, "%s", line.c_str());
    } else {
        std::fprintf(stderr, "pmixpp: gds/shmem: %s\n", line.c_str());
    }
}
