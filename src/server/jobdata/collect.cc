// Sorting registration info by level (see collect.h).
#include "server/jobdata/collect.h"

#include "common/store/resolver.h"
#include "server/jobdata/attribute_kinds.h"

#include "common/regex/regex.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace pmixpp::jobdata {
namespace {

// Nesting deeper than this is refused: no sane host needs it, and it bounds
// the recursion on hostile input.
constexpr int kMaxDepth = 16;

enum class Context { job, session, app, node, proc };

std::string_view key_of(const pmix_info_t &info)
{
    return {info.key, strnlen(info.key, sizeof info.key)};
}

bool is_container(std::string_view key)
{
    return key == PMIX_SESSION_INFO_ARRAY || key == PMIX_JOB_INFO_ARRAY || key == PMIX_APP_INFO_ARRAY ||
           key == PMIX_NODE_INFO_ARRAY || key == PMIX_PROC_INFO_ARRAY;
}

// The info array inside a *_INFO_ARRAY value, or nullptr if it is not one.
const pmix_data_array_t *info_array(const pmix_info_t &info)
{
    if (info.value.type != PMIX_DATA_ARRAY || info.value.data.darray == nullptr) return nullptr;
    const pmix_data_array_t *array = info.value.data.darray;
    if (array->type != PMIX_INFO || (array->size > 0 && array->array == nullptr)) return nullptr;
    return array;
}

std::string text_of(const pmix_value_t &value)
{
    if (value.type == PMIX_STRING) return value.data.string ? value.data.string : "";
    // PMIX_REGEX: a byte object whose size may count the terminating NUL.
    const pmix_byte_object_t &bo = value.data.bo;
    if (bo.bytes == nullptr) return {};
    return std::string(bo.bytes, strnlen(bo.bytes, bo.size));
}

// "0,1,4-7" (the ranks of PMIX_LOCAL_PEERS), bounded like the proc map.
bool parse_rank_list(const std::string &text, std::vector<pmix_rank_t> *ranks_p)
{
    std::vector<pmix_rank_t> ranks;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, end - at);
        at = end + 1;
        if (item.empty()) continue;
        unsigned long first = 0;
        unsigned long last = 0;
        char tail = 0;
        const int read = std::sscanf(item.c_str(), "%lu-%lu%c", &first, &last, &tail);
        if (read == 1 && item.find('-') != std::string::npos) return false;
        if (read == 1) last = first;
        if ((read != 1 && read != 2) || item.find_first_not_of("0123456789-") != std::string::npos || last < first ||
            last >= regex::kMaxRanks || ranks.size() + (last - first) >= regex::kMaxRanks) {
            return false;
        }
        for (unsigned long r = first; r <= last; ++r) ranks.push_back(static_cast<pmix_rank_t>(r));
    }
    *ranks_p = std::move(ranks);
    return true;
}

uint16_t derived_key_bit(std::string_view key)
{
    if (key == PMIX_RANK) return kGivenRank;
    if (key == PMIX_GLOBAL_RANK) return kGivenGlobalRank;
    if (key == PMIX_APPNUM) return kGivenAppnum;
    if (key == PMIX_APP_RANK) return kGivenAppRank;
    if (key == PMIX_LOCAL_RANK) return kGivenLocalRank;
    if (key == PMIX_NODE_RANK) return kGivenNodeRank;
    if (key == PMIX_NODEID) return kGivenNodeid;
    if (key == PMIX_HOSTNAME) return kGivenHostname;
    if (key == PMIX_LOCALITY_STRING) return kGivenLocality;
    return 0;
}

class Walker {
public:
    Walker(const char *nspace, Collected &out, std::string &error) : nspace_(nspace), out_(out), error_(error) {}

    pmix_status_t walk(const pmix_info_t info[], std::size_t ninfo, Context context, uint32_t id, int depth);

private:
    pmix_status_t fail(pmix_status_t rc, std::string message)
    {
        error_ = std::move(message);
        return rc;
    }
    pmix_status_t enter(const pmix_info_t &info, int depth);
    pmix_status_t entry(const pmix_info_t &info, Context context, uint32_t id);
    pmix_status_t job_entry(const pmix_info_t &info, std::string_view key);
    pmix_status_t session_entry(const pmix_info_t &info, std::string_view key);
    pmix_status_t proc_entry(const pmix_info_t &info, std::string_view key, GivenProc &proc);
    pmix_status_t node_index(const pmix_data_array_t &array, uint32_t *index_p);

