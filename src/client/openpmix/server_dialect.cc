#include "client/openpmix/server_dialect.h"

#include "client/openpmix/group_requests.h"
#include "client/openpmix/host_requests.h"
#include "client/openpmix/invite_and_join.h"
#include "client/openpmix/iof_requests.h"
#include "client/openpmix/security_requests.h"
#include "common/openpmix/in_order.h"
#include "common/openpmix/kvals.h"
#include "common/openpmix/qualified.h"

#include <climits>
#include <cstring>
#include <utility>

namespace pmixpp::client {

namespace {

using openpmix::Reader;
using openpmix::Writer;

// How OpenPMIx names a handler of every code when it (de)registers it.
constexpr pmix_status_t kEveryCode = INT_MIN;

template <typename Ours> pmix_status_t decode(std::span<const uint8_t> bytes, Ours *ours_p)
{
    return wire::decode_payload(bytes.data(), bytes.size(), ours_p);
}

using openpmix::in_order;

pmix_status_t pack_infos(Writer &writer, const wire::InfoArray &info)
{
    return writer.pack_counted(PMIX_INFO, info.data(), info.size());
}

// One scope's data as [scope][BUFFER of KVALs]; nothing when it is empty.
// A GLOBAL put goes in both LOCAL and REMOTE, as OpenPMIx's client sends it.
pmix_status_t pack_scope(Writer &writer, pmix_scope_t scope, const wire::InfoArray &own, const wire::InfoArray &global)
{
    if (own.empty() && global.empty()) return PMIX_SUCCESS;
    Writer kvals(writer.encoding());
    pmix_status_t rc = in_order([&] { return openpmix::write_kvals(kvals, own.data(), own.size()); },
                                [&] { return openpmix::write_kvals(kvals, global.data(), global.size()); });
    if (rc != PMIX_SUCCESS) return rc;
    pmix_data_buffer_t buffer{};
    buffer.base_ptr = reinterpret_cast<char *>(const_cast<uint8_t *>(kvals.bytes().data()));
    buffer.bytes_used = kvals.bytes().size();
    return in_order([&] { return writer.pack(PMIX_SCOPE, &scope, 1); },
                    [&] { return writer.pack(PMIX_BUFFER, &buffer, 1); });
}

pmix_status_t pack_commit(Writer &writer, const wire::CommitRequest &r)
{
    return in_order([&] { return pack_scope(writer, PMIX_LOCAL, r.local, r.global); },
                    [&] { return pack_scope(writer, PMIX_REMOTE, r.remote, r.global); });
}

// [nspace][rank][ninfo][infos][key, unless all of the proc's are wanted]
pmix_status_t pack_get(Writer &writer, const wire::GetRequest &r)
{
    return in_order([&] { return writer.pack_string(r.proc.nspace); }, [&] { return writer.pack_rank(r.proc.rank); },
                    [&] { return pack_infos(writer, r.directives); },
                    [&] { return r.key.empty() ? PMIX_SUCCESS : writer.pack_string(r.key.c_str()); });
}

pmix_status_t pack_abort(Writer &writer, const wire::AbortRequest &r)
{
    return in_order([&] { return writer.pack_status(r.status); },
                    [&] { return writer.pack_string(r.message.empty() ? nullptr : r.message.c_str()); },
                    [&] {
                        return r.procs.empty() ? writer.pack_size(0)
                                               : writer.pack_counted(PMIX_PROC, r.procs.data(), r.procs.size());
                    });
}

template <typename Reply> pmix_status_t encode_reply(const Reply &reply, wire::Bytes *ours_p)
{
    return wire::encode_to_bytes(reply, ours_p);
}

pmix_status_t status_reply(pmix_status_t status, wire::Bytes *ours_p)
{
    wire::StatusReply reply;
    reply.status = status;
    return encode_reply(reply, ours_p);
}

// OpenPMIx's server answers with every qualified value of the proc: the
// ones kept under the get's qualifiers become plain keys (what our server
// answers such a get), the others are not the proc's data and are dropped.
void unqualify_answer(const wire::InfoArray &qualifiers, std::vector<pmix_info_t> *items_p)
{
    std::vector<pmix_info_t> kept;
    for (pmix_info_t &item : *items_p) {
        pmix_info_t plain{};
        if (!PMIX_CHECK_KEY(&item, PMIX_QUALIFIED_VALUE)) {
            kept.push_back(item);
            continue;
        }
        if (!qualifiers.empty() && openpmix::unqualify(item.value, qualifiers, &plain)) kept.push_back(plain);
        PMIX_INFO_DESTRUCT(&item);
    }
    *items_p = std::move(kept);
}

// [status], then byte objects of [proc][KVALs]: the requested proc's go to
// the reply; a job's (rank WILDCARD, sent when another job was asked for)
// too, as our server answers a job-level get.
pmix_status_t read_get_answer(Reader &reader, const pmix_proc_t &wanted, const wire::InfoArray &qualifiers,
                              wire::GetReply *reply_p)
{
    std::vector<pmix_info_t> items;
    pmix_status_t rc = PMIX_SUCCESS;
    while (rc == PMIX_SUCCESS && !reader.at_end()) {
        pmix_byte_object_t object{};
        int32_t n = 1;
        rc = reader.unpack(PMIX_BYTE_OBJECT, &object, &n);
        if (rc != PMIX_SUCCESS) break;
        Reader inner(reader.encoding(),
                     std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(object.bytes), object.size));
        pmix_proc_t proc{};
        rc = inner.unpack_proc(&proc);
        const bool theirs = proc.rank == wanted.rank || proc.rank == PMIX_RANK_UNDEF;
        if (rc == PMIX_SUCCESS && (theirs || proc.rank == PMIX_RANK_WILDCARD)) rc = openpmix::read_kvals(inner, &items);
        PMIX_BYTE_OBJECT_DESTRUCT(&object);
    }
    unqualify_answer(qualifiers, &items);
    if (rc == PMIX_SUCCESS) rc = reply_p->data.assign_copy(items.data(), items.size());
    for (pmix_info_t &info : items) PMIX_INFO_DESTRUCT(&info);
    return rc;
}

}  // namespace

