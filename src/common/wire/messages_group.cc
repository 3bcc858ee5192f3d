// Group construct and destruct: the group's name leads, so a payload of one
// never decodes as the other (their commands differ as well).
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
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.group); },
                     [&] { return get_procs(u, &msg.procs); }, [&] { return get_array(u, &msg.info); });
    });
}

pmix_status_t encode(const GroupDestructRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::GroupDestruct); },
                 [&] { return put_text(p, msg.group, PMIX_MAX_NSLEN); }, [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, GroupDestructRequest *msg_p)
{
    return decode_into(msg_p, [&](GroupDestructRequest &msg) {
        return chain([&] { return expect_command(u, Command::GroupDestruct); },
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.group); },
                     [&] { return get_array(u, &msg.info); });
    });
}

}  // namespace pmixpp::wire
