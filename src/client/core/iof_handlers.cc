#include "client/core/iof_handlers.h"

#include <pmixpp/util.hpp>

#include <ctime>
#include <map>
#include <mutex>

#include "common/values/array_ops.h"

namespace pmixpp::client {

namespace {

struct Handler {
    uint64_t server_id = 0;
    pmix_iof_cbfunc_t cbfunc = nullptr;
    IofFormat format;
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

const char *channel_name(uint16_t channel)
{
    switch (channel) {
    case PMIX_FWD_STDOUT_CHANNEL: return "stdout";
    case PMIX_FWD_STDERR_CHANNEL: return "stderr";
    default: return "stddiag";
    }
}

using util::nspace_of;

std::string line_prefix(const IofFormat &format, const pmix_proc_t &source, uint16_t channel)
{
    std::string prefix;
    if (format.timestamp) {
        char when[64] = {};
        const std::time_t now = std::time(nullptr);
        std::tm local{};
        localtime_r(&now, &local);
        std::strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &local);
        prefix += std::string(when) + " ";
    }
    if (format.tag) {
        prefix += "[" + nspace_of(source) + "," + std::to_string(source.rank) + "]<" + channel_name(channel) + ">: ";
    }
    return prefix;
}

std::string xml_escaped(const std::string &text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        default: out += c;
        }
    }
    return out;
}

}  // namespace

IofFormat iof_format_of(const pmix_info_t directives[], std::size_t ndirs)
{
    IofFormat format;
    for (std::size_t i = 0; directives != nullptr && i < ndirs; ++i) {
        const pmix_info_t &info = directives[i];
        const bool on = info.value.type != PMIX_BOOL || info.value.data.flag;
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_TAG_OUTPUT)) format.tag = on;
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_TIMESTAMP_OUTPUT)) format.timestamp = on;
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_XML_OUTPUT)) format.xml = on;
    }
    return format;
}

std::string format_iof(const IofFormat &format, const pmix_proc_t &source, uint16_t channel, const std::string &bytes)
{
    std::string body;
    if (format.tag || format.timestamp) {
        const std::string prefix = line_prefix(format, source, channel);
        bool line_start = true;
        for (char c : bytes) {
            if (line_start) body += prefix;
            body += c;
            line_start = c == '\n';
        }
    } else {
        body = bytes;
    }
    if (!format.xml) return body;
    return std::string("<") + channel_name(channel) + " nspace=\"" + xml_escaped(nspace_of(source)) + "\" rank=\"" +
           std::to_string(source.rank) + "\">" + xml_escaped(body) + "</" + channel_name(channel) + ">\n";
}

std::size_t add_iof_handler(uint64_t server_id, pmix_iof_cbfunc_t cbfunc, const IofFormat &format)
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
    std::string text = notice_only ? raw : format_iof(handler.format, data.source, data.channel, raw);
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