OpenPmixServerDialect::OpenPmixServerDialect(openpmix::Encoding encoding, const pmix_proc_t &self)
    : encoding_(encoding), self_(self)
{}

pmix_status_t OpenPmixServerDialect::request(uint32_t tag, std::span<const uint8_t> ours,
                                             std::vector<uint8_t> *theirs_p, wire::Bytes *answer_here_p)
{
    wire::Command command{};
    pmix_status_t rc = wire::peek_command(ours, &command);
    if (rc != PMIX_SUCCESS) return rc;
    using openpmix::Command;
    Pending pending;
    pending.command = command;
    Writer writer(encoding_);
    auto as = [&](Command theirs, auto pack) {
        return in_order([&] { return writer.pack_command(static_cast<uint8_t>(theirs)); }, pack);
    };
    std::lock_guard lock(mutex_);
    invitations_.erase(tag);  // one that ended in a timeout, its tag used again
    switch (command) {
    case wire::Command::Commit: {
        wire::CommitRequest r;
        rc = decode(ours, &r);
        if (rc == PMIX_SUCCESS) rc = as(Command::commit, [&] { return pack_commit(writer, r); });
        break;
    }
    case wire::Command::Fence: {
        wire::FenceRequest r;
        rc = decode(ours, &r);
        if (rc == PMIX_SUCCESS) {
            rc = as(Command::fence, [&] {
                return in_order([&] { return pack_procs_or_own_job(writer, r.procs, self_); },
                                [&] { return pack_infos(writer, r.directives); });
            });
        }
        break;
    }
    case wire::Command::Get: {
        wire::GetRequest r;
        rc = decode(ours, &r);
        pending.proc = r.proc;
        if (rc == PMIX_SUCCESS) rc = openpmix::qualifiers_among(r.directives, &pending.qualifiers);
        if (rc == PMIX_SUCCESS) rc = as(Command::get, [&] { return pack_get(writer, r); });
        break;
    }
    case wire::Command::Abort: {
        wire::AbortRequest r;
        rc = decode(ours, &r);
        if (rc == PMIX_SUCCESS) rc = as(Command::abort, [&] { return pack_abort(writer, r); });
        break;
    }
    case wire::Command::Finalize: rc = as(Command::finalize, [] { return PMIX_SUCCESS; }); break;
    case wire::Command::NotifyEvent: {
        wire::NotifyEventRequest r;
        rc = decode(ours, &r);
        if (rc == PMIX_SUCCESS) rc = pack_notice(writer, r.event.status, r.event.range, r.event.info);
        break;
    }
    case wire::Command::GroupInvite: {
        Invitation invitation;
        rc = start_invitation(ours, self_, answers_registered_, writer, &invitation);
        if (rc == PMIX_SUCCESS) {
            answers_registered_ = true;
            invitations_[tag] = std::move(invitation);
        }
        break;
    }
    case wire::Command::GroupJoin: rc = pack_join(ours, writer); break;
    case wire::Command::RegisterEvents: {
        wire::RegisterEventsRequest r;
        rc = decode(ours, &r);
        if (rc == PMIX_SUCCESS) rc = register_events(r, writer, &pending);
        break;
    }
    case wire::Command::DeregisterEvents: {
        wire::DeregisterEventsRequest r;
        rc = decode(ours, &r);
        if (rc == PMIX_SUCCESS) rc = deregister_events(r, writer);
        if (rc == PMIX_SUCCESS) rc = status_reply(PMIX_SUCCESS, answer_here_p);
        *theirs_p = writer.take();
        return rc;
    }
    default:
        if (is_host_command(command)) {
            rc = pack_host_request(command, ours, self_, writer);
        } else if (is_group_command(command)) {
            rc = pack_group_request(command, ours, writer, &pending.members);
        } else if (is_iof_command(command)) {
            rc = iof_request(command, ours, writer, &pending);
        } else if (is_credential_command(command)) {
            rc = pack_credential_request(command, ours, writer);
        } else {
            rc = PMIX_ERR_NOT_SUPPORTED;
        }
        break;
    }
    if (rc != PMIX_SUCCESS) return rc;
    if (tag != kOpenPmixUnwatchedTag) pending_[tag] = std::move(pending);
    *theirs_p = writer.take();
    return PMIX_SUCCESS;
}

