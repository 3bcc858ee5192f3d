#include "client/core/iof_handlers.h"

#include <map>
#include <mutex>

#include "common/values/array_ops.h"

namespace pmixpp::client {

namespace {

struct Handler {
    uint64_t server_id = 0;
    pmix_iof_cbfunc_t cbfunc = nullptr;
    iof::Format format;
};

struct Table {
    std::mutex mutex;
    std::map<std::size_t, Handler> by_local;
    std::size_t next_local = 0;
};

Table &table()
{
    static Table *handlers = new Table();  // never destroyed: a late chunk may still look
    return *handlers;
}

}  // namespace

std::size_t add_iof_handler(uint64_t server_id, pmix_iof_cbfunc_t cbfunc, const iof::Format &format)
{
    Table &handlers = table();
    std::lock_guard lock(handlers.mutex);
    const std::size_t local = handlers.next_local++;
    handlers.by_local[local] = Handler{server_id, cbfunc, format};
    return local;
}

bool remove_iof_handler(std::size_t local_id, uint64_t *server_id_p)
{
    Table &handlers = table();
    std::lock_guard lock(handlers.mutex);
    auto found = handlers.by_local.find(local_id);
    if (found == handlers.by_local.end()) return false;
    *server_id_p = found->second.server_id;
    handlers.by_local.erase(found);
    return true;
}

bool find_iof_handler(std::size_t local_id, uint64_t *server_id_p)
{
    Table &handlers = table();
    std::lock_guard lock(handlers.mutex);
    auto found = handlers.by_local.find(local_id);
    if (found == handlers.by_local.end()) return false;
    *server_id_p = found->second.server_id;
    return true;
}

void deliver_iof(const wire::IofData &data)
{
    std::size_t local = 0;
    Handler handler;
    {
        Table &handlers = table();
        std::lock_guard lock(handlers.mutex);
        bool found = false;
        for (const auto &[id, entry] : handlers.by_local) {
            if (entry.server_id != data.id) continue;
            local = id;
            handler = entry;
            found = true;
            break;
        }
        if (!found) return;
    }
    const std::string raw(data.data.begin(), data.data.end());
    // An empty chunk that only tells a count of dropped bytes (the server's
    // drop notice) has no line to tag or wrap.
    const bool notice_only = raw.empty() && data.dropped > 0 && data.info.empty();
    std::string text = notice_only ? raw : iof::apply(handler.format, data.source, data.channel, raw);
    // The server's info, plus how much was dropped before this chunk.
    const std::size_t ninfo = data.info.size() + (data.dropped > 0 ? 1 : 0);
    pmix_info_t *info = nullptr;
    if (ninfo > 0) {
        PMIX_INFO_CREATE(info, ninfo);
        if (info == nullptr) return;
        for (std::size_t i = 0; i < data.info.size(); ++i) {
            PMIx_Info_xfer(&info[i], const_cast<pmix_info_t *>(&data.info[i]));
        }
        if (data.dropped > 0) {
            uint64_t dropped = data.dropped;
            PMIX_INFO_LOAD(&info[ninfo - 1], kIofDroppedKey, &dropped, PMIX_UINT64);
        }
    }
    pmix_byte_object_t bo{text.data(), text.size()};
    pmix_proc_t source = data.source;
    handler.cbfunc(local, data.channel, &source, &bo, info, ninfo);
    if (info != nullptr) PMIX_INFO_FREE(info, ninfo);
}

}  // namespace pmixpp::client
