// Connect and disconnect: the same fields under two commands, so that a
// payload of one never decodes as the other.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

pmix_status_t put_membership(Packer &p, Command command, const std::vector<pmix_proc_t> &procs, const InfoArray &info)
{
    return chain([&] { return put_command(p, command); }, [&] { return put_procs(p, procs); },
                 [&] { return put_array(p, info); });
}

template <typename Request> pmix_status_t get_membership(Unpacker &u, Command command, Request *msg_p)
{
    return decode_into(msg_p, [&](Request &msg) {
        return chain([&] { return expect_command(u, command); }, [&] { return get_procs(u, &msg.procs); },
                     [&] { return get_array(u, &msg.info); });
    });
}

}  // namespace

pmix_status_t encode(const ConnectRequest &msg, Packer &p)
{
    return put_membership(p, Command::Connect, msg.procs, msg.info);
}

pmix_status_t decode(Unpacker &u, ConnectRequest *msg_p)
{
    return get_membership(u, Command::Connect, msg_p);
}

pmix_status_t encode(const DisconnectRequest &msg, Packer &p)
{
    return put_membership(p, Command::Disconnect, msg.procs, msg.info);
}

pmix_status_t decode(Unpacker &u, DisconnectRequest *msg_p)
{
    return get_membership(u, Command::Disconnect, msg_p);
}

}  // namespace pmixpp::wire
