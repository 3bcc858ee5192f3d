// OpenPMIx's requests, each turned into the request of ours that does the
// same, so the server's handlers serve both protocols. The payload orders
// are OpenPMIx's (docs/wire-protocol.md, "The OpenPMIx dialect"); the
// answers go back through the peer's dialect (dialect.cc).
#include "common/wire/messages.h"
#include "server/openpmix/dialect.h"
#include "server/openpmix/edge.h"
#include "server/openpmix/job_data.h"
#include "server/openpmix/translate.h"
#include "common/openpmix/frame.h"
#include "common/openpmix/kvals.h"
#include "common/openpmix/qualified.h"
#include "server/state/peer_io.h"

#include <pmixpp/util.hpp>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <type_traits>

namespace pmixpp::server {

namespace {

using openpmix::Command;
using openpmix::Reader;

template <typename Array> pmix_status_t read_counted(Reader &reader, Array *array_p)
{
    void *elements = nullptr;
    std::size_t n = 0;
    const pmix_status_t rc = reader.unpack_counted(Array::kType, &elements, &n);
    using Element = std::remove_reference_t<decltype(*array_p->data())>;
    if (rc == PMIX_SUCCESS) array_p->adopt(static_cast<Element *>(elements), n);
    return rc;
}

template <typename T> pmix_status_t read_plain(Reader &reader, pmix_data_type_t type, std::vector<T> *items_p)
{
    void *elements = nullptr;
    std::size_t n = 0;
    const pmix_status_t rc = reader.unpack_counted(type, &elements, &n);
    if (rc != PMIX_SUCCESS) return rc;
    const auto *items = static_cast<const T *>(elements);
    items_p->assign(items, items + n);
    std::free(elements);
    return PMIX_SUCCESS;
}

pmix_status_t read_procs(Reader &reader, std::vector<pmix_proc_t> *procs_p)
{
    return read_plain(reader, PMIX_PROC, procs_p);
}

// [n SIZE], then n keys, one PACK call each. A key is never empty (a NULL
// string, or a PACK call of no string, reads as empty) nor longer than
// PMIX_MAX_KEYLEN: ours would not decode such a request.
pmix_status_t read_keys(Reader &reader, std::vector<std::string> *keys_p)
{
    std::size_t n = 0;
    pmix_status_t rc = reader.unpack_size(&n);
    if (rc != PMIX_SUCCESS) return rc;
    if (n > reader.remaining()) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    for (std::size_t i = 0; i < n && rc == PMIX_SUCCESS; ++i) {
        std::string key;
        rc = reader.unpack_string(&key);
        if (rc == PMIX_SUCCESS && (key.empty() || key.size() > PMIX_MAX_KEYLEN)) rc = PMIX_ERR_BAD_PARAM;
        keys_p->push_back(std::move(key));
    }
    return rc;
}

// OpenPMIx sends a GLOBAL put in both the LOCAL and the REMOTE bucket; our
// store keeps one value per key, with one scope, so such a key goes back
// to GLOBAL.
pmix_status_t merge_global(wire::CommitRequest &request)
{
    std::vector<pmix_info_t> local, remote, global;
    for (const pmix_info_t &info : request.local) {
        const bool both = util::find_info(request.remote.data(), request.remote.size(), info.key) != nullptr;
        (both ? global : local).push_back(info);
    }
    for (const pmix_info_t &info : request.remote) {
        if (util::find_info(request.local.data(), request.local.size(), info.key) == nullptr) remote.push_back(info);
    }
    if (global.empty()) return PMIX_SUCCESS;
    wire::CommitRequest merged;
    pmix_status_t rc = merged.local.assign_copy(local.data(), local.size());
    if (rc == PMIX_SUCCESS) rc = merged.remote.assign_copy(remote.data(), remote.size());
    if (rc == PMIX_SUCCESS) rc = merged.global.assign_copy(global.data(), global.size());
    if (rc == PMIX_SUCCESS) request = std::move(merged);
    return rc;
}

// A put's data by scope: [scope][BUFFER of KVALs], for each scope that has
// data.
pmix_status_t read_commit(Reader &reader, wire::CommitRequest *request_p)
{
    while (!reader.at_end()) {
        pmix_scope_t scope = PMIX_SCOPE_UNDEF;
        int32_t n = 1;
        pmix_status_t rc = reader.unpack(PMIX_SCOPE, &scope, &n);
        pmix_data_buffer_t buffer{};
        n = 1;
        if (rc == PMIX_SUCCESS) rc = reader.unpack(PMIX_BUFFER, &buffer, &n);
        if (rc != PMIX_SUCCESS) return rc;
        wire::InfoArray *target = scope == PMIX_LOCAL    ? &request_p->local
                                  : scope == PMIX_REMOTE ? &request_p->remote
                                                         : &request_p->global;
        rc = openpmix::read_kvals(reader.encoding(),
                                  {reinterpret_cast<const uint8_t *>(buffer.base_ptr), buffer.bytes_used}, target);
        PMIX_DATA_BUFFER_DESTRUCT(&buffer);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return merge_global(*request_p);
}

pmix_status_t read_fence(Reader &reader, wire::FenceRequest *request_p)
{
    pmix_status_t rc = read_procs(reader, &request_p->procs);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    return rc;
}

// [nspace][rank][ninfo][infos][key, when one was asked for]
pmix_status_t read_get(Reader &reader, wire::GetRequest *request_p)
{
    std::string nspace;
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    pmix_status_t rc = reader.unpack_string(&nspace);
    if (rc == PMIX_SUCCESS) rc = reader.unpack_rank(&rank);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    if (rc == PMIX_SUCCESS && !reader.at_end()) rc = reader.unpack_string(&request_p->key);
    if (rc != PMIX_SUCCESS) return rc;
    if (!util::valid_nspace(nspace.c_str())) return PMIX_ERR_BAD_PARAM;
    PMIX_LOAD_PROCID(&request_p->proc, nspace.c_str(), rank);
    return PMIX_SUCCESS;
}

pmix_status_t read_abort(Reader &reader, wire::AbortRequest *request_p)
{
    pmix_status_t rc = reader.unpack_status(&request_p->status);
    if (rc == PMIX_SUCCESS) rc = reader.unpack_string(&request_p->message);
    if (rc == PMIX_SUCCESS) rc = read_procs(reader, &request_p->procs);
    return rc;
}

pmix_status_t read_nothing(Reader &, wire::FinalizeRequest *)
{
    return PMIX_SUCCESS;
}

// The uid OpenPMIx puts first is the sender's; ours is the kernel's.
pmix_status_t skip_uid(Reader &reader)
{
    uint32_t uid = 0;
    return reader.unpack_uint32(&uid);
}

pmix_status_t read_publish(Reader &reader, wire::PublishRequest *request_p)
{
    pmix_status_t rc = skip_uid(reader);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->info);
    return rc;
}

template <typename Request> pmix_status_t read_keyed(Reader &reader, Request *request_p)
{
    pmix_status_t rc = skip_uid(reader);
    if (rc == PMIX_SUCCESS) rc = read_keys(reader, &request_p->keys);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    return rc;
}

pmix_status_t read_spawn(Reader &reader, wire::SpawnRequest *request_p)
{
    pmix_status_t rc = read_counted(reader, &request_p->job_info);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->apps);
    return rc;
}

template <typename Request> pmix_status_t read_procs_and_info(Reader &reader, Request *request_p)
{
    pmix_status_t rc = read_procs(reader, &request_p->procs);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->info);
    return rc;
}

