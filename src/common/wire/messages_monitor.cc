// PMIx_Process_monitor(_nb) and PMIx_Heartbeat: the monitor request (one
// monitor info, the caller's error code, directives) and the heartbeat,
// which carries nothing but its command.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

// A request names exactly one monitor; anything else is malformed.
pmix_status_t expect_one(const InfoArray &monitor)
{
    return monitor.size() == 1 ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE;
}

}  // namespace

pmix_status_t encode(const MonitorRequest &msg, Packer &p)
{
    if (msg.monitor.size() != 1) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_command(p, Command::Monitor); }, [&] { return put_array(p, msg.monitor); },
                 [&] { return put_status(p, msg.error); }, [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, MonitorRequest *msg_p)
{
    return decode_into(msg_p, [&](MonitorRequest &msg) {
        return chain([&] { return expect_command(u, Command::Monitor); }, [&] { return get_array(u, &msg.monitor); },
                     [&] { return expect_one(msg.monitor); }, [&] { return get_status(u, &msg.error); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const HeartbeatRequest &, Packer &p)
{
    return put_command(p, Command::Heartbeat);
}

pmix_status_t decode(Unpacker &u, HeartbeatRequest *msg_p)
{
    return decode_into(msg_p, [&](HeartbeatRequest &) { return expect_command(u, Command::Heartbeat); });
}

}  // namespace pmixpp::wire