// A pull gets our id here; a deregistration names the server's id of it.
// Called with mutex_ held.
pmix_status_t OpenPmixServerDialect::iof_request(wire::Command command, std::span<const uint8_t> ours, Writer &writer,
                                                 Pending *pending_p)
{
    if (command == wire::Command::IofPush) return pack_iof_push(ours, writer);
    if (command == wire::Command::IofPull) {
        pending_p->iof_id = next_pull_++;
        return pack_iof_pull(ours, pending_p->iof_id, writer);
    }
    wire::IofDeregisterRequest r;
    pmix_status_t rc = decode(ours, &r);
    if (rc != PMIX_SUCCESS) return rc;
    auto found = pulls_.find(r.id);
    if (found == pulls_.end()) return PMIX_ERR_NOT_FOUND;
    const std::size_t server_id = found->second;
    pulls_.erase(found);
    return pack_iof_deregister(r, server_id, writer);
}

// [ncodes][codes][ninfo][infos]; our reference for it is made here.
pmix_status_t OpenPmixServerDialect::register_events(const wire::RegisterEventsRequest &r, Writer &writer,
                                                     Pending *pending_p)
{
    pending_p->reference = next_reference_++;
    registrations_[pending_p->reference] = r.codes;
    return in_order([&] { return writer.pack_command(static_cast<uint8_t>(openpmix::Command::register_events)); },
                    [&] { return writer.pack_counted(PMIX_STATUS, r.codes.data(), r.codes.size()); },
                    [&] { return pack_infos(writer, r.info); });
}

