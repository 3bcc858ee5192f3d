#include "client/openpmix/host_requests.h"

#include "common/openpmix/commands.h"
#include "common/openpmix/in_order.h"
#include "common/openpmix/kvals.h"

#include <pmixpp/util.hpp>

#include <unistd.h>

#include <ctime>
#include <string>

namespace pmixpp::client {

namespace {

using openpmix::in_order;
using openpmix::Reader;
using openpmix::Writer;

// [n SIZE][INFO × n]
pmix_status_t pack_info_array(Writer &writer, const wire::InfoArray &info)
{
    return writer.pack_counted(PMIX_INFO, info.data(), info.size());
}

// [n SIZE][keys STRING, one PACK each]
pmix_status_t pack_keys(Writer &writer, const std::vector<std::string> &keys)
{
    pmix_status_t rc = writer.pack_size(keys.size());
    for (const std::string &key : keys) {
        if (rc == PMIX_SUCCESS) rc = writer.pack_string(key.c_str());
    }
    return rc;
}

// OpenPMIx names the sender's uid first; its server checks it no further.
pmix_status_t pack_uid(Writer &writer)
{
    return writer.pack_uint32(static_cast<uint32_t>(getuid()));
}

// Lookup and unpublish: [cmd][uid][nkeys][keys][ndirs][dirs].
template <typename Request>
pmix_status_t pack_keyed(openpmix::Command command, std::span<const uint8_t> ours, Writer &writer)
{
    Request r;
    const pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
    if (rc != PMIX_SUCCESS) return rc;
    return in_order([&] { return writer.pack_command(static_cast<uint8_t>(command)); },
                    [&] { return pack_uid(writer); }, [&] { return pack_keys(writer, r.keys); },
                    [&] { return pack_info_array(writer, r.directives); });
}

// Connect and disconnect: [cmd][nprocs][procs][ninfo][infos].
template <typename Request>
pmix_status_t pack_connect(openpmix::Command command, std::span<const uint8_t> ours, Writer &writer)
{
    Request r;
    const pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
    if (rc != PMIX_SUCCESS) return rc;
    return in_order([&] { return writer.pack_command(static_cast<uint8_t>(command)); },
                    [&] { return writer.pack_counted(PMIX_PROC, r.procs.data(), r.procs.size()); },
                    [&] { return pack_info_array(writer, r.info); });
}

}  // namespace

bool is_host_command(wire::Command command)
{
    switch (command) {
    case wire::Command::Query:
    case wire::Command::Log:
    case wire::Command::Publish:
    case wire::Command::Lookup:
    case wire::Command::Unpublish:
    case wire::Command::Allocate:
    case wire::Command::JobControl:
    case wire::Command::Monitor:
    case wire::Command::Spawn:
    case wire::Command::Connect:
    case wire::Command::Disconnect: return true;
    default: return false;
    }
}

pmix_status_t pack_procs_or_own_job(Writer &writer, const std::vector<pmix_proc_t> &procs, const pmix_proc_t &self)
{
    if (!procs.empty()) return writer.pack_counted(PMIX_PROC, procs.data(), procs.size());
    pmix_proc_t whole{};
    PMIX_LOAD_PROCID(&whole, self.nspace, PMIX_RANK_WILDCARD);
    return writer.pack_counted(PMIX_PROC, &whole, 1);
}

pmix_status_t pack_host_request(wire::Command command, std::span<const uint8_t> ours, const pmix_proc_t &self,
                                Writer &writer)
{
    using openpmix::Command;
    auto as = [&](Command theirs, auto pack) {
        return in_order([&] { return writer.pack_command(static_cast<uint8_t>(theirs)); }, pack);
    };
    switch (command) {
    case wire::Command::Query: {
        wire::QueryRequest r;
        pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        return rc != PMIX_SUCCESS ? rc : as(Command::query, [&] {
            return writer.pack_counted(PMIX_QUERY, r.queries.data(), r.queries.size());
        });
    }
    case wire::Command::Log: {
        wire::LogRequest r;
        pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        // Stamped only when asked, as OpenPMIx's client does.
        const bool stamp = util::flag_set(r.directives.data(), r.directives.size(), PMIX_LOG_GENERATE_TIMESTAMP);
        const time_t now = stamp ? time(nullptr) : 0;
        return rc != PMIX_SUCCESS ? rc : as(Command::log, [&] {
            return in_order([&] { return writer.pack(PMIX_TIME, &now, 1); },
                            [&] { return pack_info_array(writer, r.data); },
                            [&] { return pack_info_array(writer, r.directives); });
        });
    }
    case wire::Command::Publish: {
        wire::PublishRequest r;
        pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        return rc != PMIX_SUCCESS ? rc : as(Command::publish, [&] {
            return in_order([&] { return pack_uid(writer); }, [&] { return pack_info_array(writer, r.info); });
        });
    }
    case wire::Command::Lookup: return pack_keyed<wire::LookupRequest>(Command::lookup, ours, writer);
    case wire::Command::Unpublish: return pack_keyed<wire::UnpublishRequest>(Command::unpublish, ours, writer);
    case wire::Command::Allocate: {
        wire::AllocateRequest r;
        pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        return rc != PMIX_SUCCESS ? rc : as(Command::allocate, [&] {
            return in_order([&] { return writer.pack(PMIX_ALLOC_DIRECTIVE, &r.directive, 1); },
                            [&] { return pack_info_array(writer, r.info); });
        });
    }
    case wire::Command::JobControl: {
        wire::JobControlRequest r;
        pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        return rc != PMIX_SUCCESS ? rc : as(Command::job_control, [&] {
            return in_order([&] { return pack_procs_or_own_job(writer, r.targets, self); },
                            [&] { return pack_info_array(writer, r.directives); });
        });
    }
    case wire::Command::Monitor: {
        wire::MonitorRequest r;
        pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        if (rc == PMIX_SUCCESS && r.monitor.size() != 1) rc = PMIX_ERR_BAD_PARAM;
        return rc != PMIX_SUCCESS ? rc : as(Command::monitor, [&] {
            return in_order([&] { return writer.pack(PMIX_INFO, r.monitor.data(), 1); },
                            [&] { return writer.pack_status(r.error); },
                            [&] { return pack_info_array(writer, r.directives); });
        });
    }
    case wire::Command::Spawn: {
        wire::SpawnRequest r;
        pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
        return rc != PMIX_SUCCESS ? rc : as(Command::spawn, [&] {
            return in_order([&] { return pack_info_array(writer, r.job_info); },
                            [&] { return writer.pack_counted(PMIX_APP, r.apps.data(), r.apps.size()); });
        });
    }
    case wire::Command::Connect: return pack_connect<wire::ConnectRequest>(Command::connect, ours, writer);
    case wire::Command::Disconnect: return pack_connect<wire::DisconnectRequest>(Command::disconnect, ours, writer);
    default: return PMIX_ERR_NOT_SUPPORTED;
    }
}

pmix_status_t host_reply(wire::Command command, pmix_status_t status, Reader &reader, wire::Bytes *ours_p)
{
    pmix_status_t rc = PMIX_SUCCESS;
    switch (command) {
    case wire::Command::Query: {
        wire::QueryReply reply;
        reply.status = status;
        if (!reader.at_end()) rc = openpmix::read_counted_infos(reader, &reply.results);
        return rc == PMIX_SUCCESS ? wire::encode_to_bytes(reply, ours_p) : rc;
    }
    case wire::Command::Allocate:
    case wire::Command::Monitor: {
        wire::InfoReply reply;
        reply.status = status;
        if (!reader.at_end()) rc = openpmix::read_counted_infos(reader, &reply.info);
        return rc == PMIX_SUCCESS ? wire::encode_to_bytes(reply, ours_p) : rc;
    }
    case wire::Command::JobControl: {
        wire::JobControlReply reply;
        reply.status = status;
        return wire::encode_to_bytes(reply, ours_p);
    }
    case wire::Command::Lookup: {
        wire::LookupReply reply;
        reply.status = status;
        if (status == PMIX_SUCCESS) {
            pmix_pdata_t *data = nullptr;
            std::size_t n = 0;
            rc = reader.unpack_counted(PMIX_PDATA, reinterpret_cast<void **>(&data), &n);
            if (rc == PMIX_SUCCESS) reply.data.adopt(data, n);
        }
        return rc == PMIX_SUCCESS ? wire::encode_to_bytes(reply, ours_p) : rc;
    }
    case wire::Command::Spawn: {
        // [status][nspace], then the new job's keys, which we do not keep.
        wire::SpawnReply reply;
        reply.status = status;
        if (!reader.at_end()) rc = reader.unpack_string(&reply.nspace);
        return rc == PMIX_SUCCESS ? wire::encode_to_bytes(reply, ours_p) : rc;
    }
    default: {
        wire::StatusReply reply;
        reply.status = status;
        return wire::encode_to_bytes(reply, ours_p);
    }
    }
}

}  // namespace pmixpp::client
