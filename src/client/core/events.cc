// Registration and ordering of handlers; the filters are in event_filters.cc,
// delivery in event_chain.cc.
#include "client/core/events.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <cstring>
#include <tuple>

namespace pmixpp::client {

namespace {

using util::key_is;

bool info_true(const pmix_info_t &info)
{
    return info.value.type == PMIX_UNDEF || (info.value.type == PMIX_BOOL && info.value.data.flag);
}

int bucket_of(const EventHandler &h)
{
    if (h.placement < 0) return 0;
    if (h.placement > 0) return 4;
    if (h.codes.size() == 1) return 1;
    return h.codes.empty() ? 3 : 2;
}

}  // namespace

pmix_status_t EventRegistry::describe(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[],
                                      size_t ninfo, pmix_notification_fn_t function, EventHandler *handler_p)
{
    if (function == nullptr || (codes == nullptr && ncodes > 0) || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    EventHandler handler;
    handler.function = function;
    handler.codes.assign(codes, codes + ncodes);
    for (size_t i = 0; i < ninfo; ++i) {
        const pmix_info_t &item = info[i];
        if (key_is(item, PMIX_EVENT_HDLR_NAME) && item.value.type == PMIX_STRING && item.value.data.string != nullptr) {
            handler.name = item.value.data.string;
        } else if (key_is(item, PMIX_EVENT_HDLR_FIRST) && info_true(item)) {
            handler.placement = -1;
        } else if (key_is(item, PMIX_EVENT_HDLR_LAST) && info_true(item)) {
            handler.placement = 1;
        } else if (key_is(item, PMIX_EVENT_HDLR_PREPEND) && info_true(item)) {
            handler.prepend = true;
        } else if (key_is(item, PMIX_EVENT_RETURN_OBJECT) && item.value.type == PMIX_POINTER) {
            handler.return_object = item.value.data.ptr;
            handler.has_return_object = true;
        }
    }
    pmix_status_t rc = read_filter(info, ninfo, &handler.filter);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    *handler_p = std::move(handler);
    return PMIX_SUCCESS;
}

size_t EventRegistry::add(EventHandler handler)
{
    handler.reference = next_reference_++;
    handler.sequence = next_sequence_++;
    size_t reference = handler.reference;
    handlers_.push_back(std::move(handler));
    return reference;
}

bool EventRegistry::remove(size_t reference, EventHandler *handler_p)
{
    auto it = std::find_if(handlers_.begin(), handlers_.end(),
                           [reference](const EventHandler &h) { return h.reference == reference; });
    if (it == handlers_.end()) {
        return false;
    }
    *handler_p = std::move(*it);
    handlers_.erase(it);
    return true;
}

void EventRegistry::set_server_reference(size_t reference, uint64_t server_reference)
{
    for (auto &h : handlers_) {
        if (h.reference == reference) {
            h.server_reference = server_reference;
        }
    }
}

std::vector<EventHandler> EventRegistry::matching(const wire::Event &event, const EventHome &home) const
{
    std::vector<EventHandler> selected;
    bool no_defaults = excludes_default_handlers(event);
    for (const auto &h : handlers_) {
        bool wants_code =
            h.codes.empty() ? !no_defaults : std::find(h.codes.begin(), h.codes.end(), event.status) != h.codes.end();
        if (wants_code && filter_accepts(h.filter, event, home)) {
            selected.push_back(h);
        }
    }
    // Within a kind: prepended handlers first (latest first), then the others
    // in registration order.
    auto order = [](const EventHandler &h) {
        int64_t seq = static_cast<int64_t>(h.sequence);
        return std::make_tuple(bucket_of(h), h.prepend ? 0 : 1, h.prepend ? -seq : seq);
    };
    std::stable_sort(selected.begin(), selected.end(),
                     [&](const EventHandler &a, const EventHandler &b) { return order(a) < order(b); });
    return selected;
}

}  // namespace pmixpp::client
