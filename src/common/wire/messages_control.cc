// Life cycle, events and queries: abort, finalize, event registration,
// notifications, queries, and the status-only reply.
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace pmixpp::wire {

using namespace fields;

namespace {

bool is_known_range(pmix_data_range_t range)
{
    return range <= PMIX_RANGE_PROC_LOCAL || range == PMIX_RANGE_INVALID;
}

// The event fields, shared by NotifyEventRequest and the NOTIFY frame.
pmix_status_t put_event_body(Packer &p, const Event &event)
{
    if (!is_known_range(event.range)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return chain([&] { return put_status(p, event.status); }, [&] { return put_proc(p, event.source); },
                 [&] { return p.put_u8(event.range); }, [&] { return put_array(p, event.info); });
}

pmix_status_t get_range(Unpacker &u, pmix_data_range_t *range_p)
{
    uint8_t raw;
    pmix_status_t rc = u.get_u8(&raw);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (!is_known_range(raw)) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *range_p = raw;
    return PMIX_SUCCESS;
}

pmix_status_t get_event_body(Unpacker &u, Event *event)
{
    return chain([&] { return get_status(u, &event->status); }, [&] { return get_proc(u, &event->source); },
                 [&] { return get_range(u, &event->range); }, [&] { return get_array(u, &event->info); });
}

pmix_status_t put_codes(Packer &p, const std::vector<pmix_status_t> &codes)
{
    if (codes.size() > kMaxEventCodes) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = p.put_count(codes.size());
    for (size_t i = 0; rc == PMIX_SUCCESS && i < codes.size(); ++i) {
        rc = put_status(p, codes[i]);
    }
    return rc;
}

pmix_status_t get_codes(Unpacker &u, std::vector<pmix_status_t> *codes_p)
{
    size_t n;
    pmix_status_t rc = u.get_count(4, &n);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (n > kMaxEventCodes) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    std::vector<pmix_status_t> codes;
    try {
        codes.resize(n);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; rc == PMIX_SUCCESS && i < n; ++i) {
        rc = get_status(u, &codes[i]);
    }
    if (rc == PMIX_SUCCESS) {
        *codes_p = std::move(codes);
    }
    return rc;
}

}  // namespace

// ---------------------------------------------------------------- requests

pmix_status_t encode(const AbortRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Abort); }, [&] { return put_status(p, msg.status); },
                 [&] { return put_text(p, msg.message, kMaxMessageLength); }, [&] { return put_procs(p, msg.procs); });
}

pmix_status_t decode(Unpacker &u, AbortRequest *msg_p)
{
    return decode_into(msg_p, [&](AbortRequest &msg) {
        return chain([&] { return expect_command(u, Command::Abort); }, [&] { return get_status(u, &msg.status); },
                     [&] { return get_text(u, kMaxMessageLength, &msg.message); },
                     [&] { return get_procs(u, &msg.procs); });
    });
}

pmix_status_t encode(const FinalizeRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Finalize); }, [&] { return put_array(p, msg.directives); });
}

pmix_status_t decode(Unpacker &u, FinalizeRequest *msg_p)
{
    return decode_into(msg_p, [&](FinalizeRequest &msg) {
        return chain([&] { return expect_command(u, Command::Finalize); },
                     [&] { return get_array(u, &msg.directives); });
    });
}

pmix_status_t encode(const RegisterEventsRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::RegisterEvents); }, [&] { return put_codes(p, msg.codes); },
                 [&] { return put_array(p, msg.info); });
}

pmix_status_t decode(Unpacker &u, RegisterEventsRequest *msg_p)
{
    return decode_into(msg_p, [&](RegisterEventsRequest &msg) {
        return chain([&] { return expect_command(u, Command::RegisterEvents); },
                     [&] { return get_codes(u, &msg.codes); }, [&] { return get_array(u, &msg.info); });
    });
}

pmix_status_t encode(const DeregisterEventsRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::DeregisterEvents); }, [&] { return p.put_u64(msg.reference); });
}

pmix_status_t decode(Unpacker &u, DeregisterEventsRequest *msg_p)
{
    return decode_into(msg_p, [&](DeregisterEventsRequest &msg) {
        return chain([&] { return expect_command(u, Command::DeregisterEvents); },
                     [&] { return u.get_u64(&msg.reference); });
    });
}

pmix_status_t encode(const NotifyEventRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::NotifyEvent); }, [&] { return put_event_body(p, msg.event); });
}

pmix_status_t decode(Unpacker &u, NotifyEventRequest *msg_p)
{
    return decode_into(msg_p, [&](NotifyEventRequest &msg) {
        return chain([&] { return expect_command(u, Command::NotifyEvent); },
                     [&] { return get_event_body(u, &msg.event); });
    });
}

pmix_status_t encode(const QueryRequest &msg, Packer &p)
{
    return chain([&] { return put_command(p, Command::Query); }, [&] { return put_array(p, msg.queries); });
}

pmix_status_t decode(Unpacker &u, QueryRequest *msg_p)
{
    return decode_into(msg_p, [&](QueryRequest &msg) {
        return chain([&] { return expect_command(u, Command::Query); }, [&] { return get_array(u, &msg.queries); });
    });
}

// ---------------------------------------------------------------- replies

pmix_status_t encode(const StatusReply &msg, Packer &p)
{
    return put_status(p, msg.status);
}

pmix_status_t decode(Unpacker &u, StatusReply *msg_p)
{
    return decode_into(msg_p, [&](StatusReply &msg) { return get_status(u, &msg.status); });
}

pmix_status_t encode(const RegisterEventsReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return p.put_u64(msg.reference); });
}

pmix_status_t decode(Unpacker &u, RegisterEventsReply *msg_p)
{
    return decode_into(msg_p, [&](RegisterEventsReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return u.get_u64(&msg.reference); });
    });
}

pmix_status_t encode(const QueryReply &msg, Packer &p)
{
    return chain([&] { return put_status(p, msg.status); }, [&] { return put_array(p, msg.results); });
}

pmix_status_t decode(Unpacker &u, QueryReply *msg_p)
{
    return decode_into(msg_p, [&](QueryReply &msg) {
        return chain([&] { return get_status(u, &msg.status); }, [&] { return get_array(u, &msg.results); });
    });
}

// ---------------------------------------------------------------- notifications

pmix_status_t encode(const Event &msg, Packer &p)
{
    return chain([&] { return put_code(p, static_cast<uint16_t>(Notification::Event)); },
                 [&] { return put_event_body(p, msg); });
}

pmix_status_t decode(Unpacker &u, Event *msg_p)
{
    return decode_into(msg_p, [&](Event &msg) {
        return chain([&] { return expect_code(u, static_cast<uint16_t>(Notification::Event)); },
                     [&] { return get_event_body(u, &msg); });
    });
}

}  // namespace pmixpp::wire
