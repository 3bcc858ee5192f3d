// Forwarded I/O: a tool's pull registration and its removal, stdin pushed
// to procs, and the output chunks the server sends a tool.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

bool valid_pull_channels(uint16_t channels)
{
    return channels != 0 && (channels & ~kIofOutputChannels) == 0;
}

// A chunk names exactly one output channel, so the tool knows where it goes.
bool valid_data_channel(uint16_t channel)
{
    return channel == PMIX_FWD_STDOUT_CHANNEL || channel == PMIX_FWD_STDERR_CHANNEL ||
           channel == PMIX_FWD_STDDIAG_CHANNEL;
}

pmix_status_t check(bool ok)
{
    return ok ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE;
}

pmix_status_t get_chunk(Unpacker &u, Bytes *data_p)
{
    const pmix_status_t rc = get_blob(u, data_p);
    if (rc != PMIX_SUCCESS) return rc;
    return check(data_p->size() <= kMaxIofChunk);
}

pmix_status_t get_flag(Unpacker &u, bool *flag_p)
{
    uint8_t raw = 0;
    const pmix_status_t rc = u.get_u8(&raw);
    if (rc != PMIX_SUCCESS) return rc;
    if (raw > 1) return PMIX_ERR_UNPACK_FAILURE;
    *flag_p = raw == 1;
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t encode(const IofPullRequest &msg, Packer &p)
{
    if (msg.procs.empty() || !valid_pull_channels(msg.channels)) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_command(p, Command::IofPull); }, [&] { return put_procs(p, msg.procs); },
                 [&] { return p.put_u16(msg.channels); }, [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, IofPullRequest *msg_p)
{
    return decode_into(msg_p, [&](IofPullRequest &msg) {
        return chain([&] { return expect_command(u, Command::IofPull); }, [&] { return get_procs(u, &msg.procs); },
                     [&] { return check(!msg.procs.empty()); }, [&] { return u.get_u16(&msg.channels); },
                     [&] { return check(valid_pull_channels(msg.channels)); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const IofDeregisterRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::IofDeregister); }, [&] { return p.put_u64(msg.id); },
                 [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, IofDeregisterRequest *msg_p)
{
    return decode_into(msg_p, [&](IofDeregisterRequest &msg) {
        return chain([&] { return expect_command(u, Command::IofDeregister); }, [&] { return u.get_u64(&msg.id); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const IofPushRequest &msg, Packer &p)
{
    if (msg.targets.empty() || msg.data.size() > kMaxIofChunk) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_command(p, Command::IofPush); }, [&] { return put_procs(p, msg.targets); },
                 [&] { return put_array(p, msg.directives); }, [&] { return put_blob(p, msg.data); },
                 [&] { return p.put_u8(msg.eof ? 1 : 0); });
}

pmix_status_t decode(Unpacker &u, IofPushRequest *msg_p)
{
    return decode_into(msg_p, [&](IofPushRequest &msg) {
        return chain([&] { return expect_command(u, Command::IofPush); }, [&] { return get_procs(u, &msg.targets); },
                     [&] { return check(!msg.targets.empty()); }, [&] { return get_array(u, &msg.directives); },
                     [&] { return get_chunk(u, &msg.data); }, [&] { return get_flag(u, &msg.eof); });
    });
}

pmix_status_t encode(const IofPullReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return p.put_u64(msg.id); });
}

pmix_status_t decode(Unpacker &u, IofPullReply *msg_p)
{
    return decode_into(msg_p, [&](IofPullReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return u.get_u64(&msg.id); });
    });
}

pmix_status_t encode(const IofData &msg, Packer &p)
{
    if (!valid_data_channel(msg.channel) || msg.data.size() > kMaxIofChunk) return PMIX_ERR_BAD_PARAM;
    return chain([&] { return put_code(p, static_cast<uint16_t>(Notification::IofData)); },
                 [&] { return p.put_u64(msg.id); }, [&] { return put_proc(p, msg.source); },
                 [&] { return p.put_u16(msg.channel); }, [&] { return put_blob(p, msg.data); },
                 [&] { return p.put_u64(msg.dropped); }, [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, IofData *msg_p)
{
    return decode_into(msg_p, [&](IofData &msg) {
        return chain([&] { return expect_code(u, static_cast<uint16_t>(Notification::IofData)); },
                     [&] { return u.get_u64(&msg.id); }, [&] { return get_proc(u, &msg.source); },
                     [&] { return u.get_u16(&msg.channel); }, [&] { return check(valid_data_channel(msg.channel)); },
                     [&] { return get_chunk(u, &msg.data); }, [&] { return u.get_u64(&msg.dropped); },
                     [&] { return get_array(u, &msg.info); });
    });
}

}  // namespace pmixpp::wire
