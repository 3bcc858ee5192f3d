// First pass of registration: walks the (possibly nested) info array handed
// to PMIx_server_register_nspace and sorts every entry by the level it
// describes, without copying values (they stay in the host's array for the
// duration of the call).
#ifndef PMIXPP_SERVER_JOBDATA_COLLECT_H
#define PMIXPP_SERVER_JOBDATA_COLLECT_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pmixpp::jobdata {

using InfoRefs = std::vector<const pmix_info_t *>;

struct GivenNode {
    std::optional<uint32_t> nodeid;
    std::optional<std::string> hostname;
    InfoRefs infos;
};

struct GivenApp {
    InfoRefs infos;
};

// Which derived per-proc keys the host gave itself: registration then does
// not derive them (what the host gave wins), so a proc's batch never holds a
// key twice and the store takes it whole.
enum GivenKey : uint16_t {
    kGivenRank = 1u << 0,
    kGivenGlobalRank = 1u << 1,
    kGivenAppnum = 1u << 2,
    kGivenAppRank = 1u << 3,
    kGivenLocalRank = 1u << 4,
    kGivenNodeRank = 1u << 5,
    kGivenNodeid = 1u << 6,
    kGivenHostname = 1u << 7,
    kGivenLocality = 1u << 8,
};

struct GivenProc {
    // The host's entries for this proc, in order: a run of consecutive
    // entries of one array (the usual PMIX_PROC_INFO_ARRAY, no copy of the
    // pointers), then any others.
    const pmix_info_t *run = nullptr;
    uint32_t run_length = 0;
    uint16_t given_keys = 0;  // GivenKey bits
    bool present = false;
    InfoRefs more;
    std::optional<uint32_t> appnum;
    std::optional<uint32_t> nodeid;
    const char *hostname = nullptr;  // the host's text, valid during the call
    const char *cpuset = nullptr;    // PMIX_CPUSET text (hwloc list or mask)

    void add(const pmix_info_t *info)
    {
        if (more.empty() && (run_length == 0 || info == run + run_length)) {
            if (run_length == 0) run = info;
            ++run_length;
            return;
        }
        more.push_back(info);
    }
    template <typename Fn> void for_each_info(Fn &&fn) const
    {
        for (uint32_t i = 0; i < run_length; ++i) fn(run[i]);
        for (const pmix_info_t *info : more) fn(*info);
    }
    bool gave(GivenKey key) const { return (given_keys & key) != 0; }
};

// The procs the host described, by rank. Ranks are nearly always dense from
// 0, so they index a vector (no node and no tree search per proc); a rank
// far beyond the others goes to a map, so one stray huge rank cannot make
// the vector huge.
class ProcTable {
public:
    GivenProc &at(pmix_rank_t rank);
    const GivenProc *find(pmix_rank_t rank) const
    {
        if (rank < dense_.size()) return dense_[rank].present ? &dense_[rank] : nullptr;
        const auto it = sparse_.find(rank);
        return it == sparse_.end() ? nullptr : &it->second;
    }
    bool empty() const { return count_ == 0; }
    // The highest rank described; only when !empty().
    pmix_rank_t last_rank() const { return sparse_.empty() ? dense_last_ : sparse_.rbegin()->first; }
    void reserve(std::size_t n) { dense_.reserve(n); }
    // fn(rank, proc) for every described proc, ranks ascending.
    template <typename Fn> void for_each(Fn &&fn) const
    {
        for (std::size_t r = 0; r < dense_.size(); ++r) {
            if (dense_[r].present) fn(static_cast<pmix_rank_t>(r), dense_[r]);
        }
        for (const auto &[rank, proc] : sparse_) fn(rank, proc);
    }

private:
    static constexpr std::size_t kMaxDenseGap = 65536;
    std::vector<GivenProc> dense_;
    std::map<pmix_rank_t, GivenProc> sparse_;  // every rank here is >= dense_.size()
    std::size_t count_ = 0;
    pmix_rank_t dense_last_ = 0;
};

struct Collected {
    bool nodata = false;
    std::optional<uint32_t> session_id;
    InfoRefs session;
    InfoRefs job;
    InfoRefs local_node;  // flat node keys: they describe this node
    std::map<uint32_t, GivenApp> apps;
    std::vector<GivenNode> nodes;
    ProcTable procs;
    std::string node_map;  // PMIX_NODE_MAP of the job, if given
    std::string proc_map;  // PMIX_PROC_MAP of the job, if given

    // What the flat entries say of this node (layout.h decides with them
    // which node of the maps is this one): PMIX_HOSTNAME and PMIX_NODEID
    // given at the job's level, and the ranks of PMIX_LOCAL_PEERS.
    const char *this_hostname = nullptr;  // the host's text, valid during the call
    std::optional<uint32_t> this_nodeid;
    std::vector<pmix_rank_t> local_peers;

    // Numbers the host gave (already type-checked).
    std::optional<uint32_t> job_size, univ_size, max_procs, num_apps, session_max_procs;
    std::optional<pmix_rank_t> nproc_offset;
};

// PMIX_SUCCESS, or PMIX_ERR_BAD_PARAM / PMIX_ERR_TYPE_MISMATCH with *error_p
// naming the offending attribute.
pmix_status_t collect(const char *nspace, const pmix_info_t info[], std::size_t ninfo, Collected *out_p,
                      std::string *error_p);

// Reads an integer value of any integer type into a uint32_t (range-checked;
// util::read_unsigned of pmixpp/util.hpp).
bool as_uint32(const pmix_value_t &value, uint32_t *out_p);

}  // namespace pmixpp::jobdata

#endif
