// gds/shmem: one store. A namespace is either owned (stored here: a server,
// or a client's own additions) or imported (a segment mapped read-only), or
// both: local values shadow the segment's. Owned namespaces are published to
// a segment at their first export and republished at every later store().
#ifndef PMIXPP_GDS_SHMEM_SHMEM_STORE_H
#define PMIXPP_GDS_SHMEM_SHMEM_STORE_H

#include "local_data.h"
#include "segment_reader.h"
#include "segment_writer.h"

#include <pmix_common.h>
#include <pmixpp/gds.h>

#include <sys/types.h>

#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gds_shmem {

// One line for people (component log, or stderr before the core is known).
void report(pmixpp_log_level_t level, const std::string &line);

class ShmemStore {
public:
    ShmemStore(std::string dir_hint, FileOwner file_owner);
    ~ShmemStore();
    ShmemStore(const ShmemStore &) = delete;
    ShmemStore &operator=(const ShmemStore &) = delete;

    pmix_status_t store(const pmixpp_gds_address_t &addr, const pmix_info_t info[], size_t ninfo);
    pmix_status_t fetch(const pmixpp_gds_address_t &addr, const char *key, pmix_value_t **value_p);
    pmix_status_t fetch_all(const pmixpp_gds_address_t &addr, pmix_info_t **info_p, size_t *ninfo_p);
    pmix_status_t lookup_node(const char *nspace, const char *hostname, uint32_t *nodeid_p);
    bool has_nspace(const char *nspace) const;

    pmix_status_t store_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t scope, const pmix_info_t info[],
                              size_t ninfo);
    pmix_status_t fetch_modex(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, const char *key,
                              pmix_value_t **value_p);
    pmix_status_t fetch_modex_all(const char *nspace, pmix_rank_t rank, pmix_scope_t visible_to, pmix_info_t **info_p,
                                  size_t *ninfo_p);

    // Fence results shared with local clients (shared_modex.cc).
    pmix_status_t share_modex(const char *nspace, const pmixpp_gds_proc_data_t procs[], size_t nprocs,
                              pmix_byte_object_t *blob_p);
    pmix_status_t import_modex(const char *nspace, const pmix_byte_object_t &blob, pmix_rank_t keep);

    pmix_status_t remove_nspace(const char *nspace);
    pmix_status_t export_nspace(const char *nspace, bool inline_data, pmix_byte_object_t *blob_p);
    pmix_status_t import_nspace(const char *nspace, const pmix_byte_object_t &blob);

private:
    // The results of data-collecting fences, one segment per namespace
    // beside its job data: written by share_modex on a server, named to a
    // client by import_modex and mapped there on its first fetch.
    struct SharedModex {
        LocalData view;                          // server: everything shared so far
        std::unique_ptr<Publisher> publisher;    // server
        bool publish_failed = false;             // server: said so once
        bool declined = false;                   // server: directory on disk
        std::string path;                        // client: where it is
        uint64_t generation = 0;                 //   the newest announced
        uint64_t checksum = 0;                   //   and its header checksum
        std::shared_ptr<const Segment> segment;  // client: mapped, or null
        bool map_failed = false;                 // client: said so once
    };
    struct Namespace {
        LocalData local;
        std::unique_ptr<SharedModex> modex;      // see SharedModex
        std::shared_ptr<const Segment> segment;  // imported
        bool refresh_failed = false;
        bool publish_failed = false;
        std::unique_ptr<Publisher> publisher;  // owned and exported
    };
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
    };
    using Namespaces = std::unordered_map<std::string, Namespace, NameHash, std::equal_to<>>;

    Namespace *find(const char *nspace);
    const Namespace *find(const char *nspace) const;
    // The namespace's segment, reopened first when a newer generation replaced it.
    std::shared_ptr<const Segment> current_segment(const char *nspace, std::shared_ptr<const Segment> seen);
    pmix_status_t publish(const char *nspace, Namespace &ns);
    // The client's mapping of nspace's shared modex segment at the announced
    // generation (or newer), mapped first if needed; null when there is none
    // or it cannot be mapped (logged once: Gets then go to the server).
    std::shared_ptr<const Segment> modex_segment(const char *nspace);
    // A value of (nspace, rank) from the shared modex segment, decoded into
    // *decoded_p (which the caller destructs).
    pmix_status_t fetch_shared_modex(const char *nspace, pmix_rank_t rank, const char *key, pmix_value_t *decoded_p);
    std::string segment_directory(const Namespace &ns) const;
    std::string segment_path(const std::string &dir, const char *nspace);

    mutable std::shared_mutex mutex_;
    Namespaces nspaces_;
    const std::string dir_hint_;
    const pid_t owner_;
    const FileOwner file_owner_;  // of the segments: the job's user (gds.h hints)
    uint64_t next_serial_ = 0;
};

}  // namespace gds_shmem

#endif