// [status][range][ninfo][infos]: the source is the sender.
pmix_status_t read_notify(Reader &reader, wire::NotifyEventRequest *request_p)
{
    int32_t n = 1;
    pmix_status_t rc = reader.unpack_status(&request_p->event.status);
    if (rc == PMIX_SUCCESS) rc = reader.unpack(PMIX_DATA_RANGE, &request_p->event.range, &n);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->event.info);
    return rc;
}

pmix_status_t read_register_events(Reader &reader, wire::RegisterEventsRequest *request_p)
{
    pmix_status_t rc = read_plain(reader, PMIX_STATUS, &request_p->codes);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->info);
    return rc;
}

// [nprocs][procs][ndirs][dirs][channel][the peer's id for it]
pmix_status_t read_iof_pull(Reader &reader, wire::IofPullRequest *request_p, uint64_t *peer_id_p)
{
    pmix_iof_channel_t channel = 0;
    int32_t n = 1;
    std::size_t peer_id = 0;
    pmix_status_t rc = read_procs(reader, &request_p->procs);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    if (rc == PMIX_SUCCESS) rc = reader.unpack(PMIX_IOF_CHANNEL, &channel, &n);
    if (rc == PMIX_SUCCESS) rc = reader.unpack_size(&peer_id);
    request_p->channels = channel;
    *peer_id_p = peer_id;
    return rc;
}

