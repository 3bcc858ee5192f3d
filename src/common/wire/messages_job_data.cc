// The job-data copy a client asks for when it cannot use the shared one
// (gds/shmem fallback): the request names the namespace, the reply carries
// the export bytes.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

pmix_status_t encode(const JobDataRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::JobData); },
                 [&] { return put_text(p, msg.nspace, PMIX_MAX_NSLEN); });
}

pmix_status_t decode(Unpacker &u, JobDataRequest *msg_p)
{
    return decode_into(msg_p, [&](JobDataRequest &msg) {
        return chain([&] { return expect_command(u, Command::JobData); },
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.nspace); });
    });
}

pmix_status_t encode(const JobDataReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_blob(p, msg.data); });
}

pmix_status_t decode(Unpacker &u, JobDataReply *msg_p)
{
    return decode_into(msg_p, [&](JobDataReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return get_blob(u, &msg.data); });
    });
}

}  // namespace pmixpp::wire
