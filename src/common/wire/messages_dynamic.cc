// Requests that change what runs: spawn a job, ask for an allocation,
// control a session, and log through the host.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

// PMIX_ALLOC_NEW .. PMIX_ALLOC_RELEASE, and 5 (cancel, a later addition).
constexpr uint8_t kMaxAllocDirective = 5;

}  // namespace

pmix_status_t encode(const SpawnRequest &msg, Packer &p)
{
    if (msg.apps.empty()) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_command(p, Command::Spawn); }, [&] { return put_array(p, msg.job_info); },
                 [&] { return put_array(p, msg.apps); });
}

pmix_status_t decode(Unpacker &u, SpawnRequest *msg_p)
{
    return decode_into(msg_p, [&](SpawnRequest &msg) {
        pmix_status_t rc = chain([&] { return expect_command(u, Command::Spawn); },
                                 [&] { return get_array(u, &msg.job_info); }, [&] { return get_array(u, &msg.apps); });
        return rc == PMIX_SUCCESS && msg.apps.empty() ? PMIX_ERR_UNPACK_FAILURE : rc;
    });
}

pmix_status_t encode(const AllocateRequest &msg, Packer &p)
{
    if (msg.directive == 0 || msg.directive > kMaxAllocDirective) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_command(p, Command::Allocate); }, [&] { return p.put_u8(msg.directive); },
                 [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, AllocateRequest *msg_p)
{
    return decode_into(msg_p, [&](AllocateRequest &msg) {
        uint8_t directive = 0;
        pmix_status_t rc = chain([&] { return expect_command(u, Command::Allocate); },
                                 [&] { return u.get_u8(&directive); }, [&] { return get_array(u, &msg.info); });
        if (rc == PMIX_SUCCESS && (directive == 0 || directive > kMaxAllocDirective)) rc = PMIX_ERR_UNPACK_FAILURE;
        msg.directive = directive;
        return rc;
    });
}

pmix_status_t encode(const SessionControlRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::SessionControl); }, [&] { return p.put_u32(msg.session_id); },
                 [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, SessionControlRequest *msg_p)
{
    return decode_into(msg_p, [&](SessionControlRequest &msg) {
        return chain([&] { return expect_command(u, Command::SessionControl); },
                     [&] { return u.get_u32(&msg.session_id); }, [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const LogRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Log); }, [&] { return put_array(p, msg.data); },
                 [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, LogRequest *msg_p)
{
    return decode_into(msg_p, [&](LogRequest &msg) {
        return chain([&] { return expect_command(u, Command::Log); }, [&] { return get_array(u, &msg.data); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const SpawnReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_text(p, msg.nspace, PMIX_MAX_NSLEN); });
}

pmix_status_t decode(Unpacker &u, SpawnReply *msg_p)
{
    return decode_into(msg_p, [&](SpawnReply &msg) {
        return chain([&] { return get_status(u, &msg.status); },
                     [&] { return get_text(u, PMIX_MAX_NSLEN, &msg.nspace); });
    });
}

pmix_status_t encode(const InfoReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, InfoReply *msg_p)
{
    return decode_into(msg_p, [&](InfoReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return get_array(u, &msg.info); });
    });
}

}  // namespace pmixpp::wire
