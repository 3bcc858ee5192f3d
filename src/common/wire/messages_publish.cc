// Publish, lookup and unpublish: data a process makes findable by others
// (MPI_Publish_name, MPI_Lookup_name), kept by the host.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

// An empty key is refused here as get_keys refuses it: what encodes decodes.
pmix_status_t put_keys(Packer &p, const std::vector<std::string> &keys)
{
    pmix_status_t rc = p.put_count(keys.size());
    for (std::size_t i = 0; i < keys.size() && rc == PMIX_SUCCESS; ++i) {
        rc = keys[i].empty() ? PMIX_ERR_BAD_PARAM : put_text(p, keys[i], PMIX_MAX_KEYLEN);
    }
    return rc;
}

pmix_status_t get_keys(Unpacker &u, std::vector<std::string> *keys_p)
{
    std::size_t n = 0;
    pmix_status_t rc = u.get_count(4, &n);  // a key is at least its length on the wire
    std::vector<std::string> keys;
    if (rc == PMIX_SUCCESS) keys.resize(n);
    for (std::size_t i = 0; i < n && rc == PMIX_SUCCESS; ++i) {
        rc = get_text(u, PMIX_MAX_KEYLEN, &keys[i]);
        if (rc == PMIX_SUCCESS && keys[i].empty()) rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (rc == PMIX_SUCCESS) *keys_p = std::move(keys);
    return rc;
}

}  // namespace

pmix_status_t encode(const PublishRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Publish); }, [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, PublishRequest *msg_p)
{
    return decode_into(msg_p, [&](PublishRequest &msg) {
        return chain([&] { return expect_command(u, Command::Publish); }, [&] { return get_array(u, &msg.info); });
    });
}

pmix_status_t encode(const LookupRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Lookup); }, [&] { return put_keys(p, msg.keys); },
                 [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, LookupRequest *msg_p)
{
    return decode_into(msg_p, [&](LookupRequest &msg) {
        return chain([&] { return expect_command(u, Command::Lookup); }, [&] { return get_keys(u, &msg.keys); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const UnpublishRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Unpublish); }, [&] { return put_keys(p, msg.keys); },
                 [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, UnpublishRequest *msg_p)
{
    return decode_into(msg_p, [&](UnpublishRequest &msg) {
        return chain([&] { return expect_command(u, Command::Unpublish); }, [&] { return get_keys(u, &msg.keys); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const LookupReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_array(p, msg.data); });
}

pmix_status_t decode(Unpacker &u, LookupReply *msg_p)
{
    return decode_into(msg_p, [&](LookupReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return get_array(u, &msg.data); });
    });
}

}  // namespace pmixpp::wire
