// Data exchange: commit, fence, get, and the modex blob a fence collects.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

// Leads every modex record so the layout of a record can evolve.
constexpr uint8_t kModexRecordV1 = 1;

// The optional last byte of a commit: its only defined value asks for no reply.
constexpr uint8_t kCommitNoReply = 1;

pmix_status_t get_reply_flag(Unpacker &u, bool *wanted_p)
{
    if (u.remaining() == 0) {
        *wanted_p = true;
        return PMIX_SUCCESS;
    }
    uint8_t flag = 0;
    pmix_status_t rc = u.get_u8(&flag);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (flag != kCommitNoReply) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *wanted_p = false;
    return PMIX_SUCCESS;
}

pmix_status_t put_shared(Packer &p, const std::vector<SharedModex> &shared)
{
    pmix_status_t rc = p.put_count(shared.size());
    for (size_t i = 0; i < shared.size() && rc == PMIX_SUCCESS; ++i) {
        rc = chain([&] { return put_text(p, shared[i].nspace, PMIX_MAX_NSLEN); },
                   [&] { return put_blob(p, shared[i].blob); });
    }
    return rc;
}

pmix_status_t get_shared(Unpacker &u, std::vector<SharedModex> *shared_p)
{
    // An entry is at least a length and a byte of name plus a blob length.
    size_t n = 0;
    pmix_status_t rc = u.get_count(9, &n);
    std::vector<SharedModex> shared;
    if (rc == PMIX_SUCCESS) shared.resize(n);
    for (size_t i = 0; i < n && rc == PMIX_SUCCESS; ++i) {
        rc = chain([&] { return get_text(u, PMIX_MAX_NSLEN, &shared[i].nspace); },
                   [&] { return get_blob(u, &shared[i].blob); });
        if (rc == PMIX_SUCCESS && shared[i].nspace.empty()) rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (rc == PMIX_SUCCESS) *shared_p = std::move(shared);
    // Whatever follows the data must be a whole list: anything else is malformed.
    return rc == PMIX_SUCCESS || rc == PMIX_ERR_NOMEM ? rc : PMIX_ERR_UNPACK_FAILURE;
}

}  // namespace

pmix_status_t encode(const CommitRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Commit); }, [&] { return put_array(p, msg.local); },
                 [&] { return put_array(p, msg.remote); }, [&] { return put_array(p, msg.global); },
                 [&] { return msg.reply_wanted ? PMIX_SUCCESS : p.put_u8(kCommitNoReply); });
}

pmix_status_t decode(Unpacker &u, CommitRequest *msg_p)
{
    return decode_into(msg_p, [&](CommitRequest &msg) {
        return chain([&] { return expect_command(u, Command::Commit); }, [&] { return get_array(u, &msg.local); },
                     [&] { return get_array(u, &msg.remote); }, [&] { return get_array(u, &msg.global); },
                     [&] { return get_reply_flag(u, &msg.reply_wanted); });
    });
}

pmix_status_t encode(const FenceRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Fence); }, [&] { return put_procs(p, msg.procs); },
                 [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, FenceRequest *msg_p)
{
    return decode_into(msg_p, [&](FenceRequest &msg) {
        return chain([&] { return expect_command(u, Command::Fence); }, [&] { return get_procs(u, &msg.procs); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const FenceReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_blob(p, msg.data); },
                 [&] { return msg.shared.empty() ? PMIX_SUCCESS : put_shared(p, msg.shared); });
}

pmix_status_t decode(Unpacker &u, FenceReply *msg_p)
{
    return decode_into(msg_p, [&](FenceReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return get_blob(u, &msg.data); },
                     [&] { return u.remaining() == 0 ? PMIX_SUCCESS : get_shared(u, &msg.shared); });
    });
}

pmix_status_t encode(const GetRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Get); }, [&] { return put_proc(p, msg.proc); },
                 [&] { return put_text(p, msg.key, PMIX_MAX_KEYLEN); }, [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, GetRequest *msg_p)
{
    return decode_into(msg_p, [&](GetRequest &msg) {
        return chain([&] { return expect_command(u, Command::Get); }, [&] { return get_proc(u, &msg.proc); },
                     [&] { return get_text(u, PMIX_MAX_KEYLEN, &msg.key); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const GetReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_array(p, msg.data); });
}

pmix_status_t decode(Unpacker &u, GetReply *msg_p)
{
    return decode_into(msg_p, [&](GetReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return get_array(u, &msg.data); });
    });
}

// ---------------------------------------------------------------- modex blob

pmix_status_t append_modex(const std::vector<ProcData> &procs, Bytes *blob_p)
{
    if (blob_p == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_data_buffer_t buf{};
    Packer packer(&buf);
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; rc == PMIX_SUCCESS && i < procs.size(); ++i) {
        rc = chain([&] { return packer.put_u8(kModexRecordV1); }, [&] { return put_proc(packer, procs[i].proc); },
                   [&] { return put_array(packer, procs[i].info); });
    }
    if (rc == PMIX_SUCCESS && buf.bytes_used != 0) {
        try {
            const auto *first = reinterpret_cast<const uint8_t *>(buf.base_ptr);
            blob_p->insert(blob_p->end(), first, first + buf.bytes_used);
        } catch (const std::bad_alloc &) {
            rc = PMIX_ERR_NOMEM;
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return rc;
}

pmix_status_t encode_modex(const std::vector<ProcData> &procs, Bytes *blob_p)
{
    if (blob_p == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    Bytes blob;
    pmix_status_t rc = append_modex(procs, &blob);
    if (rc == PMIX_SUCCESS) {
        *blob_p = std::move(blob);
    }
    return rc;
}

pmix_status_t decode_modex(const void *blob, size_t size, std::vector<ProcData> *procs_p)
{
    if ((blob == nullptr && size != 0) || procs_p == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_data_buffer_t view = borrow_bytes(blob, size);
    Unpacker unpacker(&view);
    std::vector<ProcData> procs;
    pmix_status_t rc = PMIX_SUCCESS;
    while (rc == PMIX_SUCCESS && unpacker.remaining() != 0) {
        ProcData record;
        rc = chain([&] { return expect_code8(unpacker, kModexRecordV1); },
                   [&] { return get_proc(unpacker, &record.proc); }, [&] { return get_array(unpacker, &record.info); });
        if (rc == PMIX_SUCCESS) {
            try {
                procs.push_back(std::move(record));
            } catch (const std::bad_alloc &) {
                rc = PMIX_ERR_NOMEM;
            }
        }
    }
    if (rc == PMIX_SUCCESS) {
        *procs_p = std::move(procs);
    }
    return rc;
}

}  // namespace pmixpp::wire
