// Fabric registration: register, update and deregister a fabric with the
// server, which asks its pnet components or its host.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

pmix_status_t encode(const FabricRegisterRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::FabricRegister); }, [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, FabricRegisterRequest *msg_p)
{
    return decode_into(msg_p, [&](FabricRegisterRequest &msg) {
        return chain([&] { return expect_command(u, Command::FabricRegister); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const FabricUpdateRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::FabricUpdate); }, [&] { return p.put_u64(msg.index); });
}

pmix_status_t decode(Unpacker &u, FabricUpdateRequest *msg_p)
{
    return decode_into(msg_p, [&](FabricUpdateRequest &msg) {
        return chain([&] { return expect_command(u, Command::FabricUpdate); }, [&] { return u.get_u64(&msg.index); });
    });
}

pmix_status_t encode(const FabricDeregisterRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::FabricDeregister); }, [&] { return p.put_u64(msg.index); });
}

pmix_status_t decode(Unpacker &u, FabricDeregisterRequest *msg_p)
{
    return decode_into(msg_p, [&](FabricDeregisterRequest &msg) {
        return chain([&] { return expect_command(u, Command::FabricDeregister); },
                     [&] { return u.get_u64(&msg.index); });
    });
}

pmix_status_t encode(const FabricReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return p.put_u64(msg.index); },
                 [&] { return put_text(p, msg.name, kMaxNameLength); }, [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, FabricReply *msg_p)
{
    return decode_into(msg_p, [&](FabricReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return u.get_u64(&msg.index); },
                     [&] { return get_text(u, kMaxNameLength, &msg.name); }, [&] { return get_array(u, &msg.info); });
    });
}

}  // namespace pmixpp::wire