pmix_status_t read_iof_deregister(Reader &reader, wire::IofDeregisterRequest *request_p)
{
    std::size_t id = 0;
    pmix_status_t rc = read_counted(reader, &request_p->directives);
    if (rc == PMIX_SUCCESS) rc = reader.unpack_size(&id);
    request_p->id = id;
    return rc;
}

// [ntargets][targets][ndirs][dirs][data]: an empty byte object ends the
// stream.
pmix_status_t read_iof_push(Reader &reader, wire::IofPushRequest *request_p)
{
    pmix_status_t rc = read_procs(reader, &request_p->targets);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    pmix_byte_object_t data{};
    int32_t n = 1;
    if (rc == PMIX_SUCCESS && !reader.at_end()) rc = reader.unpack(PMIX_BYTE_OBJECT, &data, &n);
    if (rc != PMIX_SUCCESS) return rc;
    const auto *bytes = reinterpret_cast<const uint8_t *>(data.bytes);
    if (data.size > 0) request_p->data.assign(bytes, bytes + data.size);
    request_p->eof = data.size == 0;
    PMIX_BYTE_OBJECT_DESTRUCT(&data);
    return PMIX_SUCCESS;
}

pmix_status_t read_query(Reader &reader, wire::QueryRequest *request_p)
{
    return read_counted(reader, &request_p->queries);
}

// [timestamp TIME][ndata][data][ndirs][dirs]; a timestamp becomes
// PMIX_LOG_TIMESTAMP among the directives, as OpenPMIx's server adds it.
pmix_status_t read_log(Reader &reader, wire::LogRequest *request_p)
{
    time_t timestamp = 0;
    int32_t n = 1;
    pmix_status_t rc = reader.unpack(PMIX_TIME, &timestamp, &n);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->data);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    if (rc != PMIX_SUCCESS || timestamp == 0) return rc;
    std::vector<pmix_info_t> directives(request_p->directives.begin(), request_p->directives.end());
    pmix_info_t stamp{};
    PMIX_INFO_LOAD(&stamp, PMIX_LOG_TIMESTAMP, &timestamp, PMIX_TIME);
    directives.push_back(stamp);
    wire::InfoArray with_stamp;
    rc = with_stamp.assign_copy(directives.data(), directives.size());
    if (rc == PMIX_SUCCESS) request_p->directives = std::move(with_stamp);
    return rc;
}

pmix_status_t read_allocate(Reader &reader, wire::AllocateRequest *request_p)
{
    int32_t n = 1;
    pmix_status_t rc = reader.unpack(PMIX_ALLOC_DIRECTIVE, &request_p->directive, &n);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->info);
    return rc;
}

pmix_status_t read_job_control(Reader &reader, wire::JobControlRequest *request_p)
{
    pmix_status_t rc = read_procs(reader, &request_p->targets);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    return rc;
}

