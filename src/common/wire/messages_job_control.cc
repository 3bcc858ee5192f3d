// PMIx_Job_control(_nb): the request (targets, directives) and its reply
// (status and, for a refused cleanup registration, the reason).
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

pmix_status_t encode(const JobControlRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::JobControl); }, [&] { return put_procs(p, msg.targets); },
                 [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, JobControlRequest *msg_p)
{
    return decode_into(msg_p, [&](JobControlRequest &msg) {
        return chain([&] { return expect_command(u, Command::JobControl); }, [&] { return get_procs(u, &msg.targets); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const JobControlReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_text(p, msg.reason, kMaxMessageLength); });
}

pmix_status_t decode(Unpacker &u, JobControlReply *msg_p)
{
    return decode_into(msg_p, [&](JobControlReply &msg) {
        return chain([&] { return get_status(u, &msg.status); },
                     [&] { return get_text(u, kMaxMessageLength, &msg.reason); });
    });
}

}  // namespace pmixpp::wire
