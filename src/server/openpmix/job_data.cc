#include "server/openpmix/job_data.h"

#include "common/openpmix/kvals.h"
#include "common/runtime/log.h"
#include "common/store/derived_keys.h"
#include "server/state/peer_io.h"

#include <pmixpp/util.hpp>

#include <cstring>
#include <map>
#include <set>
#include <utility>

namespace pmixpp::server {

namespace {

// The blobs of one namespace, by the encoding they were built for.
struct OpenPmixJobData {
    std::map<std::pair<openpmix::Bfrops, openpmix::BufferType>, std::vector<uint8_t>> blobs;
};

using Level = store::Level;

store::InfoArray fetch_level(const Server &server, const Namespace &ns, Level level, uint32_t id)
{
    store::InfoArray info;
    (void)server.store->fetch_all(ns.name.c_str(), level, id, &info);  // nothing there: an empty array
    return info;
}

// A key the peer's encoding cannot carry (a 3.2 client has no
// PMIX_GEOMETRY, no PMIX_DEVICE_DIST, ...) is left out, not the whole job:
// OpenPMIx's own server never sends a peer what its module lacks.
void note_left_out(const openpmix::Writer &writer, const char *key)
{
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       std::string("job data for an OpenPMIx peer speaking ") +
                           openpmix::bfrops_name(writer.encoding().bfrops) + " leaves out " + key + ": " +
                           writer.reason());
}

bool packs_for(openpmix::Encoding encoding, const pmix_info_t &item)
{
    openpmix::Writer trial(encoding);
    if (trial.pack_kval(item.key, item.value) == PMIX_SUCCESS) return true;
    note_left_out(trial, item.key);
    return false;
}

pmix_status_t pack_infos(openpmix::Writer &writer, const store::InfoArray &info)
{
    for (const pmix_info_t &item : info) {
        const pmix_status_t rc = writer.pack_kval(item.key, item.value);
        if (rc == PMIX_ERR_UNKNOWN_DATA_TYPE) {
            note_left_out(writer, item.key);
        } else if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

// One key whose value is an info array: `lead` (the array's identity, its
// session id, node id or app number, when the level's data lacks it) and the
// level's data, borrowed.
pmix_status_t pack_array(openpmix::Writer &writer, const char *key, const pmix_info_t *lead,
                         const store::InfoArray &info)
{
    std::vector<pmix_info_t> items;
    items.reserve(info.size() + 1);
    if (lead != nullptr) items.push_back(*lead);
    for (const pmix_info_t &item : info) {
        if (packs_for(writer.encoding(), item)) items.push_back(item);
    }
    return openpmix::write_info_array_kval(writer, key, items);
}

pmix_info_t u32_info(const char *key, uint32_t v)
{
    pmix_info_t info{};
    std::strncpy(info.key, key, PMIX_MAX_KEYLEN);
    info.value.type = PMIX_UINT32;
    info.value.data.uint32 = v;
    return info;
}

bool read_u32(const store::InfoArray &info, const char *key, uint32_t *v_p)
{
    const pmix_info_t *found = util::find_info(info.data(), info.size(), key);
    return found != nullptr && util::read_unsigned(found->value, v_p) == PMIX_SUCCESS;
}

bool has_key(const store::InfoArray &info, const char *key)
{
    return util::find_info(info.data(), info.size(), key) != nullptr;
}

pmix_status_t pack_level_arrays(openpmix::Writer &writer, const Server &server, const Namespace &ns, Level level,
                                const char *array_key, const char *id_key, const std::set<uint32_t> &ids)
{
    for (uint32_t id : ids) {
        const store::InfoArray info = fetch_level(server, ns, level, id);
        const pmix_info_t lead = u32_info(id_key, id);
        const pmix_status_t rc = pack_array(writer, array_key, has_key(info, id_key) ? nullptr : &lead, info);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

// One rank's key/values (KVAL packs), and the node and application it is on.
pmix_status_t rank_kvals(const Server &server, const Namespace &ns, openpmix::Encoding encoding, pmix_rank_t rank,
                         std::set<uint32_t> &nodes, std::set<uint32_t> &apps, std::vector<uint8_t> *kvals_p)
{
    store::InfoArray info = fetch_level(server, ns, PMIXPP_GDS_LEVEL_PROC, rank);
    const store::Store &store = *server.store;
    pmix_status_t rc = store::add_derived_proc_keys(store.module(), store.handle(), ns.name.c_str(), rank, &info);
    if (rc == PMIX_ERR_NOT_FOUND) return PMIX_SUCCESS;  // nothing known of this rank
    if (rc != PMIX_SUCCESS) return rc;
    uint32_t id = 0;
    if (read_u32(info, PMIX_NODEID, &id)) nodes.insert(id);
    if (read_u32(info, PMIX_APPNUM, &id)) apps.insert(id);
    openpmix::Writer writer(encoding);
    rc = pack_infos(writer, info);
    if (rc == PMIX_SUCCESS) *kvals_p = writer.take();
    return rc;
}

pmix_status_t pack_session(openpmix::Writer &writer, const Server &server, const Namespace &ns,
                           const store::InfoArray &job)
{
    uint32_t session = 0;
    if (!read_u32(job, PMIX_SESSION_ID, &session)) return PMIX_SUCCESS;
    return pack_level_arrays(writer, server, ns, PMIXPP_GDS_LEVEL_SESSION, PMIX_SESSION_INFO_ARRAY, PMIX_SESSION_ID,
                             {session});
}

}  // namespace

pmix_status_t build_job_pieces(const Server &server, const Namespace &ns, openpmix::Encoding encoding,
                               JobPieces *pieces_p)
{
    JobPieces pieces;
    std::set<uint32_t> nodes;
    std::set<uint32_t> apps;
    pmix_status_t rc = PMIX_SUCCESS;
    for (pmix_rank_t rank = 0; rank < ns.summary.job_size && rc == PMIX_SUCCESS; ++rank) {
        std::vector<uint8_t> kvals;
        rc = rank_kvals(server, ns, encoding, rank, nodes, apps, &kvals);
        if (rc == PMIX_SUCCESS && !kvals.empty()) pieces.ranks.emplace_back(rank, std::move(kvals));
    }
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    const store::InfoArray job = fetch_level(server, ns, PMIXPP_GDS_LEVEL_JOB, 0);
    rc = pack_infos(writer, job);
    if (rc == PMIX_SUCCESS) rc = pack_session(writer, server, ns, job);
    if (rc == PMIX_SUCCESS) {
        rc = pack_level_arrays(writer, server, ns, PMIXPP_GDS_LEVEL_NODE, PMIX_NODE_INFO_ARRAY, PMIX_NODEID, nodes);
    }
    if (rc == PMIX_SUCCESS) {
        rc = pack_level_arrays(writer, server, ns, PMIXPP_GDS_LEVEL_APP, PMIX_APP_INFO_ARRAY, PMIX_APPNUM, apps);
    }
    if (rc != PMIX_SUCCESS) return rc;
    pieces.job_level = writer.take();
    *pieces_p = std::move(pieces);
    return PMIX_SUCCESS;
}

pmix_status_t build_job_data(const Server &server, const Namespace &ns, openpmix::Encoding encoding,
                             std::vector<uint8_t> *blob_p)
{
    JobPieces pieces;
    pmix_status_t rc = build_job_pieces(server, ns, encoding, &pieces);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_string(ns.name.c_str());
    writer.append_raw(pieces.job_level.data(), pieces.job_level.size());
    for (const auto &[rank, kvals] : pieces.ranks) {
        if (rc != PMIX_SUCCESS) break;
        openpmix::Writer blob(encoding);
        rc = blob.pack_rank(rank);
        blob.append_raw(kvals.data(), kvals.size());
        pmix_value_t value{};
        value.type = PMIX_BYTE_OBJECT;
        value.data.bo.bytes = const_cast<char *>(reinterpret_cast<const char *>(blob.bytes().data()));
        value.data.bo.size = blob.bytes().size();
        if (rc == PMIX_SUCCESS) rc = writer.pack_kval(PMIX_PROC_BLOB, value);
    }
    if (rc == PMIX_SUCCESS) *blob_p = writer.take();
    return rc;
}

pmix_status_t build_namespace_answer(const Server &server, const Namespace &ns, openpmix::Encoding encoding,
                                     std::vector<uint8_t> *answer_p)
{
    JobPieces pieces;
    pmix_status_t rc = build_job_pieces(server, ns, encoding, &pieces);
    if (rc != PMIX_SUCCESS) return rc;
    openpmix::Writer writer(encoding);
    rc = writer.pack_status(PMIX_SUCCESS);
    auto add = [&](pmix_rank_t rank, const std::vector<uint8_t> &kvals) {
        pmix_proc_t proc{};
        PMIX_LOAD_PROCID(&proc, ns.name.c_str(), rank);
        openpmix::Writer object(encoding);
        pmix_status_t added = object.pack_proc(proc);
        object.append_raw(kvals.data(), kvals.size());
        if (added == PMIX_SUCCESS) added = writer.pack_byte_object(object.bytes().data(), object.bytes().size());
        return added;
    };
    if (rc == PMIX_SUCCESS) rc = add(PMIX_RANK_WILDCARD, pieces.job_level);
    for (const auto &[rank, kvals] : pieces.ranks) {
        if (rc == PMIX_SUCCESS) rc = add(rank, kvals);
    }
    if (rc == PMIX_SUCCESS) *answer_p = writer.take();
    return rc;
}

pmix_status_t pack_job_level(const Server &server, const std::string &nspace, openpmix::Writer &writer)
{
    store::InfoArray job;
    if (server.store->fetch_all(nspace.c_str(), PMIXPP_GDS_LEVEL_JOB, 0, &job) != PMIX_SUCCESS) return PMIX_SUCCESS;
    return pack_infos(writer, job);
}

void send_job_data(Server &server, Peer &peer, OpenPmixDialect &dialect, uint32_t tag)
{
    Namespace *ns = server.find_namespace(util::nspace_of(peer.proc));
    if (peer.tool && (ns == nullptr || !ns->registered)) {
        // A tool's own namespace holds no job: its name alone.
        openpmix::Writer writer(dialect.encoding());
        if (writer.pack_string(util::nspace_of(peer.proc).c_str()) == PMIX_SUCCESS) {
            (void)dialect.send_native(peer, tag, writer.bytes());
        }
        return;
    }
    if (ns == nullptr || !ns->registered) {
        runtime::log_warning("server", "no job data for " + describe(peer) + ": its namespace is gone");
        (void)dialect.send_native(peer, tag, {});
        return;
    }
    const openpmix::Encoding encoding = dialect.encoding();
    auto &cache = ns->part<OpenPmixJobData>().blobs;
    const auto key = std::make_pair(encoding.bfrops, encoding.type);
    auto found = cache.find(key);
    if (found == cache.end()) {
        std::vector<uint8_t> blob;
        const pmix_status_t rc = build_job_data(server, *ns, encoding, &blob);
        if (rc != PMIX_SUCCESS) {
            runtime::log_warning("server", "cannot lay out the job data of " + ns->name + " for " + describe(peer) +
                                               " in OpenPMIx's encoding " + openpmix::bfrops_name(encoding.bfrops) +
                                               ": " + PMIx_Error_string(rc));
            (void)dialect.send_native(peer, tag, {});
            return;
        }
        found = cache.emplace(key, std::move(blob)).first;
    }
    (void)dialect.send_native(peer, tag, found->second);
}

}  // namespace pmixpp::server
