// Group construct, invite, join, destruct and leave: each under its own
// command, so a payload of one never decodes as another; the group's name
// follows.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

pmix_status_t encode(const GroupConstructRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::GroupConstruct); },
                 [&] { return put_text(p, msg.group, PMIX_MAX_NSLEN); }, [&] { return put_procs(p, msg.procs); },
                 [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, GroupConstructRequest *msg_p)
{
    return decode_into(msg_p, [&](GroupConstructRequest &msg) {
        return chain([&] { return expect_command(u, Command::GroupConstruct); },
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.group); }, [&] { return get_procs(u, &msg.procs); },
                     [&] { return get_array(u, &msg.info); });
    });
}

pmix_status_t encode(const GroupInviteRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::GroupInvite); },
                 [&] { return put_text(p, msg.group, PMIX_MAX_NSLEN); }, [&] { return put_procs(p, msg.procs); },
                 [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, GroupInviteRequest *msg_p)
{
    return decode_into(msg_p, [&](GroupInviteRequest &msg) {
        return chain([&] { return expect_command(u, Command::GroupInvite); },
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.group); }, [&] { return get_procs(u, &msg.procs); },
                     [&] { return get_array(u, &msg.info); });
    });
}

pmix_status_t encode(const GroupJoinRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::GroupJoin); },
                 [&] { return put_text(p, msg.group, PMIX_MAX_NSLEN); }, [&] { return put_proc(p, msg.leader); },
                 [&] { return p.put_u8(static_cast<uint8_t>(msg.answer)); }, [&] { return put_array(p, msg.info); });
}

namespace {

pmix_status_t get_answer(Unpacker &u, GroupAnswer *answer_p)
{
    uint8_t raw = 0;
    const pmix_status_t rc = u.get_u8(&raw);
    if (rc != PMIX_SUCCESS) return rc;
    if (raw > static_cast<uint8_t>(GroupAnswer::abort)) return PMIX_ERR_UNPACK_FAILURE;
    *answer_p = static_cast<GroupAnswer>(raw);
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t decode(Unpacker &u, GroupJoinRequest *msg_p)
{
    return decode_into(msg_p, [&](GroupJoinRequest &msg) {
        return chain([&] { return expect_command(u, Command::GroupJoin); },
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.group); }, [&] { return get_proc(u, &msg.leader); },
                     [&] { return get_answer(u, &msg.answer); }, [&] { return get_array(u, &msg.info); });
    });
}

namespace {

// Destruct and leave: a group's name and directives under their own command.
template <typename Request> pmix_status_t put_named(Packer &p, Command command, const Request &msg)
{
    return chain([&] { return put_command(p, command); }, [&] { return put_text(p, msg.group, PMIX_MAX_NSLEN); },
                 [&] { return put_array(p, msg.info); });
}

template <typename Request> pmix_status_t get_named(Unpacker &u, Command command, Request *msg_p)
{
    return decode_into(msg_p, [&](Request &msg) {
        return chain([&] { return expect_command(u, command); },
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.group); }, [&] { return get_array(u, &msg.info); });
    });
}

}  // namespace

pmix_status_t encode(const GroupDestructRequest &msg, Packer &p)
{
    return put_named(p, Command::GroupDestruct, msg);
}

pmix_status_t decode(Unpacker &u, GroupDestructRequest *msg_p)
{
    return get_named(u, Command::GroupDestruct, msg_p);
}

pmix_status_t encode(const GroupLeaveRequest &msg, Packer &p)
{
    return put_named(p, Command::GroupLeave, msg);
}

pmix_status_t decode(Unpacker &u, GroupLeaveRequest *msg_p)
{
    return get_named(u, Command::GroupLeave, msg_p);
}

}  // namespace pmixpp::wire