// [monitor INFO][error STATUS][ndirs][dirs]
pmix_status_t read_monitor(Reader &reader, wire::MonitorRequest *request_p)
{
    pmix_info_t monitor{};
    int32_t n = 1;
    pmix_status_t rc = reader.unpack(PMIX_INFO, &monitor, &n);
    if (rc == PMIX_SUCCESS) rc = request_p->monitor.assign_copy(&monitor, 1);
    PMIX_INFO_DESTRUCT(&monitor);
    if (rc == PMIX_SUCCESS) rc = reader.unpack_status(&request_p->error);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    return rc;
}

pmix_status_t read_get_credential(Reader &reader, wire::GetCredentialRequest *request_p)
{
    return read_counted(reader, &request_p->directives);
}

pmix_status_t read_validate_credential(Reader &reader, wire::ValidateCredentialRequest *request_p)
{
    pmix_byte_object_t credential{};
    int32_t n = 1;
    pmix_status_t rc = reader.unpack(PMIX_BYTE_OBJECT, &credential, &n);
    if (rc == PMIX_SUCCESS && credential.size > 0) {
        const auto *bytes = reinterpret_cast<const uint8_t *>(credential.bytes);
        request_p->credential.assign(bytes, bytes + credential.size);
    }
    PMIX_BYTE_OBJECT_DESTRUCT(&credential);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->directives);
    return rc;
}

pmix_status_t read_group_construct(Reader &reader, wire::GroupConstructRequest *request_p)
{
    pmix_status_t rc = reader.unpack_string(&request_p->group);
    if (rc == PMIX_SUCCESS) rc = read_procs(reader, &request_p->procs);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->info);
    return rc;
}

template <typename Request> pmix_status_t read_group_named(Reader &reader, Request *request_p)
{
    pmix_status_t rc = reader.unpack_string(&request_p->group);
    if (rc == PMIX_SUCCESS) rc = read_counted(reader, &request_p->info);
    return rc;
}

pmix_status_t read_fabric_register(Reader &reader, wire::FabricRegisterRequest *request_p)
{
    return read_counted(reader, &request_p->directives);
}

pmix_status_t read_fabric_update(Reader &reader, wire::FabricUpdateRequest *request_p)
{
    std::size_t index = 0;
    const pmix_status_t rc = reader.unpack_size(&index);
    request_p->index = index;
    return rc;
}

// Reads one request and hands ours on. Without a peer and dialect
// (translate_openpmix_payload) nothing is expected or dropped: the status
// and reason of a failure are kept for the caller.
class Translation {
public:
    Translation(Peer *peer, OpenPmixDialect *dialect, uint32_t tag, Reader &reader, std::vector<wire::Frame> *ours_p)
        : peer_(peer), dialect_(dialect), tag_(tag), reader_(reader), ours_(*ours_p)
    {}

    // Reads the request with `read`, then hands ours on for dispatch.
    template <typename Request>
    bool as(Command command, pmix_status_t (*read)(Reader &, Request *), OpenPmixPending pending = {})
    {
        Request request;
        if (!readable(command, read(reader_, &request))) return false;
        if constexpr (std::is_same_v<Request, wire::GetRequest>) {
            pending.proc = request.proc;
            if (openpmix::qualifiers_among(request.directives, &pending.qualifiers) != PMIX_SUCCESS) return false;
        }
        if constexpr (std::is_same_v<Request, wire::RegisterEventsRequest>) pending.codes = request.codes;
        if constexpr (std::is_same_v<Request, wire::NotifyEventRequest>) {
            if (peer_ != nullptr) request.event.source = peer_->proc;
        }
        pending.command = command;
        if (dialect_ != nullptr) dialect_->expect(tag_, std::move(pending));
        return add(request, tag_);
    }

    bool iof_pull()
    {
        wire::IofPullRequest request;
        OpenPmixPending pending;
        if (!readable(Command::iof_pull, read_iof_pull(reader_, &request, &pending.peer_id))) return false;
        pending.command = Command::iof_pull;
        if (dialect_ != nullptr) dialect_->expect(tag_, std::move(pending));
        return add(request, tag_);
    }

    // OpenPMIx's heartbeat: an empty message on tag 1, no answer.
    bool heartbeat() { return add(wire::HeartbeatRequest{}, wire::kNoTag); }