// OpenPMIx deregisters by code (INT_MIN: its handler of every code), and
// expects no answer.
pmix_status_t OpenPmixServerDialect::deregister_events(const wire::DeregisterEventsRequest &r, Writer &writer)
{
    auto found = registrations_.find(r.reference);
    if (found == registrations_.end()) return PMIX_ERR_NOT_FOUND;
    std::vector<pmix_status_t> codes = std::move(found->second);
    registrations_.erase(found);
    if (codes.empty()) codes.push_back(kEveryCode);
    pmix_status_t rc = writer.pack_command(static_cast<uint8_t>(openpmix::Command::deregister_events));
    for (pmix_status_t code : codes) {
        if (rc == PMIX_SUCCESS) rc = writer.pack_status(code);
    }
    return rc;
}

pmix_status_t OpenPmixServerDialect::reply(uint32_t tag, std::span<const uint8_t> theirs, wire::Bytes *ours_p)
{
    Pending pending;
    {
        std::lock_guard lock(mutex_);
        auto found = pending_.find(tag);
        if (found == pending_.end()) return PMIX_ERR_NOT_FOUND;
        if (found->second.command == wire::Command::GroupInvite) return invitation_answer(tag, theirs, ours_p);
        pending = std::move(found->second);
        pending_.erase(found);
    }
    // An empty answer is OpenPMIx's word for a lost request.
    if (theirs.empty()) return status_reply(PMIX_ERR_LOST_CONNECTION, ours_p);
    Reader reader(encoding_, theirs);
    pmix_status_t status = PMIX_SUCCESS;
    pmix_status_t rc = reader.unpack_status(&status);
    if (rc != PMIX_SUCCESS) return rc;
    if (is_group_command(pending.command)) return group_reply(pending.command, status, reader, pending.members, ours_p);
    if (is_credential_command(pending.command)) return credential_reply(pending.command, status, reader, ours_p);
    if (is_host_command(pending.command)) return host_reply(pending.command, status, reader, ours_p);
    if (pending.command == wire::Command::IofPull) {
        wire::IofPullReply reply;
        reply.status = status;
        reply.id = pending.iof_id;
        std::size_t server_id = 0;
        rc = read_pull_answer(status, reader, &server_id);
        if (rc == PMIX_SUCCESS && status == PMIX_SUCCESS) {
            std::lock_guard lock(mutex_);
            pulls_[pending.iof_id] = server_id;
        }
        return rc == PMIX_SUCCESS ? encode_reply(reply, ours_p) : rc;
    }
    switch (pending.command) {
    case wire::Command::Fence: {
        wire::FenceReply reply;  // the collected data stays with the server: gets fetch it
        reply.status = status;
        return encode_reply(reply, ours_p);
    }
    case wire::Command::Get: {
        wire::GetReply reply;
        reply.status = status;
        if (status == PMIX_SUCCESS) rc = read_get_answer(reader, pending.proc, pending.qualifiers, &reply);
        return rc == PMIX_SUCCESS ? encode_reply(reply, ours_p) : rc;
    }
    case wire::Command::RegisterEvents: {
        wire::RegisterEventsReply reply;
        reply.status = status;
        reply.reference = pending.reference;
        if (status != PMIX_SUCCESS) {
            std::lock_guard lock(mutex_);
            registrations_.erase(pending.reference);
        }
        return encode_reply(reply, ours_p);
    }
    case wire::Command::GroupJoin: {
        wire::InfoReply reply;  // the group forms without us hearing of it
        reply.status = status;
        return encode_reply(reply, ours_p);
    }
    default: return status_reply(status, ours_p);
    }
}

