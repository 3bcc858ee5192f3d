// Shared field helpers, discriminator peeks and command names.
#include <array>
#include <cstring>

#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

namespace fields {

pmix_status_t put_text(Packer &p, const std::string &s, size_t max)
{
    // An embedded NUL would silently truncate the string on the other side.
    if (s.size() > max || s.find('\0') != std::string::npos) {
        return PMIX_ERR_BAD_PARAM;
    }
    return p.put_string(s.c_str());
}

pmix_status_t get_text(Unpacker &u, size_t max, std::string *s_p)
{
    char *raw = nullptr;
    pmix_status_t rc = u.get_string(&raw);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (raw == nullptr) {
        s_p->clear();
        return PMIX_SUCCESS;
    }
    size_t len = std::strlen(raw);
    if (len > max) {
        std::free(raw);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    try {
        s_p->assign(raw, len);
    } catch (const std::bad_alloc &) {
        rc = PMIX_ERR_NOMEM;
    }
    std::free(raw);
    return rc;
}

pmix_status_t expect_code(Unpacker &u, uint16_t expected)
{
    uint16_t code;
    pmix_status_t rc = u.get_u16(&code);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    return code == expected ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE;
}

pmix_status_t put_procs(Packer &p, const std::vector<pmix_proc_t> &procs)
{
    return buffer::pack_array(p, procs.data(), procs.size(), PMIX_PROC);
}

pmix_status_t get_procs(Unpacker &u, std::vector<pmix_proc_t> *procs_p)
{
    // A proc is at least 8 bytes on the wire; get_count bounds n by what remains.
    size_t n;
    pmix_status_t rc = u.get_count(8, &n);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    std::vector<pmix_proc_t> procs;
    try {
        procs.resize(n);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
    for (pmix_proc_t &proc : procs) {
        rc = get_proc(u, &proc);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    *procs_p = std::move(procs);
    return PMIX_SUCCESS;
}

pmix_status_t put_blob(Packer &p, const Bytes &blob)
{
    return p.put_bytes(reinterpret_cast<const char *>(blob.data()), blob.size());
}

pmix_status_t get_blob(Unpacker &u, Bytes *blob_p)
{
    char *raw = nullptr;
    size_t size = 0;
    pmix_status_t rc = u.get_bytes(&raw, &size);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    try {
        const auto *first = reinterpret_cast<const uint8_t *>(raw);
        blob_p->assign(first, first + size);
    } catch (const std::bad_alloc &) {
        rc = PMIX_ERR_NOMEM;
    }
    std::free(raw);
    return rc;
}

}  // namespace fields

pmix_data_buffer_t borrow_bytes(const void *bytes, size_t size)
{
    pmix_data_buffer_t view{};
    if (bytes == nullptr || size == 0) {
        return view;
    }
    // The Unpacker only reads; the buffer fields are non-const by definition.
    char *base = static_cast<char *>(const_cast<void *>(bytes));
    view.base_ptr = base;
    view.pack_ptr = base + size;
    view.unpack_ptr = base;
    view.bytes_allocated = size;
    view.bytes_used = size;
    return view;
}

namespace {

// Reads the first u16 of a payload.
pmix_status_t peek_u16(std::span<const uint8_t> payload, uint16_t *code_p)
{
    pmix_data_buffer_t view = borrow_bytes(payload.data(), payload.size());
    buffer::Unpacker unpacker(&view);
    return unpacker.get_u16(code_p);
}

struct CommandName {
    Command cmd;
    const char *name;
};

constexpr std::array kCommandNames{
    CommandName{Command::Commit, "commit"},
    CommandName{Command::Fence, "fence"},
    CommandName{Command::Get, "get"},
    CommandName{Command::Abort, "abort"},
    CommandName{Command::Finalize, "finalize"},
    CommandName{Command::RegisterEvents, "register-events"},
    CommandName{Command::DeregisterEvents, "deregister-events"},
    CommandName{Command::NotifyEvent, "notify-event"},
    CommandName{Command::Query, "query"},
    CommandName{Command::JobData, "job-data"},
    CommandName{Command::Publish, "publish"},
    CommandName{Command::Lookup, "lookup"},
    CommandName{Command::Unpublish, "unpublish"},
    CommandName{Command::Spawn, "spawn"},
    CommandName{Command::Connect, "connect"},
    CommandName{Command::Disconnect, "disconnect"},
    CommandName{Command::JobControl, "job-control"},
    CommandName{Command::Monitor, "monitor"},
    CommandName{Command::Log, "log"},
    CommandName{Command::Allocate, "allocate"},
    CommandName{Command::SessionControl, "session-control"},
    CommandName{Command::GroupConstruct, "group-construct"},
    CommandName{Command::GroupJoin, "group-join"},
    CommandName{Command::GroupInvite, "group-invite"},
    CommandName{Command::GroupLeave, "group-leave"},
    CommandName{Command::GroupDestruct, "group-destruct"},
    CommandName{Command::IofPull, "iof-pull"},
    CommandName{Command::IofPush, "iof-push"},
    CommandName{Command::IofDeregister, "iof-deregister"},
    CommandName{Command::GetCredential, "get-credential"},
    CommandName{Command::ValidateCredential, "validate-credential"},
    CommandName{Command::FabricRegister, "fabric-register"},
    CommandName{Command::FabricUpdate, "fabric-update"},
    CommandName{Command::ToolAttach, "tool-attach"},
    CommandName{Command::ToolDetach, "tool-detach"},
    CommandName{Command::FabricDeregister, "fabric-deregister"},
    CommandName{Command::Heartbeat, "heartbeat"},
};

}  // namespace

const char *command_name(Command cmd)
{
    for (const CommandName &entry : kCommandNames) {
        if (entry.cmd == cmd) {
            return entry.name;
        }
    }
    return "unknown";
}

bool is_known_command(uint16_t code)
{
    for (const CommandName &entry : kCommandNames) {
        if (static_cast<uint16_t>(entry.cmd) == code) {
            return true;
        }
    }
    return false;
}

pmix_status_t peek_command(std::span<const uint8_t> payload, Command *cmd_p)
{
    uint16_t code;
    pmix_status_t rc = peek_u16(payload, &code);
    if (rc == PMIX_SUCCESS) {
        *cmd_p = static_cast<Command>(code);
    }
    return rc;
}

pmix_status_t peek_handshake(std::span<const uint8_t> payload, HandshakeMessage *type_p)
{
    uint16_t code;
    pmix_status_t rc = peek_u16(payload, &code);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    auto type = static_cast<HandshakeMessage>(code);
    if (type != HandshakeMessage::Hello && type != HandshakeMessage::Welcome && type != HandshakeMessage::Refuse) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *type_p = type;
    return PMIX_SUCCESS;
}

pmix_status_t peek_notification(std::span<const uint8_t> payload, Notification *type_p)
{
    uint16_t code;
    pmix_status_t rc = peek_u16(payload, &code);
    if (rc == PMIX_SUCCESS) {
        *type_p = static_cast<Notification>(code);
    }
    return rc;
}

pmix_status_t peek_reply_status(std::span<const uint8_t> payload, pmix_status_t *status_p)
{
    pmix_data_buffer_t view = borrow_bytes(payload.data(), payload.size());
    buffer::Unpacker unpacker(&view);
    return fields::get_status(unpacker, status_p);
}

}  // namespace pmixpp::wire
