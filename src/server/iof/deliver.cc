#include "server/iof/deliver.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "common/runtime/log.h"
#include "common/wire/flow_limits.h"
#include "server/state/peer_io.h"
#include "server/iof/iof_registry.h"
#include "server/iof/local_output.h"

namespace pmixpp::server::iof {

namespace {

constexpr const char *kVerboseEnv = "PMIX_MCA_pmix_server_verbose";

bool backlogged(const Peer &peer)
{
    static const wire::FlowLimits limits = wire::FlowLimits::server_from_environment();
    const std::size_t bound = limits.high_water > 0 ? limits.high_water : wire::FlowLimits::kDefaultHighWater;
    return peer.connection->queued_bytes() > bound;
}

// How long a puller that is behind waits before an empty chunk tells it a
// count no other chunk carried (and how often that is tried again).
constexpr std::chrono::milliseconds kDropNoticeDelay{50};

void arm_drop_notice(Server &server);

void count_drop(Server &server, Pull &pull, const Peer &peer, const pmix_proc_t &source, uint16_t channel,
                std::size_t size)
{
    if (pull.dropped == 0) {  // one line per stall, not per chunk
        runtime::log_trace(kVerboseEnv, "server",
                           "iof: " + describe(peer) + " does not read its output (pull " + std::to_string(pull.id) +
                               "); dropping chunks until it does");
    }
    pull.dropped += size;
    pull.dropped_total += size;
    pull.dropped_source = source;
    pull.dropped_channel = channel;
    arm_drop_notice(server);
}

// One chunk to a pull whose peer has room, carrying the count of what was
// dropped before it.
void send_chunk(Pull &pull, Peer &peer, const pmix_proc_t &source, uint16_t channel, const uint8_t *data,
                std::size_t size, const wire::InfoArray &info)
{
    wire::IofData chunk;
    chunk.id = pull.id;
    chunk.source = source;
    chunk.channel = channel;
    chunk.data.assign(data, data + size);
    chunk.dropped = pull.dropped;
    if (!info.empty() && chunk.info.assign_copy(info.data(), info.size()) != PMIX_SUCCESS) chunk.info = {};
    if (pull.dropped > 0) {
        runtime::log_trace(kVerboseEnv, "server",
                           "iof: " + describe(peer) + " reads again; " + std::to_string(pull.dropped) +
                               " bytes were dropped for pull " + std::to_string(pull.id));
    }
    pull.dropped = 0;
    send_message(peer, wire::FrameKind::notify, wire::kNoTag, chunk);
}

// A piece for the host's own pull: to the client library's sink, which
// never falls behind (it runs the handler here).
void send_to_host(Server &server, const Pull &pull, const pmix_proc_t &source, uint16_t channel, const uint8_t *data,
                  std::size_t size, const wire::InfoArray &info)
{
    const auto &sink = server.part<iof::IofRegistry>().host_sink();
    if (!sink) return;
    wire::IofData chunk;
    chunk.id = pull.id;
    chunk.source = source;
    chunk.channel = channel;
    chunk.data.assign(data, data + size);
    if (!info.empty() && chunk.info.assign_copy(info.data(), info.size()) != PMIX_SUCCESS) chunk.info = {};
    sink(chunk);
}

// One piece (at most kMaxIofChunk) to one pull.
void send_piece(Server &server, Pull &pull, const pmix_proc_t &source, uint16_t channel, const uint8_t *data,
                std::size_t size, const wire::InfoArray &info)
{
    if (pull.owner == kHostOwner) return send_to_host(server, pull, source, channel, data, size, info);
    Peer *peer = server.find_peer(pull.owner);
    if (peer == nullptr || peer->state != PeerState::connected) return;
    if (backlogged(*peer)) return count_drop(server, pull, *peer, source, channel, size);
    send_chunk(pull, *peer, source, channel, data, size, info);
}

// The output stopped while some pullers were behind: no chunk will carry
// their counts, so an empty one does, once each has room again. Tried every
// kDropNoticeDelay while any count is untold.
void tell_untold_drops(Server &server)
{
    const wire::InfoArray none;
    bool still_behind = false;
    for (Pull *pull : server.part<iof::IofRegistry>().with_untold_drops()) {
        Peer *peer = server.find_peer(pull->owner);
        if (peer == nullptr || peer->state != PeerState::connected) continue;
        if (backlogged(*peer)) {
            still_behind = true;
            continue;
        }
        send_chunk(*pull, *peer, pull->dropped_source, pull->dropped_channel, nullptr, 0, none);
    }
    if (still_behind) arm_drop_notice(server);
}

void arm_drop_notice(Server &server)
{
    runtime::Timer &timer = server.part<iof::IofRegistry>().drop_notice_timer();
    if (timer.pending()) return;
    timer = server.engine.add_timer(kDropNoticeDelay, [] {
        if (Server *now = current()) tell_untold_drops(*now);
    });
}

}  // namespace

void deliver(Server &server, const pmix_proc_t &source, uint16_t channel, const uint8_t *data, std::size_t size,
             const wire::InfoArray &info)
{
    server.part<iof::LocalOutput>().write(source, channel, data, size);
    server.part<iof::IofRegistry>().remember(source, channel, data, size);
    const ClientRecord *client = server.find_client(source);
    const PeerId source_peer = client != nullptr ? client->peer : kNoPeer;
    for (Pull *pull : server.part<iof::IofRegistry>().matching(source, channel, source_peer)) {
        std::size_t at = 0;
        do {  // an empty chunk still goes once (it may carry PMIX_IOF_COMPLETE)
            const std::size_t piece = std::min(size - at, wire::kMaxIofChunk);
            send_piece(server, *pull, source, channel, data + at, piece, info);
            at += piece;
        } while (at < size);
    }
}

void dropped_before_delivery(Server &server, uint64_t bytes)
{
    runtime::log_trace(kVerboseEnv, "server",
                       "iof: " + std::to_string(bytes) +
                           " bytes of output were dropped before delivery (the host delivered faster than the "
                           "server could hand them out)");
    server.part<iof::IofRegistry>().add_dropped_to_all(bytes);
    arm_drop_notice(server);
}

void replay_cache(Server &server, Pull &pull, std::size_t limit)
{
    const wire::InfoArray none;
    for (const CachedStream *stream : server.part<iof::IofRegistry>().cached_for(pull)) {
        const std::size_t keep = std::min(limit, stream->tail.size());
        const std::vector<uint8_t> bytes(stream->tail.end() - static_cast<std::ptrdiff_t>(keep), stream->tail.end());
        for (std::size_t at = 0; at < bytes.size(); at += wire::kMaxIofChunk) {
            const std::size_t piece = std::min(bytes.size() - at, wire::kMaxIofChunk);
            send_piece(server, pull, stream->source, stream->channel, bytes.data() + at, piece, none);
        }
    }
}

}  // namespace pmixpp::server::iof
