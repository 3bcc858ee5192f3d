#include "client/openpmix/iof_requests.h"

#include "common/openpmix/commands.h"
#include "common/openpmix/in_order.h"

#include <vector>

namespace pmixpp::client {

namespace {

using openpmix::Command;
using openpmix::Reader;
using openpmix::Writer;

using openpmix::in_order;

pmix_status_t pack_command(Writer &writer, Command command)
{
    return writer.pack_command(static_cast<uint8_t>(command));
}

// OpenPMIx's end of input: PMIX_IOF_COMPLETE among the directives.
pmix_status_t directives_with_end(const wire::IofPushRequest &r, std::vector<pmix_info_t> *all_p)
{
    all_p->assign(r.directives.begin(), r.directives.end());  // borrowed, not owned
    if (!r.eof) return PMIX_SUCCESS;
    for (const pmix_info_t &info : r.directives) {
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_COMPLETE)) return PMIX_SUCCESS;
    }
    pmix_info_t end{};
    PMIX_INFO_LOAD(&end, PMIX_IOF_COMPLETE, nullptr, PMIX_BOOL);
    all_p->push_back(end);
    return PMIX_SUCCESS;
}

}  // namespace

bool is_iof_command(wire::Command command)
{
    return command == wire::Command::IofPull || command == wire::Command::IofDeregister ||
           command == wire::Command::IofPush;
}

pmix_status_t pack_iof_pull(std::span<const uint8_t> ours, uint64_t local_id, Writer &writer)
{
    wire::IofPullRequest r;
    pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
    if (rc != PMIX_SUCCESS) return rc;
    const pmix_iof_channel_t channel = r.channels;
    const std::size_t id = local_id;
    return in_order([&] { return pack_command(writer, Command::iof_pull); },
                    [&] { return writer.pack_counted(PMIX_PROC, r.procs.data(), r.procs.size()); },
                    [&] { return writer.pack_counted(PMIX_INFO, r.directives.data(), r.directives.size()); },
                    [&] { return writer.pack(PMIX_IOF_CHANNEL, &channel, 1); }, [&] { return writer.pack_size(id); });
}

pmix_status_t pack_iof_deregister(const wire::IofDeregisterRequest &r, std::size_t server_id, Writer &writer)
{
    return in_order([&] { return pack_command(writer, Command::iof_deregister); },
                    [&] { return writer.pack_counted(PMIX_INFO, r.directives.data(), r.directives.size()); },
                    [&] { return writer.pack_size(server_id); });
}

pmix_status_t pack_iof_push(std::span<const uint8_t> ours, Writer &writer)
{
    wire::IofPushRequest r;
    pmix_status_t rc = wire::decode_payload(ours.data(), ours.size(), &r);
    if (rc != PMIX_SUCCESS) return rc;
    std::vector<pmix_info_t> directives;
    rc = directives_with_end(r, &directives);
    pmix_byte_object_t data{};
    data.bytes = reinterpret_cast<char *>(r.data.data());
    data.size = r.data.size();
    return in_order([&] { return rc; }, [&] { return pack_command(writer, Command::iof_push); },
                    [&] { return writer.pack_counted(PMIX_PROC, r.targets.data(), r.targets.size()); },
                    [&] { return writer.pack_counted(PMIX_INFO, directives.data(), directives.size()); },
                    [&] { return writer.pack(PMIX_BYTE_OBJECT, &data, 1); });
}

pmix_status_t read_pull_answer(pmix_status_t status, Reader &reader, std::size_t *server_id_p)
{
    if (status != PMIX_SUCCESS) return PMIX_SUCCESS;
    return reader.unpack_size(server_id_p);
}

pmix_status_t read_output(openpmix::Encoding encoding, std::span<const uint8_t> theirs, wire::IofData *data_p)
{
    Reader reader(encoding, theirs);
    wire::IofData data;
    pmix_iof_channel_t channel = 0;
    std::size_t id = 0;
    int32_t one = 1;
    pmix_info_t *info = nullptr;
    std::size_t ninfo = 0;
    pmix_byte_object_t bytes{};
    pmix_status_t rc = in_order(
        [&] { return reader.unpack_proc(&data.source); },
        [&] { return reader.unpack(PMIX_IOF_CHANNEL, &channel, &one); }, [&] { return reader.unpack_size(&id); },
        [&] { return reader.unpack_counted(PMIX_INFO, reinterpret_cast<void **>(&info), &ninfo); },
        [&] {
            one = 1;
            return reader.unpack(PMIX_BYTE_OBJECT, &bytes, &one);
        });
    if (info != nullptr) data.info.adopt(info, ninfo);
    if (rc != PMIX_SUCCESS) return rc;
    const auto *first = reinterpret_cast<const uint8_t *>(bytes.bytes);
    if (first != nullptr) data.data.assign(first, first + bytes.size);
    PMIX_BYTE_OBJECT_DESTRUCT(&bytes);
    data.channel = channel;
    data.id = id;
    *data_p = std::move(data);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::client
