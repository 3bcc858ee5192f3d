#include "client/openpmix/invite_and_join.h"

#include "client/openpmix/group_requests.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/in_order.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <utility>

namespace pmixpp::client {

namespace {

using openpmix::Writer;

pmix_status_t decode_invite(std::span<const uint8_t> ours, wire::GroupInviteRequest *request_p)
{
    return wire::decode_payload(ours.data(), ours.size(), request_p);
}

// Infos that name the procs of a custom range, mark the notice for
// handlers of its code only, and name the group: what OpenPMIx's leader
// sends with PMIX_GROUP_INVITED and PMIX_GROUP_CONSTRUCT_COMPLETE.
pmix_status_t group_notice_info(const std::string &group, const std::vector<pmix_proc_t> &procs,
                                wire::InfoArray *info_p)
{
    pmix_info_t *info = nullptr;
    PMIX_INFO_CREATE(info, 3);
    if (info == nullptr) return PMIX_ERR_NOMEM;
    pmix_data_array_t array{};
    array.type = PMIX_PROC;
    array.size = procs.size();
    array.array = const_cast<pmix_proc_t *>(procs.data());
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &array, PMIX_DATA_ARRAY);  // copies the procs
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_NON_DEFAULT, nullptr, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], PMIX_GROUP_ID, group.c_str(), PMIX_STRING);
    info_p->adopt(info, 3);
    return PMIX_SUCCESS;
}

pmix_status_t pack_group_notice(Writer &writer, pmix_status_t code, const std::string &group,
                                const std::vector<pmix_proc_t> &procs)
{
    wire::InfoArray info;
    const pmix_status_t rc = group_notice_info(group, procs, &info);
    return rc != PMIX_SUCCESS ? rc : pack_notice(writer, code, PMIX_RANGE_CUSTOM, info);
}

pmix_status_t pack_invited(const Invitation &invitation, Writer &writer)
{
    std::vector<pmix_proc_t> invited = invitation.members;  // the leader, as OpenPMIx's range names it too
    invited.insert(invited.end(), invitation.unanswered.begin(), invitation.unanswered.end());
    return pack_group_notice(writer, PMIX_GROUP_INVITED, invitation.group, invited);
}

// Once per link: the answers reach a process only when it registered for
// them; the server answers [status].
pmix_status_t pack_answer_registration(Writer &writer)
{
    const pmix_status_t codes[] = {PMIX_GROUP_INVITE_ACCEPTED, PMIX_GROUP_INVITE_DECLINED};
    return openpmix::in_order(
        [&] { return writer.pack_command(static_cast<uint8_t>(openpmix::Command::register_events)); },
        [&] { return writer.pack_counted(PMIX_STATUS, codes, 2); }, [&] { return writer.pack_size(0); });
}

}  // namespace

pmix_status_t pack_notice(Writer &writer, pmix_status_t code, pmix_data_range_t range, const wire::InfoArray &info)
{
    return openpmix::in_order([&] { return writer.pack_command(static_cast<uint8_t>(openpmix::Command::notify)); },
                              [&] { return writer.pack_status(code); },
                              [&] { return writer.pack(PMIX_DATA_RANGE, &range, 1); },
                              [&] { return writer.pack_counted(PMIX_INFO, info.data(), info.size()); });
}

pmix_status_t start_invitation(std::span<const uint8_t> ours, const pmix_proc_t &self, bool registered, Writer &writer,
                               Invitation *invitation_p)
{
    wire::GroupInviteRequest request;
    const pmix_status_t rc = decode_invite(ours, &request);
    if (rc != PMIX_SUCCESS) return rc;
    Invitation invitation;
    invitation.group = request.group;
    invitation.members.push_back(self);
    for (const pmix_proc_t &proc : request.procs) {
        if (!util::same_proc(proc, self)) invitation.unanswered.push_back(proc);
    }
    invitation.step = registered ? Invitation::Step::inviting : Invitation::Step::registering;
    const pmix_status_t packed = registered ? pack_invited(invitation, writer) : pack_answer_registration(writer);
    if (packed == PMIX_SUCCESS) *invitation_p = std::move(invitation);
    return packed;
}

pmix_status_t advance_invitation(Invitation &invitation, pmix_status_t status, openpmix::Encoding encoding,
                                 std::vector<uint8_t> *next_p, bool *done_p, wire::Bytes *ours_p)
{
    *done_p = status != PMIX_SUCCESS || invitation.step == Invitation::Step::completing;
    if (*done_p) return membership_reply(status, SIZE_MAX, invitation.members, ours_p);
    Writer writer(encoding);
    pmix_status_t rc = PMIX_SUCCESS;
    if (invitation.step == Invitation::Step::registering) {
        invitation.step = Invitation::Step::inviting;
        rc = pack_invited(invitation, writer);
    } else {
        invitation.told = true;
        if (!ready_to_complete(invitation)) return PMIX_SUCCESS;  // the answers come as events
        rc = pack_completion(invitation, writer);
    }
    if (rc == PMIX_SUCCESS) *next_p = writer.take();
    return rc;
}

bool take_answer(const wire::Event &event, Invitation &invitation)
{
    if (event.status != PMIX_GROUP_INVITE_ACCEPTED && event.status != PMIX_GROUP_INVITE_DECLINED) return false;
    auto found = std::find_if(invitation.unanswered.begin(), invitation.unanswered.end(),
                              [&](const pmix_proc_t &proc) { return util::same_proc(proc, event.source); });
    if (found == invitation.unanswered.end()) return false;
    if (event.status == PMIX_GROUP_INVITE_ACCEPTED) invitation.members.push_back(*found);
    invitation.unanswered.erase(found);
    return true;
}

bool ready_to_complete(const Invitation &invitation)
{
    return invitation.step == Invitation::Step::inviting && invitation.told && invitation.unanswered.empty();
}

pmix_status_t pack_completion(Invitation &invitation, Writer &writer)
{
    invitation.step = Invitation::Step::completing;
    return pack_group_notice(writer, PMIX_GROUP_CONSTRUCT_COMPLETE, invitation.group, invitation.members);
}

pmix_status_t pack_join(std::span<const uint8_t> ours, Writer &writer)
{
    wire::GroupJoinRequest request;
    pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &request);
    if (rc != PMIX_SUCCESS) return rc;
    if (request.answer != wire::GroupAnswer::accept && request.answer != wire::GroupAnswer::decline) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    const pmix_status_t code =
        request.answer == wire::GroupAnswer::accept ? PMIX_GROUP_INVITE_ACCEPTED : PMIX_GROUP_INVITE_DECLINED;
    if (request.leader.rank == PMIX_RANK_UNDEF) return pack_notice(writer, code, PMIX_RANGE_SESSION, wire::InfoArray{});
    pmix_info_t *info = nullptr;
    PMIX_INFO_CREATE(info, 1);
    if (info == nullptr) return PMIX_ERR_NOMEM;
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &request.leader, PMIX_PROC);
    wire::InfoArray range;
    range.adopt(info, 1);
    return pack_notice(writer, code, PMIX_RANGE_CUSTOM, range);
}

}  // namespace pmixpp::client
