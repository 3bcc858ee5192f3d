// PMIx_server_IOF_deliver: output the host read from its procs, handed to
// every client or tool that pulled it (server/iof/deliver.h) and kept in
// the recent-output cache for later pulls. The bytes are copied before the
// call returns, so the host may reuse its buffer at once.
#include <pmix_server.h>

#include <memory>
#include <new>

#include "server/core/server.h"
#include "server/iof/deliver.h"

namespace {

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

}  // namespace

pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source, pmix_iof_channel_t channel,
                                      const pmix_byte_object_t *bo, const pmix_info_t info[],
                                      size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (source == nullptr || bo == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    if (bo->bytes == nullptr && bo->size > 0) return PMIX_ERR_BAD_PARAM;
    if (!one_output_channel(channel)) return PMIX_ERR_BAD_PARAM;
    if (pmixpp::server::current() == nullptr) return PMIX_ERR_INIT;
    auto chunk = std::shared_ptr<Chunk>(new (std::nothrow) Chunk{*source, channel, {}, {}});
    if (chunk == nullptr) return PMIX_ERR_NOMEM;
    try {
        chunk->data.assign(bo->bytes, bo->bytes + bo->size);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
    if (ninfo > 0 && chunk->info.assign_copy(info, ninfo) != PMIX_SUCCESS) return PMIX_ERR_NOMEM;
    // Delivered on the progress thread, in the order the host called; the
    // callback (posted after) runs once the chunk is queued to every puller.
    pmixpp::server::post_to_server([chunk](pmixpp::server::Server &server) {
        pmixpp::server::iof::deliver(server, chunk->source, chunk->channel, chunk->data.data(), chunk->data.size(),
                                     chunk->info);
    });
    return pmixpp::server::op_result(PMIX_SUCCESS, cbfunc, cbdata);
}