// The server answered a step of an invitation we lead. Called with mutex_
// held; the invitation's pending entry stays until it ends.
pmix_status_t OpenPmixServerDialect::invitation_answer(uint32_t tag, std::span<const uint8_t> theirs,
                                                       wire::Bytes *ours_p)
{
    auto found = invitations_.find(tag);
    const bool known = found != invitations_.end();
    pmix_status_t status = PMIX_ERR_LOST_CONNECTION;  // OpenPMIx's word for it: an empty answer
    pmix_status_t rc = theirs.empty() ? PMIX_SUCCESS : Reader(encoding_, theirs).unpack_status(&status);
    std::vector<uint8_t> next;
    bool done = true;
    if (rc == PMIX_SUCCESS && known) {
        Invitation &invitation = found->second;
        if (status != PMIX_SUCCESS && invitation.step == Invitation::Step::registering) answers_registered_ = false;
        rc = advance_invitation(invitation, status, encoding_, &next, &done, ours_p);
    }
    if (rc != PMIX_SUCCESS || done) {
        if (known) invitations_.erase(found);
        pending_.erase(tag);
        return rc == PMIX_SUCCESS && !known ? status_reply(status, ours_p) : rc;
    }
    if (!next.empty()) outgoing_.emplace_back(tag, std::move(next));
    return PMIX_OPERATION_IN_PROGRESS;
}

// An invitee's answer to an invitation we lead. Called with mutex_ held.
bool OpenPmixServerDialect::took_answer(const wire::Event &event)
{
    for (auto &[tag, invitation] : invitations_) {
        if (!take_answer(event, invitation)) continue;
        Writer writer(encoding_);
        if (ready_to_complete(invitation) && pack_completion(invitation, writer) == PMIX_SUCCESS) {
            outgoing_.emplace_back(tag, writer.take());
        }
        return true;
    }
    return false;
}

std::vector<std::pair<uint32_t, std::vector<uint8_t>>> OpenPmixServerDialect::take_outgoing()
{
    std::lock_guard lock(mutex_);
    return std::exchange(outgoing_, {});
}

// [cmd][status][source][ninfo][infos], then the range (absent in a cached
// event replayed after a registration).
pmix_status_t OpenPmixServerDialect::event(std::span<const uint8_t> theirs, wire::Event *event_p)
{
    Reader reader(encoding_, theirs);
    uint8_t command = 0;
    int32_t n = 1;
    wire::Event event;
    pmix_info_t *info = nullptr;
    std::size_t ninfo = 0;
    pmix_status_t rc =
        in_order([&] { return reader.unpack(PMIX_UINT8, &command, &n); },
                 [&] { return reader.unpack_status(&event.status); }, [&] { return reader.unpack_proc(&event.source); },
                 [&] { return reader.unpack_counted(PMIX_INFO, reinterpret_cast<void **>(&info), &ninfo); });
    if (rc != PMIX_SUCCESS) return rc;
    event.info.adopt(info, ninfo);
    event.range = PMIX_RANGE_LOCAL;
    n = 1;
    if (!reader.at_end() && reader.unpack(PMIX_DATA_RANGE, &event.range, &n) != PMIX_SUCCESS) {
        event.range = PMIX_RANGE_LOCAL;
    }
    {
        std::lock_guard lock(mutex_);
        if (took_answer(event)) return PMIX_OPERATION_SUCCEEDED;
    }
    *event_p = std::move(event);
    return PMIX_SUCCESS;
}

pmix_status_t OpenPmixServerDialect::output(std::span<const uint8_t> theirs, wire::IofData *data_p) const
{
    return read_output(encoding_, theirs, data_p);
}

void OpenPmixServerDialect::forget(uint32_t tag)
{
    std::lock_guard lock(mutex_);
    pending_.erase(tag);
    invitations_.erase(tag);
}

}  // namespace pmixpp::client