    // [code STATUS] until the end; no answer is expected, so ours go with
    // no tag.
    bool deregister_events()
    {
        std::vector<pmix_status_t> codes;
        while (!reader_.at_end()) {
            pmix_status_t code = PMIX_SUCCESS;
            if (!readable(Command::deregister_events, reader_.unpack_status(&code))) return false;
            codes.push_back(code);
        }
        if (dialect_ == nullptr) return true;  // no registrations to take
        for (uint64_t reference : dialect_->take_registrations(codes)) {
            wire::DeregisterEventsRequest request;
            request.reference = reference;
            if (!add(request, wire::kNoTag)) return false;
        }
        return !ours_.empty();
    }

    pmix_status_t status() const { return status_; }
    const std::string &reason() const { return reason_; }

private:
    bool readable(Command command, pmix_status_t rc)
    {
        if (rc == PMIX_SUCCESS) return true;
        fail(rc, std::string("malformed OpenPMIx ") + openpmix::command_name(command) +
                     " request: " + (reader_.reason().empty() ? PMIx_Error_string(rc) : reader_.reason()));
        return false;
    }

    template <typename Request> bool add(const Request &request, uint32_t tag)
    {
        wire::Frame ours;
        ours.header.kind = wire::FrameKind::request;
        ours.header.tag = tag;
        const pmix_status_t rc = wire::encode_to_bytes(request, &ours.payload);
        if (rc != PMIX_SUCCESS) {
            fail(rc, std::string("cannot translate its request: ") + PMIx_Error_string(rc));
            return false;
        }
        ours.header.payload_size = static_cast<uint32_t>(ours.payload.size());
        ours_.push_back(std::move(ours));
        return true;
    }

    void fail(pmix_status_t rc, std::string reason)
    {
        status_ = rc;
        reason_ = std::move(reason);
        if (peer_ != nullptr) drop_peer(*peer_, rc, reason_);
    }

    Peer *peer_;
    OpenPmixDialect *dialect_;
    uint32_t tag_;
    Reader &reader_;
    std::vector<wire::Frame> &ours_;
    pmix_status_t status_ = PMIX_SUCCESS;
    std::string reason_;
};

// Every command that becomes requests of ours; std::nullopt for the others
// (REQ, and those without a counterpart), which the server answers itself.
std::optional<bool> translate_command(Translation &to, Command command)
{
    switch (command) {
    case Command::commit: return to.as(command, read_commit);
    case Command::fence: return to.as(command, read_fence);
    case Command::get: return to.as(command, read_get);
    case Command::finalize: return to.as(command, read_nothing);
    case Command::abort: return to.as(command, read_abort);
    case Command::publish: return to.as(command, read_publish);
    case Command::lookup: return to.as(command, read_keyed<wire::LookupRequest>);
    case Command::unpublish: return to.as(command, read_keyed<wire::UnpublishRequest>);
    case Command::spawn: return to.as(command, read_spawn);
    case Command::connect: return to.as(command, read_procs_and_info<wire::ConnectRequest>);
    case Command::disconnect: return to.as(command, read_procs_and_info<wire::DisconnectRequest>);
    case Command::notify: return to.as(command, read_notify);
    case Command::register_events: return to.as(command, read_register_events);
    case Command::deregister_events: return to.deregister_events();
    case Command::iof_pull: return to.iof_pull();
    case Command::iof_push: return to.as(command, read_iof_push);
    case Command::iof_deregister: return to.as(command, read_iof_deregister);
    case Command::query: return to.as(command, read_query);
    case Command::log: return to.as(command, read_log);
    case Command::allocate: return to.as(command, read_allocate);
    case Command::job_control: return to.as(command, read_job_control);
    case Command::monitor: return to.as(command, read_monitor);
    case Command::get_credential: return to.as(command, read_get_credential);
    case Command::validate_credential: return to.as(command, read_validate_credential);
    case Command::group_construct: return to.as(command, read_group_construct);
    case Command::group_destruct: return to.as(command, read_group_named<wire::GroupDestructRequest>);
    case Command::group_leave: return to.as(command, read_group_named<wire::GroupLeaveRequest>);
    case Command::fabric_register: return to.as(command, read_fabric_register);
    case Command::fabric_update: return to.as(command, read_fabric_update);
    default: return std::nullopt;
    }
}