    const char *nspace_;
    Collected &out_;
    std::string &error_;
    // The app whose array we are in (procs inside inherit its number).
    std::optional<uint32_t> current_app_;
};

pmix_status_t Walker::walk(const pmix_info_t info[], std::size_t ninfo, Context context, uint32_t id, int depth)
{
    if (depth > kMaxDepth) return fail(PMIX_ERR_BAD_PARAM, "info arrays nested deeper than 16 levels");
    for (std::size_t i = 0; i < ninfo; ++i) {
        const std::string_view key = key_of(info[i]);
        pmix_status_t rc = is_container(key) ? enter(info[i], depth) : entry(info[i], context, id);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

pmix_status_t Walker::enter(const pmix_info_t &info, int depth)
{
    const std::string_view key = key_of(info);
    const pmix_data_array_t *array = info_array(info);
    if (array == nullptr) {
        return fail(PMIX_ERR_TYPE_MISMATCH, std::string(key) + " must be a pmix_data_array_t of pmix_info_t");
    }
    const auto *infos = static_cast<const pmix_info_t *>(array->array);
    if (key == PMIX_SESSION_INFO_ARRAY) return walk(infos, array->size, Context::session, 0, depth + 1);
    if (key == PMIX_JOB_INFO_ARRAY) {
        // A session array may describe other jobs of the session too.
        const pmix_info_t *ns = util::find_info(*array, PMIX_NSPACE);
        if (ns != nullptr && ns->value.type == PMIX_STRING && ns->value.data.string != nullptr &&
            std::strncmp(ns->value.data.string, nspace_, PMIX_MAX_NSLEN) != 0) {
            return PMIX_SUCCESS;
        }
        return walk(infos, array->size, Context::job, 0, depth + 1);
    }
    if (key == PMIX_APP_INFO_ARRAY) {
        uint32_t appnum = 0;  // a single application need not number itself
        const pmix_info_t *num = util::find_info(*array, PMIX_APPNUM);
        if (num != nullptr && !as_uint32(num->value, &appnum)) {
            return fail(PMIX_ERR_TYPE_MISMATCH, "PMIX_APPNUM (pmix.appnum) in PMIX_APP_INFO_ARRAY must be uint32");
        }
        out_.apps[appnum];
        const auto saved = current_app_;
        current_app_ = appnum;
        const pmix_status_t rc = walk(infos, array->size, Context::app, appnum, depth + 1);
        current_app_ = saved;
        return rc;
    }
    if (key == PMIX_NODE_INFO_ARRAY) {
        uint32_t index = 0;
        const pmix_status_t rc = node_index(*array, &index);
        if (rc != PMIX_SUCCESS) return rc;
        return walk(infos, array->size, Context::node, index, depth + 1);
    }
    // PMIX_PROC_INFO_ARRAY
    const pmix_info_t *rank_info = util::find_info(*array, PMIX_RANK);
    const pmix_info_t *procid = rank_info == nullptr ? util::find_info(*array, PMIX_PROCID) : nullptr;
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    if (rank_info != nullptr) {
        if (!as_uint32(rank_info->value, &rank)) {
            return fail(PMIX_ERR_TYPE_MISMATCH, "PMIX_RANK (pmix.rank) in PMIX_PROC_INFO_ARRAY must be pmix_rank_t");
        }
    } else if (procid != nullptr && procid->value.type == PMIX_PROC && procid->value.data.proc != nullptr) {
        rank = procid->value.data.proc->rank;
    } else {
        return fail(PMIX_ERR_BAD_PARAM, "PMIX_PROC_INFO_ARRAY without PMIX_RANK or PMIX_PROCID");
    }
    if (!PMIX_RANK_IS_VALID(rank)) return fail(PMIX_ERR_BAD_PARAM, "PMIX_PROC_INFO_ARRAY names an invalid rank");
    GivenProc &proc = out_.procs.at(rank);
    if (current_app_ && !proc.appnum) proc.appnum = current_app_;
    return walk(infos, array->size, Context::proc, rank, depth + 1);
}

pmix_status_t Walker::node_index(const pmix_data_array_t &array, uint32_t *index_p)
{
    const pmix_info_t *id = util::find_info(array, PMIX_NODEID);
    const pmix_info_t *name = util::find_info(array, PMIX_HOSTNAME);
    if (id == nullptr && name == nullptr) {
        return fail(PMIX_ERR_BAD_PARAM, "PMIX_NODE_INFO_ARRAY needs PMIX_NODEID or PMIX_HOSTNAME");
    }
    GivenNode node;
    if (id != nullptr) {
        uint32_t nodeid = 0;
        if (!as_uint32(id->value, &nodeid)) {
            return fail(PMIX_ERR_TYPE_MISMATCH, "PMIX_NODEID (pmix.nodeid) in PMIX_NODE_INFO_ARRAY must be uint32");
        }
        node.nodeid = nodeid;
    }
    if (name != nullptr) {
        if (name->value.type != PMIX_STRING || name->value.data.string == nullptr) {
            return fail(PMIX_ERR_TYPE_MISMATCH, "PMIX_HOSTNAME (pmix.hname) in PMIX_NODE_INFO_ARRAY must be a string");
        }
        node.hostname = name->value.data.string;
    }
    // The same node may be described in several arrays (job's and app's).
    for (std::size_t i = 0; i < out_.nodes.size(); ++i) {
        const GivenNode &known = out_.nodes[i];
        if ((node.nodeid && known.nodeid == node.nodeid) || (node.hostname && known.hostname == node.hostname)) {
            if (!out_.nodes[i].nodeid) out_.nodes[i].nodeid = node.nodeid;
            if (!out_.nodes[i].hostname) out_.nodes[i].hostname = node.hostname;
            *index_p = static_cast<uint32_t>(i);
            return PMIX_SUCCESS;
        }
    }
    out_.nodes.push_back(std::move(node));
    *index_p = static_cast<uint32_t>(out_.nodes.size() - 1);
    return PMIX_SUCCESS;
}

pmix_status_t Walker::entry(const pmix_info_t &info, Context context, uint32_t id)
{
    const std::string_view key = key_of(info);
    // A string without text is a host saying nothing (Open MPI registers the
    // locality of an unbound process so): skipped, not stored.
    if (info.value.type == PMIX_STRING && info.value.data.string == nullptr) return PMIX_SUCCESS;
    std::string problem;
    if (!type_ok(key, info.value, &problem)) return fail(PMIX_ERR_TYPE_MISMATCH, problem);
    switch (context) {
    case Context::job: return job_entry(info, key);
    case Context::session: return session_entry(info, key);
    case Context::app: out_.apps[id].infos.push_back(&info); return PMIX_SUCCESS;
    case Context::node: out_.nodes[id].infos.push_back(&info); return PMIX_SUCCESS;
    case Context::proc: return proc_entry(info, key, out_.procs.at(id));
    }
    return PMIX_SUCCESS;
}

pmix_status_t Walker::job_entry(const pmix_info_t &info, std::string_view key)
{
    // Environment directives (PMIX_SET_ENVAR, ...) are not job data: the
    // server applies them to each child at fork (server/fork/envars.h).
    if (key.starts_with("pmix.envar.")) return PMIX_SUCCESS;
    uint32_t number = 0;
    if (key == PMIX_REGISTER_NODATA) {
        out_.nodata = info.value.type != PMIX_BOOL || info.value.data.flag;
        return PMIX_SUCCESS;
    }
    if (key == PMIX_HOSTNAME && info.value.type == PMIX_STRING) out_.this_hostname = info.value.data.string;
    if (key == PMIX_NODEID && as_uint32(info.value, &number)) out_.this_nodeid = number;
    if (key == PMIX_LOCAL_PEERS && !parse_rank_list(text_of(info.value), &out_.local_peers)) {
        return fail(PMIX_ERR_BAD_PARAM, "PMIX_LOCAL_PEERS (pmix.lpeers) must list ranks, e.g. \"0,1,4-7\"; got \"" +
                                            text_of(info.value).substr(0, 64) + "\"");
    }
    if (key == PMIX_NODE_MAP) out_.node_map = text_of(info.value);
    if (key == PMIX_PROC_MAP) out_.proc_map = text_of(info.value);
    if (key == PMIX_JOB_SIZE && as_uint32(info.value, &number)) out_.job_size = number;
    if (key == PMIX_MAX_PROCS && as_uint32(info.value, &number)) out_.max_procs = number;
    if (key == PMIX_JOB_NUM_APPS && as_uint32(info.value, &number)) out_.num_apps = number;
    if (key == PMIX_NPROC_OFFSET && as_uint32(info.value, &number)) out_.nproc_offset = number;
    // Flat entries of another natural level describe this job's session, its
    // (only) application or this node.
    const auto level = store::natural_level(key);
    if (key == PMIX_SESSION_ID || level == PMIXPP_GDS_LEVEL_SESSION) {
        pmix_status_t rc = session_entry(info, key);
        if (key != PMIX_SESSION_ID) return rc;
    } else if (level == PMIXPP_GDS_LEVEL_NODE) {
        out_.local_node.push_back(&info);
        return PMIX_SUCCESS;
    } else if (level == PMIXPP_GDS_LEVEL_APP) {
        out_.apps[0].infos.push_back(&info);
        return PMIX_SUCCESS;
    }
    out_.job.push_back(&info);
    return PMIX_SUCCESS;
}

pmix_status_t Walker::session_entry(const pmix_info_t &info, std::string_view key)
{
    uint32_t number = 0;
    if (key == PMIX_SESSION_ID && as_uint32(info.value, &number)) out_.session_id = number;
    if (key == PMIX_UNIV_SIZE && as_uint32(info.value, &number)) out_.univ_size = number;
    if (key == PMIX_MAX_PROCS && as_uint32(info.value, &number)) out_.session_max_procs = number;
    out_.session.push_back(&info);
    return PMIX_SUCCESS;
}

pmix_status_t Walker::proc_entry(const pmix_info_t &info, std::string_view key, GivenProc &proc)
{
    uint32_t number = 0;
    proc.given_keys |= derived_key_bit(key);
    if (key == PMIX_APPNUM && as_uint32(info.value, &number)) proc.appnum = number;
    if (key == PMIX_NODEID && as_uint32(info.value, &number)) proc.nodeid = number;
    if (key == PMIX_HOSTNAME && info.value.type == PMIX_STRING) proc.hostname = info.value.data.string;
    if (key == PMIX_CPUSET && info.value.type == PMIX_STRING) {
        proc.cpuset = info.value.data.string;
    }
    proc.add(&info);
    return PMIX_SUCCESS;
}

}  // namespace

GivenProc &ProcTable::at(pmix_rank_t rank)
{
    GivenProc *proc = nullptr;
    if (rank < dense_.size()) {
        proc = &dense_[rank];
    } else if (sparse_.empty() && rank - dense_.size() <= kMaxDenseGap) {
        dense_.resize(static_cast<std::size_t>(rank) + 1);
        proc = &dense_[rank];
    } else {
        proc = &sparse_[rank];
    }
    if (!proc->present) {
        proc->present = true;
        ++count_;
        if (rank < dense_.size() && rank >= dense_last_) dense_last_ = rank;
    }
    return *proc;
}

bool as_uint32(const pmix_value_t &value, uint32_t *out_p)
{
    return util::read_unsigned(value, out_p) == PMIX_SUCCESS;
}

pmix_status_t collect(const char *nspace, const pmix_info_t info[], std::size_t ninfo, Collected *out_p,
                      std::string *error_p)
{
    if (ninfo > 0 && info == nullptr) {
        *error_p = "info is NULL but ninfo > 0";
        return PMIX_ERR_BAD_PARAM;
    }
    Collected out;
    // Most entries of a big job are its procs' arrays: one slot each, and
    // never more than the host's own array holds (a huge PMIX_JOB_SIZE alone
    // must not allocate).
    out.procs.reserve(ninfo);
    Walker walker(nspace, out, *error_p);
    const pmix_status_t rc = walker.walk(info, ninfo, Context::job, 0, 0);
    if (rc == PMIX_SUCCESS) *out_p = std::move(out);
    return rc;
}

}  // namespace pmixpp::jobdata
