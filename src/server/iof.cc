// PMIx_server_IOF_deliver: output the host read from its procs, handed to
// every client or tool that pulled it (server/iof/deliver.h) and kept in
// the recent-output cache for later pulls. The bytes are copied before the
// call returns, so the host may reuse its buffer at once. What waits for
// the progress thread is bounded (kMaxInFlight): a host that delivers
// faster than the server hands out loses chunks rather than growing us;
// they are counted, and every pull hears of the count on its next chunk.
#include <pmix_server.h>

#include <atomic>
#include <memory>
#include <new>

#include "server/state/server.h"
#include "server/iof/deliver.h"

namespace {

constexpr std::size_t kMaxInFlight = std::size_t{16} << 20;
std::atomic<std::size_t> g_in_flight{0};
std::atomic<uint64_t> g_dropped{0};

struct Chunk {
    pmix_proc_t source{};
    uint16_t channel = 0;
    std::vector<uint8_t> data;
    pmixpp::wire::InfoArray info;
};

bool one_output_channel(pmix_iof_channel_t channel)
{
    return channel == PMIX_FWD_STDOUT_CHANNEL || channel == PMIX_FWD_STDERR_CHANNEL ||
           channel == PMIX_FWD_STDDIAG_CHANNEL;
}

// Progress thread: what the bound dropped so far goes to every pull.
void tell_dropped(pmixpp::server::Server &server)
{
    const uint64_t dropped = g_dropped.exchange(0);
    if (dropped > 0) pmixpp::server::iof::dropped_before_delivery(server, dropped);
}

}  // namespace

pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source, pmix_iof_channel_t channel,
                                      const pmix_byte_object_t *bo, const pmix_info_t info[], size_t ninfo,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (source == nullptr || bo == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    if (bo->bytes == nullptr && bo->size > 0) return PMIX_ERR_BAD_PARAM;
    if (!one_output_channel(channel)) return PMIX_ERR_BAD_PARAM;
    if (pmixpp::server::current() == nullptr) return PMIX_ERR_INIT;
    if (g_in_flight.fetch_add(bo->size) + bo->size > kMaxInFlight) {
        g_in_flight.fetch_sub(bo->size);
        // The first drop of a run posts the count, in case no later chunk
        // does (the host's last output was the one dropped).
        if (g_dropped.fetch_add(bo->size) == 0) pmixpp::server::post_to_server(tell_dropped);
        return pmixpp::server::op_result(PMIX_SUCCESS, cbfunc, cbdata);
    }
    auto undo = [size = bo->size] { g_in_flight.fetch_sub(size); };
    auto chunk = std::shared_ptr<Chunk>(new (std::nothrow) Chunk{*source, channel, {}, {}});
    if (chunk == nullptr) return undo(), PMIX_ERR_NOMEM;
    try {
        chunk->data.assign(bo->bytes, bo->bytes + bo->size);
    } catch (const std::bad_alloc &) {
        return undo(), PMIX_ERR_NOMEM;
    }
    if (ninfo > 0 && chunk->info.assign_copy(info, ninfo) != PMIX_SUCCESS) return undo(), PMIX_ERR_NOMEM;
    // Delivered on the progress thread, in the order the host called; the
    // callback (posted after) runs once the chunk is queued to every puller.
    // (Dropped with the server, if it finalizes first: the bound then
    // counts it as in flight, harmless since nothing delivers any more.)
    pmixpp::server::post_to_server([chunk](pmixpp::server::Server &server) {
        g_in_flight.fetch_sub(chunk->data.size());
        tell_dropped(server);
        pmixpp::server::iof::deliver(server, chunk->source, chunk->channel, chunk->data.data(), chunk->data.size(),
                                     chunk->info);
    });
    return pmixpp::server::op_result(PMIX_SUCCESS, cbfunc, cbdata);
}