// A command without a counterpart here gets its status at once, as
// OpenPMIx's server answers what it cannot do.
void answer_not_supported(Peer &peer, OpenPmixDialect &dialect, uint32_t tag)
{
    openpmix::Writer writer(dialect.encoding());
    if (writer.pack_status(PMIX_ERR_NOT_SUPPORTED) == PMIX_SUCCESS) {
        (void)dialect.send_native(peer, tag, writer.bytes());
    }
}

// OpenPMIx's client asks for another job's data at rank WILDCARD, with the
// key it wants, and then looks for that key among what came back; our get
// would answer only the key at job level. So the whole job goes back.
bool answered_foreign_job(Server &server, Peer &peer, OpenPmixDialect &dialect, const wire::Frame &frame)
{
    Reader reader(dialect.encoding(), frame.payload);
    uint8_t command = 0;
    std::string nspace;
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    if (reader.unpack_command(&command) != PMIX_SUCCESS || reader.unpack_string(&nspace) != PMIX_SUCCESS ||
        reader.unpack_rank(&rank) != PMIX_SUCCESS) {
        return false;  // the translation says what is malformed
    }
    if (rank != PMIX_RANK_WILDCARD || nspace == util::nspace_of(peer.proc)) return false;
    const Namespace *ns = server.find_namespace(nspace);
    if (ns == nullptr || !ns->registered) return false;
    std::vector<uint8_t> answer;
    if (build_namespace_answer(server, *ns, dialect.encoding(), &answer) != PMIX_SUCCESS) return false;
    (void)dialect.send_native(peer, frame.header.tag, answer);
    return true;
}

}  // namespace

pmix_status_t translate_openpmix_payload(openpmix::Encoding encoding, std::span<const uint8_t> payload,
                                         std::vector<wire::Frame> *ours_p, std::string *reason_p)
{
    Reader reader(encoding, payload);
    uint8_t code = 0;
    if (reader.unpack_command(&code) != PMIX_SUCCESS) {
        *reason_p = "an OpenPMIx request too short to name its command";
        return PMIX_ERR_UNPACK_FAILURE;
    }
    const auto command = static_cast<Command>(code);
    Translation to(nullptr, nullptr, kTranslatedTag, reader, ours_p);
    if (!translate_command(to, command)) {
        *reason_p = std::string("OpenPMIx ") + openpmix::command_name(command) + " is answered by the server itself";
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (to.status() != PMIX_SUCCESS) *reason_p = to.reason();
    return to.status();
}

bool openpmix_request(Server &server, Peer &peer, const wire::Frame &frame, std::vector<wire::Frame> *ours_p)
{
    OpenPmixDialect *dialect = openpmix_dialect(peer);
    if (dialect == nullptr) return false;
    Reader reader(dialect->encoding(), frame.payload);
    if (frame.header.tag == openpmix::kTagHeartbeat)
        return Translation(&peer, dialect, frame.header.tag, reader, ours_p).heartbeat();
    uint8_t code = 0;
    if (reader.unpack_command(&code) != PMIX_SUCCESS) {
        drop_peer(peer, PMIX_ERR_UNPACK_FAILURE, "an OpenPMIx request too short to name its command");
        return false;
    }
    const auto command = static_cast<Command>(code);
    if (command == Command::req) {
        send_job_data(server, peer, *dialect, frame.header.tag);
        return false;
    }
    if (command == Command::get && answered_foreign_job(server, peer, *dialect, frame)) return false;
    Translation to(&peer, dialect, frame.header.tag, reader, ours_p);
    if (const std::optional<bool> translated = translate_command(to, command)) return *translated;
    answer_not_supported(peer, *dialect, frame.header.tag);
    return false;
}

}  // namespace pmixpp::server
