#include "client/openpmix/group_requests.h"

#include "common/openpmix/commands.h"

#include <cstdint>
#include <string>

namespace pmixpp::client {

namespace {

using openpmix::Command;
using openpmix::Writer;

pmix_status_t pack_named(Command command, const std::string &group, const wire::InfoArray &info, Writer &writer)
{
    pmix_status_t rc = writer.pack_command(static_cast<uint8_t>(command));
    if (rc == PMIX_SUCCESS) rc = writer.pack_string(group.c_str());
    if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_INFO, info.data(), info.size());
    return rc;
}

// [cmd][grp][nprocs][procs][ninfo][infos]
pmix_status_t pack_construct(std::span<const uint8_t> ours, Writer &writer, std::vector<pmix_proc_t> *members_p)
{
    wire::GroupConstructRequest r;
    pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
    if (rc == PMIX_SUCCESS) rc = writer.pack_command(static_cast<uint8_t>(Command::group_construct));
    if (rc == PMIX_SUCCESS) rc = writer.pack_string(r.group.c_str());
    if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_PROC, r.procs.data(), r.procs.size());
    if (rc == PMIX_SUCCESS) rc = writer.pack_counted(PMIX_INFO, r.info.data(), r.info.size());
    if (rc == PMIX_SUCCESS) *members_p = std::move(r.procs);
    return rc;
}

template <typename Request> pmix_status_t pack_by_name(Command command, std::span<const uint8_t> ours, Writer &writer)
{
    Request r;
    const pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
    return rc != PMIX_SUCCESS ? rc : pack_named(command, r.group, r.info, writer);
}

// [status][context id, SIZE_MAX when none was assigned]
pmix_status_t construct_reply(pmix_status_t status, openpmix::Reader &reader, const std::vector<pmix_proc_t> &members,
                              wire::Bytes *ours_p)
{
    std::size_t context_id = SIZE_MAX;
    if (status == PMIX_SUCCESS && !reader.at_end()) {
        const pmix_status_t rc = reader.unpack_size(&context_id);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return membership_reply(status, context_id, members, ours_p);
}

}  // namespace

bool is_group_command(wire::Command command)
{
    switch (command) {
    case wire::Command::GroupConstruct:
    case wire::Command::GroupDestruct:
    case wire::Command::GroupLeave: return true;
    default: return false;
    }
}

pmix_status_t pack_group_request(wire::Command command, std::span<const uint8_t> ours, Writer &writer,
                                 std::vector<pmix_proc_t> *members_p)
{
    switch (command) {
    case wire::Command::GroupConstruct: return pack_construct(ours, writer, members_p);
    case wire::Command::GroupDestruct:
        return pack_by_name<wire::GroupDestructRequest>(Command::group_destruct, ours, writer);
    case wire::Command::GroupLeave: return pack_by_name<wire::GroupLeaveRequest>(Command::group_leave, ours, writer);
    default: return PMIX_ERR_NOT_SUPPORTED;
    }
}

pmix_status_t group_reply(wire::Command command, pmix_status_t status, openpmix::Reader &reader,
                          const std::vector<pmix_proc_t> &members, wire::Bytes *ours_p)
{
    if (command == wire::Command::GroupConstruct) return construct_reply(status, reader, members, ours_p);
    wire::StatusReply reply;
    reply.status = status;
    return wire::encode_to_bytes(reply, ours_p);
}

// What our server answers a construct: the context id when one was
// assigned, and the members.
pmix_status_t membership_reply(pmix_status_t status, std::size_t context_id, const std::vector<pmix_proc_t> &members,
                               wire::Bytes *ours_p)
{
    wire::InfoReply reply;
    reply.status = status;
    if (status == PMIX_SUCCESS) {
        const bool has_id = context_id != SIZE_MAX;
        pmix_info_t *info = nullptr;
        const std::size_t n = has_id ? 2 : 1;
        PMIX_INFO_CREATE(info, n);
        if (info == nullptr) return PMIX_ERR_NOMEM;
        pmix_data_array_t array{};
        array.type = PMIX_PROC;
        array.size = members.size();
        array.array = const_cast<pmix_proc_t *>(members.data());
        // The context id first, as both servers answer (callers read
        // results[0]), then the members, as ours adds them.
        if (has_id) PMIX_INFO_LOAD(&info[0], PMIX_GROUP_CONTEXT_ID, &context_id, PMIX_SIZE);
        PMIX_INFO_LOAD(&info[n - 1], PMIX_GROUP_MEMBERSHIP, &array, PMIX_DATA_ARRAY);  // copies the members
        reply.info.adopt(info, n);
    }
    return wire::encode_to_bytes(reply, ours_p);
}

}  // namespace pmixpp::client
