#include "client/core/events.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "common/values/value_ops.h"

namespace pmixpp::client {

namespace {

bool key_is(const pmix_info_t &info, const char *key)
{
    return std::strncmp(info.key, key, PMIX_MAX_KEYLEN) == 0;
}

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

// Appends copies of src[0..n) to *array_p.
pmix_status_t append_infos(wire::InfoArray *array_p, const pmix_info_t *src, size_t n)
{
    if (src == nullptr || n == 0) {
        return PMIX_SUCCESS;
    }
    wire::InfoArray merged;
    pmix_status_t rc = merged.allocate(array_p->size() + n);
    for (size_t i = 0; rc == PMIX_SUCCESS && i < array_p->size(); ++i) {
        rc = values::info_xfer(&merged[i], &(*array_p)[i]);
    }
    for (size_t i = 0; rc == PMIX_SUCCESS && i < n; ++i) {
        rc = values::info_xfer(&merged[array_p->size() + i], &src[i]);
    }
    if (rc == PMIX_SUCCESS) {
        *array_p = std::move(merged);
    }
    return rc;
}

// One event on its way through the matching handlers. Owns itself: deleted
// when the chain ends.
struct Chain {
    std::shared_ptr<Session> session;
    std::vector<EventHandler> handlers;
    size_t next = 0;
    wire::Event event;
    wire::InfoArray delivered;  // what the running handler was given
    wire::InfoArray results;    // what the handlers so far returned
};

void run_next(Chain *chain);

void step_done(pmix_status_t status, pmix_info_t *results, size_t nresults, pmix_op_cbfunc_t cbfunc,
               void *thiscbdata, void *notification_cbdata)
{
    auto *chain = static_cast<Chain *>(notification_cbdata);
    auto copied = std::make_shared<wire::InfoArray>();
    if (results != nullptr && nresults > 0) {
        (void)copied->assign_copy(results, nresults);
    }
    // The handler may release its results once we hold our copy.
    if (cbfunc != nullptr) {
        cbfunc(PMIX_SUCCESS, thiscbdata);
    }
    pmix_status_t rc = chain->session->engine->post([chain, status, copied] {
        (void)append_infos(&chain->results, copied->data(), copied->size());
        if (status == PMIX_EVENT_ACTION_COMPLETE) {
            delete chain;
            return;
        }
        run_next(chain);
    });
    if (rc != PMIX_SUCCESS) {
        delete chain;
    }
}

void run_next(Chain *chain)
{
    if (chain->next >= chain->handlers.size() || chain->session->finalizing.load()) {
        delete chain;
        return;
    }
    const EventHandler &handler = chain->handlers[chain->next++];
    wire::InfoArray info;
    size_t extra = handler.has_return_object ? 1 : 0;
    if (info.allocate(chain->event.info.size() + extra) == PMIX_SUCCESS) {
        for (size_t i = 0; i < chain->event.info.size(); ++i) {
            (void)values::info_xfer(&info[i], &chain->event.info[i]);
        }
        if (extra != 0) {
            (void)values::info_load(&info[info.size() - 1], PMIX_EVENT_RETURN_OBJECT,
                                    handler.return_object, PMIX_POINTER);
        }
    }
    chain->delivered = std::move(info);
    handler.function(handler.reference, chain->event.status, &chain->event.source,
                     chain->delivered.data(), chain->delivered.size(), chain->results.data(),
                     chain->results.size(), step_done, chain);
}

}  // namespace

pmix_status_t EventRegistry::describe(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[],
                                      size_t ninfo, pmix_notification_fn_t function,
                                      EventHandler *handler_p)
{
    if (function == nullptr || (codes == nullptr && ncodes > 0) || (info == nullptr && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    EventHandler handler;
    handler.function = function;
    handler.codes.assign(codes, codes + ncodes);
    for (size_t i = 0; i < ninfo; ++i) {
        const pmix_info_t &item = info[i];
        if (key_is(item, PMIX_EVENT_HDLR_NAME) && item.value.type == PMIX_STRING &&
            item.value.data.string != nullptr) {
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

std::vector<EventHandler> EventRegistry::matching(pmix_status_t status) const
{
    std::vector<EventHandler> selected;
    for (const auto &h : handlers_) {
        if (h.codes.empty() || std::find(h.codes.begin(), h.codes.end(), status) != h.codes.end()) {
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

void deliver_event(const std::shared_ptr<Session> &session, wire::Event event)
{
    if (!session->events) {
        return;
    }
    auto handlers = session->events->matching(event.status);
    if (handlers.empty()) {
        return;
    }
    auto *chain = new (std::nothrow) Chain{};
    if (chain == nullptr) {
        return;
    }
    chain->session = session;
    chain->handlers = std::move(handlers);
    chain->event = std::move(event);
    run_next(chain);
}

}  // namespace pmixpp::client
