// What PMIx_server_init's info asks for, checked and with defaults applied.
#ifndef PMIXPP_SERVER_STATE_CONFIG_H
#define PMIXPP_SERVER_STATE_CONFIG_H

#include <pmix_common.h>

#include <chrono>
#include <optional>
#include <cstddef>
#include <string>

struct event_base;

namespace pmixpp::server {

struct Config {
    std::string nspace;           // PMIX_SERVER_NSPACE or "pmixpp-server-<host>-<pid>"
    pmix_rank_t rank = 0;         // PMIX_SERVER_RANK
    std::string hostname;         // PMIX_HOSTNAME or gethostname()
    bool hostname_given = false;  // PMIX_HOSTNAME was given
    // PMIX_USERID / PMIX_GRPID: whose jobs this server runs (Slurm passes
    // the job's user; its slurmstepd is root). Files clients must open (the
    // socket, shared segments) are given to them.
    std::optional<uint32_t> job_uid;
    std::optional<uint32_t> job_gid;
    std::string server_tmpdir;                // PMIX_SERVER_TMPDIR or TMPDIR/TEMP/TMP or /tmp
    std::string system_tmpdir;                // PMIX_SYSTEM_TMPDIR or the same fallback
    struct event_base *event_base = nullptr;  // PMIX_EVENT_BASE
    pmix_topology_t *topology =
        nullptr;                   // PMIX_TOPOLOGY2: the host's, valid during init only (setup_topology copies it)
    bool share_topology = false;   // PMIX_SERVER_SHARE_TOPOLOGY
    bool single_listener = false;  // PMIX_SINGLE_LISTENER
    // Which rendezvous files the server writes (server/rendezvous/server_files.cc);
    // gateway and monitoring are only recorded.
    bool tool_support = false;     // PMIX_SERVER_TOOL_SUPPORT
    bool system_support = false;   // PMIX_SERVER_SYSTEM_SUPPORT
    bool session_support = false;  // PMIX_SERVER_SESSION_SUPPORT
    bool gateway = false;          // PMIX_SERVER_GATEWAY
    bool scheduler = false;        // PMIX_SERVER_SCHEDULER
    bool monitoring = false;       // PMIX_SERVER_ENABLE_MONITORING
    // How long an accepted connection may take to complete its Hello:
    // PMIX_MCA_ptl_base_handshake_timeout, in seconds (fractions allowed),
    // default 10. A peer that stays silent, or sends part of a frame and
    // stops, is closed after it with one log line.
    std::chrono::milliseconds handshake_timeout{kDefaultHandshakeTimeout};
    // PMIX_MCA_pmix_server_share_modex_bytes: a data-collecting fence whose
    // replies would carry at least this many bytes in all (collected bytes
    // times local participants) leaves the data in shared memory (gds
    // share_modex) instead; -1 never does. Below it, writing a segment
    // costs more than the copies it saves.
    long long share_modex_bytes = kDefaultShareModexBytes;

    // PMIX_MCA_pmix_event_caching_window, in seconds (fractions allowed),
    // default 1 as in OpenPMIx: clients lost within it reach the host as
    // one event (lost_report.h); 0 tells each at once.
    std::chrono::milliseconds event_caching_window{kDefaultEventCachingWindow};

    // PMIX_MCA_ptl_base_max_parked_requests: gets one peer may keep waiting
    // for data not yet committed (0: no limit). Past it a get is answered
    // PMIX_ERR_OUT_OF_RESOURCE: a peer that never reads could otherwise
    // park them without end.
    std::size_t max_parked_requests = kDefaultMaxParkedRequests;
    // PMIX_MCA_ptl_base_max_connections_per_uid: connections of one user
    // the server holds at once, handshaking or connected (0: no limit). A
    // connection over it is closed at accept, so a flood from one local user
    // costs the others nothing.
    std::size_t max_connections_per_uid = kDefaultMaxConnectionsPerUid;

    // PMIX_MCA_ptl_base_max_pending_requests: requests of one peer the
    // server holds unanswered at once, of any kind (fences waiting for other
    // participants, host upcalls, parked gets; 0: no limit). Past it a
    // request is answered PMIX_ERR_OUT_OF_RESOURCE at once.
    std::size_t max_pending_requests = kDefaultMaxPendingRequests;

    static constexpr std::size_t kDefaultMaxParkedRequests = 4096;
    static constexpr std::size_t kDefaultMaxPendingRequests = 8192;
    static constexpr std::size_t kDefaultMaxConnectionsPerUid = 4096;
    static constexpr std::chrono::milliseconds kDefaultHandshakeTimeout{10000};
    static constexpr std::chrono::milliseconds kDefaultEventCachingWindow{1000};
    static constexpr long long kDefaultShareModexBytes = 131072;
};

inline constexpr const char *kHandshakeTimeoutEnv = "PMIX_MCA_ptl_base_handshake_timeout";
inline constexpr const char *kShareModexBytesEnv = "PMIX_MCA_pmix_server_share_modex_bytes";
inline constexpr const char *kEventCachingWindowEnv = "PMIX_MCA_pmix_event_caching_window";
inline constexpr const char *kMaxParkedRequestsEnv = "PMIX_MCA_ptl_base_max_parked_requests";
inline constexpr const char *kMaxPendingRequestsEnv = "PMIX_MCA_ptl_base_max_pending_requests";
inline constexpr const char *kMaxConnectionsPerUidEnv = "PMIX_MCA_ptl_base_max_connections_per_uid";

// PMIX_ERR_BAD_PARAM (with *error_p naming the attribute) for a value of the
// wrong type or an nspace longer than PMIX_MAX_NSLEN.
pmix_status_t parse_config(const pmix_info_t info[], std::size_t ninfo, Config *config_p, std::string *error_p);

std::string local_hostname();

}  // namespace pmixpp::server

#endif
