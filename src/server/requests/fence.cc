// PMIx_Fence: local collective tracking. Participants are counted per
// participant set. When every participant lives on this node the fence
// completes here, without the host, as OpenPMIx 4.2 does it (hosts rely on
// that: python3-pmix's host-side fence upcall can never call back).
// Otherwise, once every LOCAL participant has arrived, the host's fence_nb
// gets the local contribution (a modex blob, when data is collected) and the
// merged directives, once; without a host fence_nb such a fence fails with
// PMIX_ERR_NOT_SUPPORTED. The host's blob is stored
// (other nodes' data) and, with PMIX_COLLECT_DATA, handed to every local
// participant. PMIX_TIMEOUT fails the fence with PMIX_ERR_TIMEOUT.
//
// A participant that disconnects before the host was called fails the
// fence for the others with PMIX_ERR_LOST_CONNECTION (it can never
// complete); after the host was called the fence goes on without it. A
// fence that starts when a local participant is already gone (finalized,
// died, deregistered, and not connected again) fails the same way at once.
#include "common/runtime/log.h"
#include "server/state/peer_io.h"
#include "server/state/info_read.h"
#include "server/requests/participants.h"
#include "server/requests/requests.h"
#include "server/requests/fence_tracker.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

namespace pmixpp::server {

namespace {

void merge_directives(Collective &collective, wire::InfoArray &directives)
{
    if (directive_flag(directives.data(), directives.size(), PMIX_COLLECT_DATA)) {
        collective.collect = true;
    }
    if (collective.directives.empty()) collective.directives = std::move(directives);
}

}  // namespace

wire::Bytes take_host_blob(const char *data, size_t ndata, pmix_release_cbfunc_t release, void *release_cbdata,
                           pmix_status_t *status_p)
{
    wire::Bytes blob;
    try {
        if (data != nullptr && ndata > 0) blob.assign(data, data + ndata);
    } catch (const std::bad_alloc &) {
        *status_p = PMIX_ERR_NOMEM;
    }
    // Later, never inside the host's callback: the host may hold a lock
    // while it calls us that its release function takes again (Slurm's
    // collectives do: an inline release deadlocked slurmstepd). Should the
    // engine be gone, the host's buffer is left to it rather than released
    // under its own lock.
    if (release != nullptr) (void)post_later([release, release_cbdata] { release(release_cbdata); });
    return blob;
}

pmix_status_t store_remote_blob(Server &server, const wire::Bytes &blob)
{
    if (blob.empty()) return PMIX_SUCCESS;
    std::vector<wire::ProcData> records;
    pmix_status_t rc = wire::decode_modex(blob.data(), blob.size(), &records);
    if (rc != PMIX_SUCCESS) return rc;
    for (const auto &record : records) {
        Namespace *ns = server.find_namespace(record.proc.nspace);
        if (ns != nullptr && ns->is_local(record.proc.rank)) continue;
        rc = server.store->put_modex(record.proc.nspace, record.proc.rank, PMIX_REMOTE, record.info.data(),
                                     record.info.size());
        if (rc != PMIX_SUCCESS) return rc;
        if (ns != nullptr) ns->remote_data.insert(record.proc.rank);
    }
    return PMIX_SUCCESS;
}

namespace {

// What the local participants receive. The host's collective carries each
// proc's data as REMOTE procs may see it (remote + global scope); a proc on
// this node must instead see its local peers with local + global scope, so
// their records are rebuilt from the store, and PMIX_REMOTE keys never reach
// a peer on the same node.
pmix_status_t blob_for_local_peers(Server &server, const wire::Bytes &collected, wire::Bytes *blob_p)
{
    if (collected.empty()) return PMIX_SUCCESS;
    std::vector<wire::ProcData> records;
    pmix_status_t rc = wire::decode_modex(collected.data(), collected.size(), &records);
    if (rc != PMIX_SUCCESS) return rc;
    for (auto &record : records) {
        Namespace *ns = server.find_namespace(record.proc.nspace);
        if (ns == nullptr || !ns->is_local(record.proc.rank)) continue;
        rc = proc_modex(server, record.proc, PMIX_LOCAL, &record);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return wire::encode_modex(records, blob_p);
}

pmix_status_t local_blob(Server &server, const Collective &collective, pmix_scope_t scope, wire::Bytes *blob_p);

// The data the local participants receive, and what the host's blob holds
// for other nodes stored. A host whose collective brought back exactly our
// own contribution (a single node) adds nothing: no record to store, and
// the local view is built straight from the store, without decoding.
pmix_status_t take_collected(Server &server, const Collective &collective, const wire::Bytes &blob,
                             wire::Bytes *reply_data_p)
{
    const bool only_ours =
        !blob.empty() && collective.arrived.size() == collective.expected.size() && blob == collective.contribution;
    if (only_ours && collective.collect) {
        if (reply_data_p == nullptr) return PMIX_SUCCESS;
        if (collective.contribution_scope == PMIX_LOCAL) {
            *reply_data_p = blob;
            return PMIX_SUCCESS;
        }
        return local_blob(server, collective, PMIX_LOCAL, reply_data_p);
    }
    if (only_ours) return PMIX_SUCCESS;
    pmix_status_t status = store_remote_blob(server, blob);
    if (status == PMIX_SUCCESS && collective.collect && reply_data_p != nullptr) {
        status = blob_for_local_peers(server, blob, reply_data_p);
    }
    return status;
}

// The reply encoded once for every participant that reads it; `readers`
// says which do.
void send_to_all(Server &server, const std::vector<Arrival> &participants, const std::vector<bool> &readers,
                 const wire::FenceReply &reply, bool for_readers)
{
    wire::Bytes bytes;
    const pmix_status_t encoded = wire::encode_to_bytes(reply, &bytes);
    for (std::size_t i = 0; i < participants.size(); ++i) {
        if (readers[i] != for_readers) continue;
        Peer *peer = server.find_peer(participants[i].peer);
        if (peer == nullptr) continue;
        if (encoded != PMIX_SUCCESS) {
            send_message(*peer, wire::FrameKind::reply, participants[i].tag, reply);  // logs and closes
            continue;
        }
        send_bytes(*peer, wire::FrameKind::reply, participants[i].tag, bytes);
    }
}

void finish_fence(Server &server, uint64_t id, pmix_status_t status, const wire::Bytes &blob)
{
    Collective *collective = server.part<FenceTracker>().find(id);
    if (collective == nullptr) return;  // timed out or failed already
    collective->timer.cancel();
    if (collective->host_called) {
        runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                           "the host's fence_nb answered " + std::string(PMIx_Error_string(status)) + " with " +
                               std::to_string(blob.size()) + " bytes");
    }
    // Who reads the collected data: an OpenPMIx peer gets only the status
    // and fetches the data with a get, so it is neither gathered nor
    // shared for it.
    std::vector<bool> readers(collective->arrived.size(), false);
    std::size_t nreaders = 0;
    for (std::size_t i = 0; i < readers.size(); ++i) {
        readers[i] = collective->collect && reads_collected_data(server, collective->arrived[i].peer);
        nreaders += readers[i] ? 1 : 0;
    }
    wire::FenceReply reply;
    wire::Bytes *gathered = nreaders > 0 ? &reply.data : nullptr;
    if (status == PMIX_SUCCESS) status = take_collected(server, *collective, blob, gathered);
    if (status == PMIX_SUCCESS && nreaders > 0) share_collected(server, nreaders, reply);
    reply.status = status;
    const std::vector<Arrival> participants = std::move(collective->arrived);
    server.part<FenceTracker>().erase(id);
    if (nreaders > 0) send_to_all(server, participants, readers, reply, true);
    if (nreaders < participants.size()) {
        wire::FenceReply status_only;
        status_only.status = status;
        send_to_all(server, participants, readers, status_only, false);
    }
}

// A host that answers fence_nb from inside the call (one node, nothing to
// exchange) hands its result here, and call_host completes the fence right
// after, without a trip through the event loop.
struct InlineAnswer {
    uint64_t id = 0;
    bool answered = false;
    pmix_status_t status = PMIX_SUCCESS;
    wire::Bytes blob;
};
thread_local InlineAnswer *inline_answer = nullptr;

// What the host's fence_nb is handed, owned by the call itself: the host
// may read procs and directives until it calls back, and that may be after
// the fence timed out and its Collective is gone. The callback frees it,
// whichever came first. The contribution (`data`) is the host's own: a
// malloc'ed copy it releases with free(), as OpenPMIx hands it (Open MPI's
// mpirun loads it into a buffer that frees it).
struct HostFenceCall {
    uint64_t id = 0;
    std::vector<pmix_proc_t> procs;
    wire::InfoArray directives;
};

// The contribution as the host will own it; nullptr for none (or no memory:
// *rc_p says which).
char *host_owned_copy(const wire::Bytes &blob, pmix_status_t *rc_p)
{
    *rc_p = PMIX_SUCCESS;
    if (blob.empty()) return nullptr;
    auto *copy = static_cast<char *>(std::malloc(blob.size()));
    if (copy == nullptr) {
        *rc_p = PMIX_ERR_NOMEM;
        return nullptr;
    }
    std::memcpy(copy, blob.data(), blob.size());
    return copy;
}

void host_fence_done(pmix_status_t status, const char *data, size_t ndata, void *cbdata, pmix_release_cbfunc_t release,
                     void *release_cbdata)
{
    std::unique_ptr<HostFenceCall> call(static_cast<HostFenceCall *>(cbdata));
    const uint64_t id = call == nullptr ? 0 : call->id;
    wire::Bytes blob = take_host_blob(data, ndata, release, release_cbdata, &status);
    call.reset();
    if (inline_answer != nullptr && inline_answer->id == id && !inline_answer->answered) {
        inline_answer->answered = true;
        inline_answer->status = status;
        inline_answer->blob = std::move(blob);
        return;
    }
    post_to_server([id, status, blob = std::move(blob)](Server &server) { finish_fence(server, id, status, blob); });
}

pmix_status_t local_blob(Server &server, const Collective &collective, pmix_scope_t scope, wire::Bytes *blob_p)
{
    std::vector<wire::ProcData> records;
    for (const auto &participant : collective.arrived) {
        wire::ProcData data;
        const pmix_status_t rc = proc_modex(server, participant.proc, scope, &data);
        if (rc != PMIX_SUCCESS) return rc;
        records.push_back(std::move(data));
    }
    return wire::encode_modex(records, blob_p);
}

pmix_status_t make_host_call(Collective &collective, std::unique_ptr<HostFenceCall> *call_p)
{
    auto call = std::make_unique<HostFenceCall>();
    call->id = collective.id;
    call->procs = collective.procs;
    const pmix_status_t rc = call->directives.assign_copy(collective.directives.data(), collective.directives.size());
    if (rc != PMIX_SUCCESS) return rc;
    collective.contribution = std::move(collective.local_blob);
    *call_p = std::move(call);
    return PMIX_SUCCESS;
}

void call_host(Server &server, Collective &collective)
{
    const uint64_t id = collective.id;
    pmix_status_t rc = PMIX_SUCCESS;
    if (collective.collect) rc = local_blob(server, collective, PMIX_REMOTE, &collective.local_blob);
    std::unique_ptr<HostFenceCall> call;
    try {
        if (rc == PMIX_SUCCESS) rc = make_host_call(collective, &call);
    } catch (const std::bad_alloc &) {
        rc = PMIX_ERR_NOMEM;
    }
    const std::size_t ndata = collective.contribution.size();
    char *data = rc == PMIX_SUCCESS ? host_owned_copy(collective.contribution, &rc) : nullptr;
    if (rc != PMIX_SUCCESS) return finish_fence(server, id, rc, {});
    collective.host_called = true;
    HostFenceCall *raw = call.release();
    InlineAnswer answer;
    answer.id = id;
    InlineAnswer *outer = inline_answer;
    inline_answer = &answer;
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       "asking the host's fence_nb for " + std::to_string(raw->procs.size()) + " proc set(s), " +
                           std::to_string(collective.arrived.size()) + " local, " + std::to_string(ndata) +
                           " bytes of data" + (collective.collect ? " (collect)" : ""));
    rc = server.host.slots().fence_nb(raw->procs.data(), raw->procs.size(), raw->directives.data(),
                                      raw->directives.size(), data, ndata, host_fence_done, raw);
    inline_answer = outer;
    if (answer.answered) {
        // The host called back before returning: that is its answer, even if
        // it also returned an error status (it must not have; the callback
        // has freed raw already).
        return finish_fence(server, id, answer.status, answer.blob);
    }
    if (rc == PMIX_SUCCESS) return;
    // Not accepted: the host will not call back (an error, or
    // OPERATION_SUCCEEDED: completed at once, with no data).
    delete raw;
    finish_fence(server, id, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc, {});
}

void launch(Server &server, Collective &collective)
{
    if (!collective.all_local) {
        if (server.host.slots().fence_nb != nullptr) return call_host(server, collective);
        return finish_fence(server, collective.id, PMIX_ERR_NOT_SUPPORTED, {});
    }
    wire::Bytes blob;
    pmix_status_t rc = PMIX_SUCCESS;
    if (collective.collect) rc = local_blob(server, collective, PMIX_LOCAL, &blob);
    if (rc == PMIX_SUCCESS) {
        collective.contribution = blob;
        collective.contribution_scope = PMIX_LOCAL;
    }
    finish_fence(server, collective.id, rc, blob);
}

std::vector<pmix_proc_t> participant_set(const Server &server, const Peer &peer, const wire::FenceRequest &request)
{
    std::vector<pmix_proc_t> procs = request.procs;
    if (procs.empty()) procs.push_back(make_proc(peer.proc.nspace, PMIX_RANK_WILDCARD));
    return normalised(with_groups_expanded(server, std::move(procs)));
}

}  // namespace

