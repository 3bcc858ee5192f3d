// A data-collecting fence with many local participants sends each of them
// the same collected bytes. Past a size (Config::share_modex_bytes) the
// server instead leaves them once in shared memory through its gds
// (share_modex) and the replies only name where they are; each client's gds
// reads them from there (import_modex). A namespace the store cannot share
// (not registered here, a gds without the operation, no usable directory)
// keeps its records in the reply, so nothing is ever lost.
#include "server/requests/requests.h"

#include <pmixpp/util.hpp>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server {
namespace {

using util::nspace_of;

bool worth_sharing(const Server &server, std::size_t recipients, const wire::FenceReply &reply)
{
    const long long limit = server.config.share_modex_bytes;
    if (limit < 0 || reply.data.empty() || !server.store->shares_modex()) return false;
    return static_cast<long long>(reply.data.size()) * static_cast<long long>(recipients) >= limit;
}

using ProcsByNspace = std::map<std::string, std::vector<pmixpp_gds_proc_data_t>>;

ProcsByNspace group(const std::vector<wire::ProcData> &records)
{
    ProcsByNspace by_nspace;
    for (const wire::ProcData &record : records) {
        by_nspace[nspace_of(record.proc)].push_back(
            pmixpp_gds_proc_data_t{record.proc.rank, record.info.data(), record.info.size()});
    }
    return by_nspace;
}

// The shared entry for one namespace, or nothing when it stays inline.
bool share_one(Server &server, const std::string &nspace, const std::vector<pmixpp_gds_proc_data_t> &procs,
               wire::SharedModex *shared_p)
{
    if (server.find_namespace(nspace.c_str()) == nullptr) return false;
    pmix_byte_object_t blob{};
    if (server.store->share_modex(nspace.c_str(), procs.data(), procs.size(), &blob) != PMIX_SUCCESS) return false;
    const auto *bytes = reinterpret_cast<const uint8_t *>(blob.bytes);
    shared_p->nspace = nspace;
    shared_p->blob.assign(bytes, bytes + blob.size);
    std::free(blob.bytes);
    return true;
}

}  // namespace

bool reads_collected_data(Server &server, PeerId id)
{
    const Peer *peer = server.find_peer(id);
    return peer != nullptr && (!peer->dialect || peer->dialect->reads_collected_data());
}

void share_collected(Server &server, std::size_t recipients, wire::FenceReply &reply)
{
    if (!worth_sharing(server, recipients, reply)) return;
    std::vector<wire::ProcData> records;
    if (wire::decode_modex(reply.data.data(), reply.data.size(), &records) != PMIX_SUCCESS) return;
    std::vector<wire::SharedModex> shared;
    std::set<std::string> moved;
    for (const auto &[nspace, procs] : group(records)) {
        wire::SharedModex entry;
        if (!share_one(server, nspace, procs, &entry)) continue;
        shared.push_back(std::move(entry));
        moved.insert(nspace);
    }
    if (shared.empty()) return;
    std::erase_if(records, [&](const wire::ProcData &record) { return moved.count(nspace_of(record.proc)) != 0; });
    wire::Bytes rest;
    if (!records.empty() && wire::encode_modex(records, &rest) != PMIX_SUCCESS) return;  // all stays inline
    reply.data = std::move(rest);
    reply.shared = std::move(shared);
}

}  // namespace pmixpp::server