void handle_fence(Server &server, Peer &peer, uint32_t tag, wire::FenceRequest &request)
{
    if (arena_fence(server, peer, tag, request)) return;
    std::vector<pmix_proc_t> procs = participant_set(server, peer, request);
    Participants participants = local_participants(server, procs);
    if (participants.local.count(proc_name(peer.proc)) == 0) {
        return reply_to(server, peer.id, tag, wire::FenceReply{PMIX_ERR_BAD_PARAM, {}, {}});
    }
    if (participants.any_gone) {
        // A participant whose connection already ended can never arrive:
        // the same answer as when it leaves during the fence.
        return reply_to(server, peer.id, tag, wire::FenceReply{PMIX_ERR_LOST_CONNECTION, {}, {}});
    }
    bool created = false;
    Collective &collective = join(server.part<FenceTracker>(), signature_of(procs), peer, tag, &created);
    if (created) {
        collective.procs = std::move(procs);
        collective.expected = std::move(participants.local);
        collective.all_local = participants.all_local;
    }
    merge_directives(collective, request.directives);
    if (created) {
        arm_timeout(server, collective, [](Server &now, uint64_t id) { finish_fence(now, id, PMIX_ERR_TIMEOUT, {}); });
    }
    if (collective.complete()) launch(server, collective);
}

void fence_peer_lost(Server &server, const Peer &peer)
{
    leave_all(server.part<FenceTracker>(), peer,
              [&server](uint64_t id) { finish_fence(server, id, PMIX_ERR_LOST_CONNECTION, {}); });
}

void fail_all_fences(Server &server, pmix_status_t status)
{
    for (uint64_t id : server.part<FenceTracker>().ids()) finish_fence(server, id, status, {});
}

}  // namespace pmixpp::server
